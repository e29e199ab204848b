package imapsync

import "testing"

// ATTACK: seeding a look-alike's age through the spam folder. A server
// without SPECIAL-USE (Courier, older Dovecot and cPanel hosts, many ISPs)
// names its spam folder under the INBOX namespace ("INBOX.Spam",
// "INBOX/Junk") or as its webmail calls it ("Bulk Mail", "Junk Email",
// "Spam Mail"): wantFolder falls back to a few exact names only, so those
// folders are synced as ordinary mail. The stranger's seeding mail, filed
// as spam by the provider, then counts toward its domain's first arrival
// (trust.NewDomainAge) and its facts are read, as if the person had kept
// it.
// SAFE: the fallback names match as the last element of a hierarchy and
// cover the common spam folder names; those folders are not synced.
func TestReview10SpamFolderUnderNamespaceIsSynced(t *testing.T) {
	s := &Syncer{}
	for _, name := range []string{"INBOX.Spam", "INBOX/Junk", "INBOX.Junk", "Bulk Mail", "Junk Email", "Spam Mail", "INBOX.Trash"} {
		if s.wantFolder(name, "") {
			t.Errorf("folder %q (no SPECIAL-USE) is synced and read as ordinary mail", name)
		}
	}
}
