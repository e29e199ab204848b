package imapsync

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"mailnode/mail/store"
)

// Syncer copies one IMAP account into the store.
type Syncer struct {
	cfg   Config
	store *store.Store
	log   *slog.Logger
	now   func() time.Time
	// renewNext asks the next sign-in for a new access token: the last
	// session ended because its token was about to lapse.
	renewNext atomic.Bool
	// stuck counts AUTHENTICATE exchanges left waiting in go-imap
	// (authenticateOnce).
	stuck atomic.Int32
}

// New returns a Syncer. It does no I/O.
func New(cfg Config, st *store.Store, logger *slog.Logger) (*Syncer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.defaults()
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Syncer{
		cfg:   cfg,
		store: st,
		log:   logger.With("component", "imapsync", "account", cfg.Account),
		now:   time.Now,
	}, nil
}

// Result counts what one pass changed.
type Result struct {
	Folders  int
	Added    int
	Flagged  int // messages whose flags changed
	Removed  int // messages expunged on the server
	Resets   int // folders refetched after a UIDVALIDITY change
	Duration time.Duration
}

// Add sums o into r (durations are not summed: passes may overlap).
func (r *Result) Add(o Result) {
	r.Folders += o.Folders
	r.Added += o.Added
	r.Flagged += o.Flagged
	r.Removed += o.Removed
	r.Resets += o.Resets
}

// Changed reports whether the pass changed the store.
func (r Result) Changed() bool { return r.Added+r.Flagged+r.Removed+r.Resets > 0 }

// Sync connects, passes once over every selected folder and logs out.
func (s *Syncer) Sync(ctx context.Context) (Result, error) {
	c, err := s.connect(ctx, nil)
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	res, err := s.syncAll(ctx, c)
	if err != nil {
		return res, err
	}
	c.Logout().Wait()
	return res, nil
}

// account ensures the account row exists.
func (s *Syncer) account(ctx context.Context) (store.Account, error) {
	return s.store.EnsureAccount(ctx, store.Account{Name: s.cfg.Account, Server: s.cfg.Address, Username: s.cfg.Username})
}

// syncAll lists the server's folders, drops local folders the server no
// longer has and passes over each selected folder.
func (s *Syncer) syncAll(ctx context.Context, c *imapclient.Client) (Result, error) {
	start := s.now()
	acct, err := s.account(ctx)
	if err != nil {
		return Result{}, err
	}
	remote, err := s.listFolders(c)
	if err != nil {
		return Result{}, err
	}
	local, err := s.store.Folders(ctx, acct.ID)
	if err != nil {
		return Result{}, err
	}
	wanted := make(map[string]bool, len(remote))
	for _, rf := range remote {
		wanted[rf.name] = true
	}
	for _, lf := range local {
		if !wanted[lf.Name] {
			s.log.Info("Folder gone from server or no longer synced; removing local copy", "mailbox", lf.Name)
			if err := s.store.DeleteFolder(ctx, lf.ID); err != nil {
				return Result{}, err
			}
		}
	}
	var total Result
	for _, rf := range remote {
		res, err := s.syncFolder(ctx, c, acct.ID, rf)
		total.Add(res)
		if err != nil {
			return total, err
		}
	}
	total.Duration = s.now().Sub(start)
	s.log.Debug("Sync pass done", "folders", total.Folders, "added", total.Added, "flagged", total.Flagged,
		"removed", total.Removed, "resets", total.Resets, "duration", total.Duration)
	return total, nil
}

type remoteFolder struct {
	name       string
	specialUse string
	status     *imap.StatusData // from LIST-STATUS; nil when the server sent none
}

// listFolders returns the selectable folders to sync, honouring SPECIAL-USE
// (RFC 6154) to leave out Trash and Junk.
func (s *Syncer) listFolders(c *imapclient.Client) ([]remoteFolder, error) {
	opts := &imap.ListOptions{ReturnSpecialUse: c.Caps().Has(imap.CapSpecialUse)}
	if c.Caps().Has(imap.CapListStatus) && c.Caps().Has(imap.CapCondStore) {
		// Each folder's state with the list (RFC 5819), so a folder that
		// has not changed is passed over without a SELECT (unchanged).
		opts.ReturnStatus = &imap.StatusOptions{NumMessages: true, UIDNext: true, UIDValidity: true, HighestModSeq: true}
	}
	list, err := c.List("", "*", opts).Collect()
	if err != nil {
		return nil, fmt.Errorf("list folders: %w", err)
	}
	var out []remoteFolder
	for _, ld := range list {
		if slices.Contains(ld.Attrs, imap.MailboxAttrNoSelect) || slices.Contains(ld.Attrs, imap.MailboxAttrNonExistent) {
			continue
		}
		var special string
		for _, a := range ld.Attrs {
			switch a {
			case imap.MailboxAttrAll, imap.MailboxAttrArchive, imap.MailboxAttrDrafts, imap.MailboxAttrFlagged,
				imap.MailboxAttrJunk, imap.MailboxAttrSent, imap.MailboxAttrTrash:
				special = string(a)
			}
		}
		if special == "" {
			// No SPECIAL-USE attribute: a Junk or Trash folder known by
			// its name is kept as one (the store counts no sender's
			// first arrival there, the facts pass reads none of it).
			special = specialByName(ld.Mailbox, ld.Delim)
		}
		if !s.wantFolder(ld.Mailbox, special) {
			continue
		}
		out = append(out, remoteFolder{name: ld.Mailbox, specialUse: special, status: ld.Status})
	}
	return out, nil
}

func (s *Syncer) wantFolder(name, special string) bool {
	if len(s.cfg.Folders) > 0 {
		return slices.Contains(s.cfg.Folders, name)
	}
	if slices.Contains(s.cfg.Exclude, name) {
		return false
	}
	if s.cfg.IncludeTrashJunk {
		return true
	}
	switch imap.MailboxAttr(special) {
	case imap.MailboxAttrTrash, imap.MailboxAttrJunk:
		return false
	case "":
		// Servers without SPECIAL-USE: fall back to the usual names.
		return specialByName(name, 0) == ""
	}
	return true
}

// specialByName is the special use, \Junk or \Trash, that a folder's name
// says it has on a server without SPECIAL-USE, else "". The name's last
// element counts, after the hierarchy delimiter delim (0: unknown, "/" or
// "."): Courier, older Dovecot and many ISPs' servers keep it under the
// INBOX namespace ("INBOX.Spam", "INBOX/Junk"), and webmails name it their
// own way ("Bulk Mail", "Junk Email"). The tenth outside review
// (2026-11-29, LOW-12) seeded a look-alike's age through "INBOX.Spam",
// which the exact names synced as ordinary mail.
func specialByName(name string, delim rune) string {
	last := name
	if delim != 0 {
		last = name[strings.LastIndex(name, string(delim))+len(string(delim)):]
	} else if i := strings.LastIndexAny(name, "/."); i >= 0 {
		last = name[i+1:]
	}
	switch strings.ToLower(strings.TrimSpace(last)) {
	case "junk", "spam", "bulk", "bulk mail", "junk email", "junk e-mail", "junk mail", "spam mail",
		"junk-e-mail", "spamverdacht", "courrier indésirable", "indésirables", "pourriel", "correo no deseado",
		"posta indesiderata", "ongewenste e-mail", "ongewenst", "skräppost", "uønsket e-post", "uønsket post",
		"roskaposti", "nevyžádaná pošta", "wiadomości-śmieci":
		return string(imap.MailboxAttrJunk)
	case "trash", "deleted", "deleted items", "deleted messages", "deleted mail", "bin", "papierkorb",
		"gelöschte elemente", "gelöschte objekte", "corbeille", "éléments supprimés", "papelera",
		"elementos eliminados", "cestino", "elementi eliminati", "prullenbak", "verwijderde items",
		"papperskorgen", "borttagna objekt", "papirkurv", "slettede elementer", "kosz", "koš":
		return string(imap.MailboxAttrTrash)
	}
	return ""
}

// syncFolder makes one pass over one folder; see the package comment.
func (s *Syncer) syncFolder(ctx context.Context, c *imapclient.Client, accountID int64, rf remoteFolder) (Result, error) {
	res := Result{Folders: 1}
	log := s.log.With("mailbox", rf.name)
	f, err := s.store.EnsureFolder(ctx, accountID, rf.name, rf.specialUse)
	if err != nil {
		return res, err
	}
	condstore := c.Caps().Has(imap.CapCondStore)
	if condstore && rf.status != nil && !selected(c, rf.name) {
		same, err := s.unchanged(ctx, f, rf.status)
		if err != nil || same {
			return res, err // nothing changed since the last complete pass: no SELECT
		}
	}
	sel, err := c.Select(rf.name, &imap.SelectOptions{ReadOnly: true, CondStore: condstore}).Wait()
	if err != nil {
		return res, fmt.Errorf("examine %q: %w", rf.name, err)
	}
	if sel.HighestModSeq == 0 {
		condstore = false // the server has CONDSTORE but not for this folder (RFC 7162 section 3.1.2.2)
	}

	if f.UIDValidity != sel.UIDValidity {
		if f.UIDValidity != 0 {
			log.Warn("UIDVALIDITY changed; fetching the folder again", "old", f.UIDValidity, "new", sel.UIDValidity)
			res.Resets++
		}
		if err := s.store.ResetFolder(ctx, f.ID, sel.UIDValidity); err != nil {
			return res, err
		}
		f.UIDValidity, f.UIDNext, f.HighestModSeq, f.LastUID = sel.UIDValidity, 0, 0, 0
	}

	localCount, err := s.store.CountMessages(ctx, f.ID)
	if err != nil {
		return res, err
	}
	if condstore && f.UIDNext != 0 && sel.UIDNext == imap.UID(f.UIDNext) &&
		sel.HighestModSeq == f.HighestModSeq && int(sel.NumMessages) == localCount {
		return res, nil // nothing changed since the last complete pass
	}

	oldLastUID := f.LastUID
	prog := Progress{Account: s.cfg.Account, Folder: rf.name, Total: max(int(sel.NumMessages)-localCount, 0), Started: s.now()}
	s.progress(prog)
	defer func() {
		prog.Finished = true
		s.progress(prog)
	}()
	if sel.NumMessages > 0 && (sel.UIDNext == 0 || uint32(sel.UIDNext) > f.LastUID+1) {
		n, err := s.fetchNew(ctx, c, &f, uint32(sel.UIDNext), condstore, &prog)
		res.Added += n
		if err != nil {
			return res, err
		}
	}

	if oldLastUID > 0 {
		n, err := s.syncFlags(ctx, c, f, oldLastUID, condstore)
		res.Flagged += n
		if err != nil {
			return res, err
		}
		n, err = s.syncExpunges(ctx, c, f, oldLastUID)
		res.Removed += n
		if err != nil {
			return res, err
		}
	}

	if err := s.store.FinishFolderSync(ctx, f.ID, uint32(sel.UIDNext), sel.HighestModSeq, s.now()); err != nil {
		return res, err
	}
	if res.Changed() {
		log.Debug("Folder synced", "added", res.Added, "flagged", res.Flagged, "removed", res.Removed)
	}
	return res, nil
}

// unchanged reports whether a folder's status, as LIST-STATUS (RFC 5819)
// gave it with the folder list, is the state the last complete pass
// stored: the same UIDVALIDITY, UIDNEXT and HIGHESTMODSEQ (which any flag
// change or expunge raises, RFC 7162 section 3.1) and as many messages as
// the store holds. Such a folder needs no SELECT, which makes a server
// open the folder's whole index: the bulk of a pass that finds nothing,
// and more of it the larger the folder.
func (s *Syncer) unchanged(ctx context.Context, f store.Folder, st *imap.StatusData) (bool, error) {
	if st.NumMessages == nil || st.HighestModSeq == 0 || f.UIDNext == 0 ||
		st.UIDValidity != f.UIDValidity || uint32(st.UIDNext) != f.UIDNext || st.HighestModSeq != f.HighestModSeq {
		return false, nil
	}
	n, err := s.store.CountMessages(ctx, f.ID)
	return err == nil && n == int(*st.NumMessages), err
}

// selected reports whether name is the client's selected folder, whose
// STATUS a server need not keep current (RFC 9051 section 6.3.11):
// a pass reads that folder's state from SELECT.
func selected(c *imapclient.Client, name string) bool {
	m := c.Mailbox()
	return m != nil && m.Name == name
}

// progress reports p if anyone listens.
func (s *Syncer) progress(p Progress) {
	if s.cfg.Progress != nil {
		s.cfg.Progress(p)
	}
}

// syncFlags brings the flags of messages up to lastUID in line with the
// server and returns how many changed.
func (s *Syncer) syncFlags(ctx context.Context, c *imapclient.Client, f store.Folder, lastUID uint32, condstore bool) (int, error) {
	opts := &imap.FetchOptions{UID: true, Flags: true}
	if condstore && f.HighestModSeq > 0 {
		opts.ModSeq = true
		opts.ChangedSince = f.HighestModSeq
	}
	var uids imap.UIDSet
	uids.AddRange(1, imap.UID(lastUID))
	msgs, err := c.Fetch(uids, opts).Collect()
	if err != nil {
		return 0, fmt.Errorf("fetch flags of %q: %w", f.Name, err)
	}
	if len(msgs) == 0 {
		return 0, nil
	}
	current, err := s.store.Flags(ctx, f.ID)
	if err != nil {
		return 0, err
	}
	var updates []store.FlagUpdate
	for _, m := range msgs {
		flags := flagStrings(m.Flags)
		old, ok := current[uint32(m.UID)]
		if !ok || old == store.FlagString(flags) {
			continue
		}
		updates = append(updates, store.FlagUpdate{UID: uint32(m.UID), ModSeq: m.ModSeq, Flags: flags})
	}
	return len(updates), s.store.UpdateFlags(ctx, f.ID, updates)
}

// syncExpunges removes stored messages up to lastUID that the server no
// longer has.
func (s *Syncer) syncExpunges(ctx context.Context, c *imapclient.Client, f store.Folder, lastUID uint32) (int, error) {
	var uids imap.UIDSet
	uids.AddRange(1, imap.UID(lastUID))
	var opts *imap.SearchOptions
	if c.Caps().Has(imap.CapESearch) || c.Caps().Has(imap.CapIMAP4rev2) {
		opts = &imap.SearchOptions{ReturnAll: true} // compact ranges instead of one number per message
	}
	data, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{uids}}, opts).Wait()
	if err != nil {
		return 0, fmt.Errorf("search UIDs of %q: %w", f.Name, err)
	}
	onServer := make(map[uint32]struct{})
	for _, u := range data.AllUIDs() {
		onServer[uint32(u)] = struct{}{}
	}
	local, err := s.store.UIDs(ctx, f.ID)
	if err != nil {
		return 0, err
	}
	var gone []uint32
	for _, u := range local {
		if u > lastUID {
			break
		}
		if _, ok := onServer[u]; !ok {
			gone = append(gone, u)
		}
	}
	return len(gone), s.store.RemoveUIDs(ctx, f.ID, gone)
}

// flagStrings converts flags for the store. \Recent is left out: it
// describes the session, not the message, and IMAP4rev2 drops it.
func flagStrings(flags []imap.Flag) []string {
	out := make([]string, 0, len(flags))
	for _, f := range flags {
		if !strings.EqualFold(string(f), `\Recent`) {
			out = append(out, string(f))
		}
	}
	return out
}

// Check connects and logs in with cfg, then logs out: whether the
// settings work, with the error a person can act on (wrong password,
// TLS against a plain server, no answer), before they are saved.
func Check(ctx context.Context, cfg Config, logger *slog.Logger) error {
	s, err := New(cfg, nil, logger)
	if err != nil {
		return err
	}
	c, err := s.connect(ctx, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Logout().Wait()
}
