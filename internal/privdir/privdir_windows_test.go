package privdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"

	"mailnode/internal/wintest"
)

// openTo gives path a DACL (protected, as SetNamedSecurityInfo with
// PROTECTED writes it) granting this user and Everyone the rights in
// mask, as a directory under C:\ or a share may have.
func openTo(t *testing.T, path string, everyone windows.ACCESS_MASK) {
	t.Helper()
	me, err := currentUser()
	if err != nil {
		t.Fatal(err)
	}
	world, err := windows.CreateWellKnownSid(windows.WinWorldSid)
	if err != nil {
		t.Fatal(err)
	}
	acl, err := windows.ACLFromEntries([]windows.EXPLICIT_ACCESS{
		{AccessPermissions: fileAllAccess, AccessMode: windows.SET_ACCESS, Inheritance: windows.NO_INHERITANCE,
			Trustee: windows.TRUSTEE{TrusteeForm: windows.TRUSTEE_IS_SID, TrusteeType: windows.TRUSTEE_IS_USER, TrusteeValue: windows.TrusteeValueFromSID(me)}},
		{AccessPermissions: everyone, AccessMode: windows.GRANT_ACCESS, Inheritance: windows.NO_INHERITANCE,
			Trustee: windows.TRUSTEE{TrusteeForm: windows.TRUSTEE_IS_SID, TrusteeType: windows.TRUSTEE_IS_WELL_KNOWN_GROUP, TrusteeValue: windows.TrusteeValueFromSID(world)}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, acl, nil); err != nil {
		t.Fatalf("SetNamedSecurityInfo(%s): %v", path, err)
	}
	if open, err := others(path, 0); err != nil || len(open) != 1 {
		t.Fatalf("others(%s) after opening it to Everyone = %v, %v; the DACL did not stick", path, open, err)
	}
}

// onlyMe checks that path's DACL grants this user alone.
func onlyMe(t *testing.T, path string) {
	t.Helper()
	_, dacl, err := security(path)
	if err != nil {
		t.Fatal(err)
	}
	me, _ := currentUser()
	if dacl == nil || dacl.AceCount != 1 {
		t.Fatalf("%s: DACL %v, want one entry (this user)", path, dacl)
	}
	var ace *windows.ACCESS_ALLOWED_ACE
	if err := windows.GetAce(dacl, 0, &ace); err != nil {
		t.Fatal(err)
	}
	if sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart)); !sid.Equals(me) || ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE {
		t.Errorf("%s: the entry grants %s (type %d), want %s", path, sid, ace.Header.AceType, me)
	}
}

// requireDACLs skips the rest of a test under Wine: Wine (as Debian
// ships it, without the staging patches) keeps no DACL. It maps one it
// is given onto the unix mode bits, ignores PROTECTED and merges the
// parent's inheritable entries, and on every read derives a DACL from
// the mode again (SYSTEM, the user, Everyone for the "other" bits), so a
// DACL for this user alone never reads back. On Windows these checks run.
func requireDACLs(t *testing.T) {
	t.Helper()
	if wintest.UnderWine() {
		t.Skip("Wine keeps no DACL (it derives one from the unix mode bits on each read): a private DACL cannot be read back here; this part runs on Windows")
	}
}

func TestEnsureWindows(t *testing.T) {
	dir := filepath.Join(wintest.TempDir(t), "a", "b")
	// A new directory inherits the temporary directory's DACL, which
	// lets SYSTEM and Administrators in, or more: Ensure may close it.
	if _, err := Ensure(dir); err != nil {
		t.Fatalf("Ensure(new) = %v", err)
	}
	if err := ownedByMe(dir, nil); err != nil {
		t.Fatal(err)
	}
	requireDACLs(t)
	if err := checkPrivate(dir, nil); err != nil {
		t.Fatalf("after Ensure: %v", err)
	}
	if changed, err := Ensure(dir); err != nil || changed {
		t.Fatalf("Ensure(private) = %v, %v; want nothing to do", changed, err)
	}
	openTo(t, dir, windows.GENERIC_READ)
	if changed, err := Ensure(dir); err != nil || !changed {
		t.Fatalf("Ensure(open to Everyone) = %v, %v; want made private", changed, err)
	}
	onlyMe(t, dir)
	// What is made inside inherits it: private from its first byte.
	f := filepath.Join(dir, "node.db")
	if err := os.WriteFile(f, []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := CheckFile(f); err != nil {
		t.Errorf("a file made in the private directory: %v", err)
	}
	if _, err := Ensure(f); err == nil {
		t.Error("Ensure(a file) = nil")
	}
}

func TestCheckFileWindows(t *testing.T) {
	dir := wintest.TempDir(t)
	key := filepath.Join(dir, "ca.key")
	if err := CheckFile(key); err != nil {
		t.Errorf("missing file: %v", err)
	}
	if err := WriteFile(key, []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(key); err != nil || string(b) != "k" {
		t.Fatalf("read back %q, %v", b, err)
	}
	requireDACLs(t)
	onlyMe(t, key)
	if err := CheckFile(key); err != nil {
		t.Errorf("written 0600: %v", err)
	}
	openTo(t, key, windows.GENERIC_READ)
	if err := CheckFile(key); err == nil || !strings.Contains(err.Error(), "open to other users") {
		t.Errorf("readable by Everyone: %v", err)
	}
	if changed, err := MakePrivate(key); err != nil || !changed {
		t.Errorf("MakePrivate(readable by Everyone) = %v, %v", changed, err)
	}
	if err := CheckFile(key); err != nil {
		t.Errorf("after MakePrivate: %v", err)
	}
	onlyMe(t, key)

	pub := filepath.Join(dir, "ca.pem")
	if err := WriteFile(pub, []byte("c"), 0o644); err != nil {
		t.Fatal(err)
	}
	openTo(t, pub, windows.GENERIC_READ)
	if err := CheckPublic(pub); err != nil {
		t.Errorf("CheckPublic(readable by Everyone): %v", err)
	}
	openTo(t, pub, windows.GENERIC_READ|windows.GENERIC_WRITE)
	if err := CheckPublic(pub); err == nil || !strings.Contains(err.Error(), "changed by other users") {
		t.Errorf("CheckPublic(writable by Everyone) = %v", err)
	}
}

// TestOthersWindows: a file open to Everyone is refused, naming who may
// open it (Everyone, S-1-1-0); one others may change is refused as a
// CA certificate too. Runs under Wine: a DACL granting Everyone maps
// onto the mode bits and reads back as one.
func TestOthersWindows(t *testing.T) {
	key := filepath.Join(wintest.TempDir(t), "ca.key")
	if err := os.WriteFile(key, []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	openTo(t, key, windows.GENERIC_READ)
	if err := CheckFile(key); err == nil || !strings.Contains(err.Error(), "S-1-1-0") {
		t.Errorf("CheckFile(readable by Everyone) = %v", err)
	}
	if err := CheckPublic(key); err != nil {
		t.Errorf("CheckPublic(readable by Everyone) = %v", err)
	}
	openTo(t, key, windows.GENERIC_READ|windows.GENERIC_WRITE)
	if err := CheckPublic(key); err == nil || !strings.Contains(err.Error(), "changed by other users") {
		t.Errorf("CheckPublic(writable by Everyone) = %v", err)
	}
	if err := ownedByMe(key, nil); err != nil {
		t.Errorf("ownedByMe(a file this test wrote) = %v", err)
	}
}
