package relaystore

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"mailnode/relay/relaystore/pgtest"
)

var dirDecoy = Node{Label: "dddddddddddddddd", BoxKey: bytes.Repeat([]byte{0xdd}, 32)}

// resolvesTo reports whether s resolves address to label and box key
// (to the decoy when label is "").
func resolvesTo(t *testing.T, s Store, address, label string, box []byte) bool {
	t.Helper()
	n, err := s.Resolve(context.Background(), address, dirDecoy)
	if err != nil {
		t.Fatal(err)
	}
	if label == "" {
		label, box = dirDecoy.Label, dirDecoy.BoxKey
	}
	return n.Label == label && bytes.Equal(n.BoxKey, box)
}

func dirKey(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }

// TestDirectorySameInstance: on every store, a register, a re-key, a
// node taking its key to another address and a deletion are what the
// next resolve on the same store answers, with no wait.
func TestDirectorySameInstance(t *testing.T) {
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			ann := Node{Address: "ann@example.com", Label: "aaaaaaaaaaaaaaaa", NodeKey: dirKey(1), BoxKey: dirKey(2), RegisteredAt: time.Now()}
			if !resolvesTo(t, s, ann.Address, "", nil) {
				t.Fatal("unregistered address did not resolve to its decoy")
			}
			if err := s.PutNode(ctx, ann); err != nil {
				t.Fatal(err)
			}
			if !resolvesTo(t, s, ann.Address, ann.Label, ann.BoxKey) {
				t.Fatal("registration not seen by the next resolve")
			}
			if err := s.RotateKeys(ctx, ann.NodeKey, dirKey(3), dirKey(4)); err != nil {
				t.Fatal(err)
			}
			if !resolvesTo(t, s, ann.Address, ann.Label, dirKey(4)) {
				t.Fatal("re-key not seen by the next resolve")
			}
			if err := s.RotateKeys(ctx, dirKey(9), dirKey(5), dirKey(6)); err != ErrNotFound {
				t.Fatalf("RotateKeys(unknown key) = %v, want ErrNotFound", err)
			}
			// The node proves another mailbox with the same key: the
			// old address is forgotten.
			moved := Node{Address: "ann@other.example", Label: "bbbbbbbbbbbbbbbb", NodeKey: dirKey(3), BoxKey: dirKey(4), RegisteredAt: time.Now()}
			if err := s.PutNode(ctx, moved); err != nil {
				t.Fatal(err)
			}
			if !resolvesTo(t, s, ann.Address, "", nil) || !resolvesTo(t, s, moved.Address, moved.Label, moved.BoxKey) {
				t.Fatal("a node that moved address still resolves at its old one, or not at its new one")
			}
			if err := s.DeleteNode(ctx, moved.NodeKey); err != nil {
				t.Fatal(err)
			}
			if !resolvesTo(t, s, moved.Address, "", nil) {
				t.Fatal("deletion not seen by the next resolve")
			}
			if err := s.DeleteNode(ctx, moved.NodeKey); err != ErrNotFound {
				t.Fatalf("DeleteNode again = %v, want ErrNotFound", err)
			}
		})
	}
}

// TestDirectoryLoadedAtOpen: a store opened on a database that already
// holds nodes resolves them.
func TestDirectoryLoadedAtOpen(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	ann := Node{Address: "ann@example.com", Label: "aaaaaaaaaaaaaaaa", NodeKey: dirKey(1), BoxKey: dirKey(2), RegisteredAt: time.Now()}
	if err := s.PutNode(t.Context(), ann); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !resolvesTo(t, s, ann.Address, ann.Label, ann.BoxKey) {
		t.Fatal("a node stored before the store opened does not resolve")
	}
}

// TestDirectoryReload: a full reload (the reconciler's) makes the
// directory the table again, whatever it held.
func TestDirectoryReload(t *testing.T) {
	s, err := OpenSQLite(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ann := Node{Address: "ann@example.com", Label: "aaaaaaaaaaaaaaaa", NodeKey: dirKey(1), BoxKey: dirKey(2), RegisteredAt: time.Now()}
	if err := s.PutNode(t.Context(), ann); err != nil {
		t.Fatal(err)
	}
	s.dir.mu.Lock()
	s.dir.set("ghost@example.com", dirEntry{label: "gggggggggggggggg", boxKey: dirKey(7)}, true)
	s.dir.set(ann.Address, dirEntry{}, false)
	s.dir.mu.Unlock()
	if err := s.dir.reload(t.Context(), s.be); err != nil {
		t.Fatal(err)
	}
	if !resolvesTo(t, s, "ghost@example.com", "", nil) || !resolvesTo(t, s, ann.Address, ann.Label, ann.BoxKey) {
		t.Fatal("reload did not make the directory the table")
	}
}

// TestDirectoryRace: registers, re-keys and deletions race resolves of
// the same addresses (run under -race); every answer is the decoy or one
// of the pairs written, never a mix.
func TestDirectoryRace(t *testing.T) {
	for name, open := range openers(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := context.Background()
			const addrs = 8
			label := func(i int) string { return fmt.Sprintf("%016d", i) }
			var wg sync.WaitGroup
			stop := make(chan struct{})
			for w := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						if i%64 == 0 {
							// Leave the writers (and PostgreSQL) some of
							// the machine's cores.
							time.Sleep(time.Millisecond)
						}
						a := fmt.Sprintf("user%d@example.com", (i+w)%addrs)
						n, err := s.Resolve(ctx, a, dirDecoy)
						if err != nil {
							t.Error(err)
							return
						}
						if n.Label == dirDecoy.Label {
							if !bytes.Equal(n.BoxKey, dirDecoy.BoxKey) {
								t.Errorf("decoy label with box key %x", n.BoxKey)
							}
							continue
						}
						// A node's box key is its label's first byte,
						// or that plus 100 after a re-key.
						if b := n.BoxKey[0]; b != n.Label[15] && b != n.Label[15]+100 {
							t.Errorf("%s resolved to label %s with box key %x", a, n.Label, n.BoxKey)
						}
					}
				}()
			}
			for round := range 10 {
				for i := range addrs {
					a := fmt.Sprintf("user%d@example.com", i)
					l := label(i)
					nk := append(dirKey(byte(i)), byte(round))
					if err := s.PutNode(ctx, Node{Address: a, Label: l, NodeKey: nk, BoxKey: dirKey(l[15]), RegisteredAt: time.Now()}); err != nil {
						t.Fatal(err)
					}
					if err := s.RotateKeys(ctx, nk, append(nk, 1), dirKey(l[15]+100)); err != nil {
						t.Fatal(err)
					}
					if i%2 == 0 {
						if err := s.DeleteNode(ctx, append(nk, 1)); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			close(stop)
			wg.Wait()
			for i := range addrs {
				a := fmt.Sprintf("user%d@example.com", i)
				want, box := "", []byte(nil)
				if i%2 == 1 {
					want, box = label(i), dirKey(label(i)[15]+100)
				}
				if !resolvesTo(t, s, a, want, box) {
					t.Errorf("%s does not resolve as the last write left it", a)
				}
			}
		})
	}
}

// eventually waits up to bound for f, and reports how long it took.
func eventually(t *testing.T, bound time.Duration, what string, f func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !f() {
		if time.Since(start) > bound {
			t.Fatalf("%s: not within %v", what, bound)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(start)
}

// openTwo opens two instances on one PostgreSQL database.
func openTwo(t *testing.T) (a, b *Postgres, url string) {
	url = pgtest.Need(t)
	var err error
	if a, err = OpenPostgres(t.Context(), url); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if b, err = OpenPostgres(t.Context(), url); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return a, b, url
}

// notifyBound is how soon another instance sharing the database must
// resolve a change: a notification's round trip and one row read, on a
// loaded machine.
const notifyBound = 2 * time.Second

// TestDirectoryTwoInstances: two instances on one PostgreSQL: what one
// registers, re-keys and deletes, the other resolves within notifyBound,
// through LISTEN/NOTIFY.
func TestDirectoryTwoInstances(t *testing.T) {
	a, b, _ := openTwo(t)
	ctx := context.Background()
	ann := Node{Address: "ann@example.com", Label: "aaaaaaaaaaaaaaaa", NodeKey: dirKey(1), BoxKey: dirKey(2), RegisteredAt: time.Now()}
	if err := a.PutNode(ctx, ann); err != nil {
		t.Fatal(err)
	}
	d := eventually(t, notifyBound, "registration at the other instance", func() bool { return resolvesTo(t, b, ann.Address, ann.Label, ann.BoxKey) })
	t.Logf("registration seen by the other instance after %v", d)
	if err := a.RotateKeys(ctx, ann.NodeKey, dirKey(3), dirKey(4)); err != nil {
		t.Fatal(err)
	}
	eventually(t, notifyBound, "re-key at the other instance", func() bool { return resolvesTo(t, b, ann.Address, ann.Label, dirKey(4)) })
	moved := Node{Address: "ann@other.example", Label: "bbbbbbbbbbbbbbbb", NodeKey: dirKey(3), BoxKey: dirKey(4), RegisteredAt: time.Now()}
	if err := b.PutNode(ctx, moved); err != nil {
		t.Fatal(err)
	}
	eventually(t, notifyBound, "move at the first instance", func() bool {
		return resolvesTo(t, a, ann.Address, "", nil) && resolvesTo(t, a, moved.Address, moved.Label, moved.BoxKey)
	})
	if err := a.DeleteNode(ctx, moved.NodeKey); err != nil {
		t.Fatal(err)
	}
	eventually(t, notifyBound, "deletion at the other instance", func() bool { return resolvesTo(t, b, moved.Address, "", nil) })
}

// TestDirectoryListenDropped: when an instance's listening connection is
// killed (pg_terminate_backend, as a restart of PostgreSQL or a network
// cut does), a node registered meanwhile at the other is resolved there
// within the bound: it connects again and reads the directory whole.
func TestDirectoryListenDropped(t *testing.T) {
	a, b, url := openTwo(t)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for round := range 3 {
		reloads, reloadsA := b.dir.reloads.Load(), a.dir.reloads.Load()
		var killed int
		if err := c.QueryRow(ctx, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
			listenAppName).Scan(&killed); err != nil {
			t.Fatal(err)
		}
		if killed != 2 {
			t.Fatalf("terminated %d listening connections, want the two instances'", killed)
		}
		n := Node{Address: fmt.Sprintf("n%d@example.com", round), Label: fmt.Sprintf("%016d", round), NodeKey: dirKey(byte(10 + round)), BoxKey: dirKey(byte(20 + round)), RegisteredAt: time.Now()}
		if err := a.PutNode(ctx, n); err != nil {
			t.Fatal(err)
		}
		d := eventually(t, 5*time.Second, "registration after a dropped listen", func() bool {
			return b.dir.reloads.Load() > reloads && resolvesTo(t, b, n.Address, n.Label, n.BoxKey)
		})
		// The next round kills both listeners again: the first's must be
		// back too.
		eventually(t, 5*time.Second, "the first instance listening again", func() bool { return a.dir.reloads.Load() > reloadsA })
		t.Logf("round %d: seen by the other instance %v after its listener was killed, directory reloaded", round, d)
	}
	// And notifications flow again afterwards.
	late := Node{Address: "late@example.com", Label: "llllllllllllllll", NodeKey: dirKey(30), BoxKey: dirKey(31), RegisteredAt: time.Now()}
	if err := a.PutNode(ctx, late); err != nil {
		t.Fatal(err)
	}
	eventually(t, notifyBound, "registration after the listener came back", func() bool { return resolvesTo(t, b, late.Address, late.Label, late.BoxKey) })
}
