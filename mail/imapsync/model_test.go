package imapsync_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"mailnode/mail/imaptest"
	"mailnode/mail/store"
)

// seed returns the random seed for a test: MAILNODE_TEST_SEED if set, else
// the clock. It is logged so a failure can be replayed.
func seed(t *testing.T) uint64 {
	s := uint64(time.Now().UnixNano())
	if v := os.Getenv("MAILNODE_TEST_SEED"); v != "" {
		s, _ = strconv.ParseUint(v, 10, 64)
	}
	t.Logf("MAILNODE_TEST_SEED=%d", s)
	return s
}

// mailbox applies random operations to the server through its own client,
// as another mail program would.
type mailbox struct {
	t       *testing.T
	c       *imapclient.Client
	r       *rand.Rand
	folders []string // operated on; INBOX first
	n       int      // messages generated so far
}

func newMailbox(t *testing.T, srv *imaptest.Server, r *rand.Rand) *mailbox {
	m := &mailbox{t: t, c: srv.Dial(t), r: r, folders: []string{"INBOX", "Archive", "Receipts"}}
	for _, f := range m.folders[1:] {
		if err := m.c.Create(f, nil).Wait(); err != nil {
			t.Fatalf("create %s: %v", f, err)
		}
	}
	return m
}

func (m *mailbox) allFolders(srv *imaptest.Server) []string {
	out := slices.Clone(m.folders)
	if srv.Kind == "dovecot" {
		out = append(out, "Sent", "Drafts")
	}
	return out
}

var someFlags = []imap.Flag{imap.FlagSeen, imap.FlagFlagged, imap.FlagAnswered, imap.FlagDraft, "$Label1", "Receipt"}

func (m *mailbox) randomFlags() []imap.Flag {
	var out []imap.Flag
	for _, f := range someFlags {
		if m.r.IntN(4) == 0 {
			out = append(out, f)
		}
	}
	return out
}

// selectSome selects a random folder and returns its size.
func (m *mailbox) selectSome() (string, uint32) {
	f := m.folders[m.r.IntN(len(m.folders))]
	sel, err := m.c.Select(f, nil).Wait()
	if err != nil {
		m.t.Fatalf("select %s: %v", f, err)
	}
	return f, sel.NumMessages
}

// step applies one random operation and names it.
func (m *mailbox) step() string {
	switch k := m.r.IntN(12); {
	case k < 4:
		m.n++
		appendMsg(m.t, m.c, m.folders[m.r.IntN(len(m.folders))], genMessage(m.r, m.n), m.randomFlags())
		return "append"
	case k < 7:
		_, n := m.selectSome()
		if n == 0 {
			return "noop"
		}
		op := []imap.StoreFlagsOp{imap.StoreFlagsAdd, imap.StoreFlagsDel, imap.StoreFlagsSet}[m.r.IntN(3)]
		seq := imap.SeqSetNum(1 + m.r.Uint32N(n))
		if err := m.c.Store(seq, &imap.StoreFlags{Op: op, Flags: m.randomFlags(), Silent: true}, nil).Close(); err != nil {
			m.t.Fatalf("store: %v", err)
		}
		return "flag"
	case k < 9:
		from, n := m.selectSome()
		if n == 0 {
			return "noop"
		}
		to := m.folders[m.r.IntN(len(m.folders))]
		if to == from {
			return "noop"
		}
		if _, err := m.c.Move(imap.SeqSetNum(1+m.r.Uint32N(n)), to).Wait(); err != nil {
			m.t.Fatalf("move %s to %s: %v", from, to, err)
		}
		return "move"
	case k < 11:
		_, n := m.selectSome()
		if n == 0 {
			return "noop"
		}
		var seq imap.SeqSet
		for range 1 + m.r.IntN(3) {
			seq.AddNum(1 + m.r.Uint32N(n))
		}
		m.c.Store(seq, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}, Silent: true}, nil).Close()
		if err := m.c.Expunge().Close(); err != nil {
			m.t.Fatalf("expunge: %v", err)
		}
		return "expunge"
	default:
		m.resetUIDValidity(m.folders[1+m.r.IntN(len(m.folders)-1)])
		return "uidvalidity-reset"
	}
}

// resetUIDValidity recreates a folder with the same messages, which gives
// it a new UIDVALIDITY and new UIDs, as a server rebuild would.
func (m *mailbox) resetUIDValidity(folder string) {
	sel, err := m.c.Select(folder, nil).Wait()
	if err != nil {
		m.t.Fatalf("select %s: %v", folder, err)
	}
	var msgs []*imapclient.FetchMessageBuffer
	if sel.NumMessages > 0 {
		var all imap.SeqSet
		all.AddRange(1, 0)
		msgs, err = m.c.Fetch(all, &imap.FetchOptions{Flags: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
		if err != nil {
			m.t.Fatalf("fetch %s: %v", folder, err)
		}
	}
	m.c.Unselect().Wait()
	if err := m.c.Delete(folder).Wait(); err != nil {
		m.t.Fatalf("delete %s: %v", folder, err)
	}
	if err := m.c.Create(folder, nil).Wait(); err != nil {
		m.t.Fatalf("create %s: %v", folder, err)
	}
	newSel, err := m.c.Select(folder, nil).Wait()
	if err != nil {
		m.t.Fatal(err)
	}
	if newSel.UIDValidity == sel.UIDValidity {
		m.t.Fatalf("server kept UIDVALIDITY %d across delete and create", sel.UIDValidity)
	}
	for _, msg := range msgs {
		var flags []imap.Flag
		for _, f := range msg.Flags {
			if f != "\\Recent" {
				flags = append(flags, f)
			}
		}
		appendMsg(m.t, m.c, folder, msg.BodySection[0].Bytes, flags)
	}
}

// TestModelRandomOperations applies a few hundred random operations on the
// server between syncs and checks after every sync that the store equals
// the server: same folders, UIDs, flags and bytes.
func TestModelRandomOperations(t *testing.T) {
	servers(t, func(t *testing.T, srv *imaptest.Server) {
		r := rand.New(rand.NewPCG(seed(t), 1))
		m := newMailbox(t, srv, r)
		st := newStore(t)
		s := newSyncer(t, config(srv), st)
		counts := map[string]int{}
		ops := 0
		for ops < 300 {
			for range 1 + r.IntN(8) {
				counts[m.step()]++
				ops++
			}
			if _, err := s.Sync(context.Background()); err != nil {
				t.Fatalf("Sync after %d operations: %v", ops, err)
			}
			assertMirror(t, m.c, st, m.allFolders(srv))
		}
		t.Logf("%s: %d operations %v, store equal to server after every sync", srv.Kind, ops, counts)
	})
}

var errCut = errors.New("connection cut by test")

// cutConn drops the connection once budget bytes have crossed it in
// either direction, at whatever protocol state that happens to be.
type cutConn struct {
	net.Conn
	budget *atomic.Int64
}

func (c cutConn) take(n int) (int, bool) {
	left := c.budget.Add(-int64(n))
	if left >= 0 {
		return n, true
	}
	c.Conn.Close()
	if keep := int64(n) + left; keep > 0 {
		return int(keep), true
	}
	return 0, false
}

func (c cutConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		if k, ok := c.take(n); ok {
			return k, err
		}
		return 0, errCut
	}
	return n, err
}

func (c cutConn) Write(p []byte) (int, error) {
	k, ok := c.take(len(p))
	if !ok {
		return 0, errCut
	}
	n, err := c.Conn.Write(p[:k])
	if err == nil && k < len(p) {
		err = errCut
	}
	return n, err
}

// TestFaultCutConnection cuts the connection at random points of a sync.
// Whatever the cut interrupted, the store must hold only true copies of
// server messages, and the next clean sync must make it equal the server.
func TestFaultCutConnection(t *testing.T) {
	servers(t, func(t *testing.T, srv *imaptest.Server) {
		r := rand.New(rand.NewPCG(seed(t), 2))
		m := newMailbox(t, srv, r)
		st := newStore(t)
		// Both syncers count bytes; only the faulty one has a small budget.
		var budget, cleanBudget atomic.Int64
		dial := func(b *atomic.Int64) func(ctx context.Context, network, addr string) (net.Conn, error) {
			return func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return cutConn{Conn: c, budget: b}, nil
			}
		}
		cfg := config(srv)
		cfg.Dial = dial(&cleanBudget)
		clean := newSyncer(t, cfg, st)
		cfg.Dial = dial(&budget)
		faulty := newSyncer(t, cfg, st)
		cuts := 0
		traffic := int64(4 << 10)
		for round := range 40 {
			for range 1 + r.IntN(10) {
				m.step()
			}
			// Cut anywhere in a sync about as large as the last clean one.
			budget.Store(r.Int64N(traffic*3/2 + 1))
			if _, err := faulty.Sync(context.Background()); err != nil {
				cuts++
			}
			assertTrueCopies(t, m.c, st)
			const unlimited = 1 << 40
			cleanBudget.Store(unlimited)
			if _, err := clean.Sync(context.Background()); err != nil {
				t.Fatalf("round %d: clean Sync after a cut: %v", round, err)
			}
			traffic = max(unlimited-cleanBudget.Load(), 1<<10)
			assertMirror(t, m.c, st, m.allFolders(srv))
		}
		t.Logf("%s: %d of 40 syncs cut; the store stayed true and recovered every time", srv.Kind, cuts)
		if cuts == 0 {
			t.Errorf("no sync was cut; the test exercised nothing")
		}
	})
}

// assertTrueCopies checks that every stored message the server still has
// under the same UIDVALIDITY and UID has the server's bytes: an interrupted
// sync may be behind, never wrong.
func assertTrueCopies(t *testing.T, c *imapclient.Client, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	acct, _ := st.EnsureAccount(ctx, store.Account{Name: "test"})
	folders, _ := st.Folders(ctx, acct.ID)
	for _, f := range folders {
		sel, err := c.Select(f.Name, &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil {
			continue // deleted on the server; the next sync removes it
		}
		if sel.UIDValidity != f.UIDValidity {
			continue // stored UIDs belong to the folder's previous generation
		}
		server := map[uint32][32]byte{}
		for _, m := range serverContents(t, c, f.Name) {
			server[m.UID] = m.RawSHA256
		}
		local, _ := st.FolderContents(ctx, f.ID)
		seen := map[uint32]bool{}
		for _, l := range local {
			if seen[l.UID] {
				t.Fatalf("folder %s: uid %d stored twice", f.Name, l.UID)
			}
			seen[l.UID] = true
			if h, ok := server[l.UID]; ok && h != l.RawSHA256 {
				t.Fatalf("folder %s: uid %d stored with bytes the server does not have", f.Name, l.UID)
			}
		}
	}
}
