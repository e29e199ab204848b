package nonces_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/gateway/httpsig"
	"mailnode/gateway/nonces"
	"mailnode/mail/store"
)

var _ httpsig.NonceStore = (*nonces.Store)(nil)

// open opens (or reopens) the node file at path and a nonce store on it,
// the way the app wires them.
func open(t *testing.T, path string, now func() time.Time) (*nonces.Store, *store.Store) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := st.Attach(ctx, "nonces", nonces.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	n, err := nonces.New(ctx, db, nil, now)
	if err != nil {
		t.Fatal(err)
	}
	return n, st
}

type clock struct{ t atomic.Int64 }

func (c *clock) now() time.Time      { return time.Unix(c.t.Load(), 0) }
func (c *clock) add(d time.Duration) { c.t.Add(int64(d / time.Second)) }

func TestUse(t *testing.T) {
	c := &clock{}
	c.t.Store(1_700_000_000)
	n, st := open(t, filepath.Join(t.TempDir(), "node.db"), c.now)
	defer st.Close()
	ctx := context.Background()
	until := c.now().Add(120 * time.Second)

	steps := []struct {
		key, nonce string
		want       bool
	}{
		{"a.example#k", "n1", true},
		{"a.example#k", "n1", false}, // replay
		{"a.example#k", "n2", true},
		{"b.example#k", "n1", true}, // same nonce, other key
		{"b.example#k", "n1", false},
	}
	for i, s := range steps {
		got, err := n.Use(ctx, s.key, s.nonce, until)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got != s.want {
			t.Errorf("step %d: Use(%q, %q) = %v, want %v", i, s.key, s.nonce, got, s.want)
		}
	}
}

// A nonce stays refused after the node restarts, and an expired one is
// forgotten (its signature is refused on its own expiry by then).
func TestUseAcrossRestart(t *testing.T) {
	c := &clock{}
	c.t.Store(1_700_000_000)
	path := filepath.Join(t.TempDir(), "node.db")
	ctx := context.Background()

	n, st := open(t, path, c.now)
	if ok, err := n.Use(ctx, "a.example#k", "short", c.now().Add(10*time.Second)); !ok || err != nil {
		t.Fatalf("first use: %v %v", ok, err)
	}
	if ok, err := n.Use(ctx, "a.example#k", "long", c.now().Add(300*time.Second)); !ok || err != nil {
		t.Fatalf("first use: %v %v", ok, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	c.add(60 * time.Second)
	n, st = open(t, path, c.now)
	defer st.Close()
	if ok, err := n.Use(ctx, "a.example#k", "long", c.now().Add(120*time.Second)); ok || err != nil {
		t.Errorf("replay after restart: fresh=%v err=%v, want refused", ok, err)
	}
	if ok, err := n.Use(ctx, "a.example#k", "short", c.now().Add(120*time.Second)); !ok || err != nil {
		t.Errorf("expired nonce after restart: fresh=%v err=%v, want fresh", ok, err)
	}
}

// Many concurrent requests with distinct nonces all succeed, exactly one of
// many requests with the same nonce does, and all of them are on disk.
func TestUseConcurrent(t *testing.T) {
	c := &clock{}
	c.t.Store(1_700_000_000)
	path := filepath.Join(t.TempDir(), "node.db")
	ctx := context.Background()
	n, st := open(t, path, c.now)
	until := c.now().Add(120 * time.Second)

	const workers, each = 16, 50
	var wg sync.WaitGroup
	var fresh, dupFresh atomic.Int64
	errs := make(chan error, workers*each*2)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				ok, err := n.Use(ctx, "a.example#k", fmt.Sprintf("w%d-%d", w, i), until)
				if err != nil {
					errs <- err
				}
				if ok {
					fresh.Add(1)
				}
				ok, err = n.Use(ctx, "a.example#k", fmt.Sprintf("shared-%d", i), until)
				if err != nil {
					errs <- err
				}
				if ok {
					dupFresh.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if fresh.Load() != workers*each {
		t.Errorf("distinct nonces accepted: %d, want %d", fresh.Load(), workers*each)
	}
	if dupFresh.Load() != each {
		t.Errorf("shared nonces accepted: %d, want %d (once each)", dupFresh.Load(), each)
	}
	st.Close()

	n, st = open(t, path, c.now)
	defer st.Close()
	for w := range workers {
		for i := range each {
			if ok, _ := n.Use(ctx, "a.example#k", fmt.Sprintf("w%d-%d", w, i), until); ok {
				t.Fatalf("nonce w%d-%d was not persisted", w, i)
			}
		}
	}
}

// A failed write refuses the request rather than letting it through
// unrecorded.
func TestUseWriteFailure(t *testing.T) {
	c := &clock{}
	c.t.Store(1_700_000_000)
	n, st := open(t, filepath.Join(t.TempDir(), "node.db"), c.now)
	st.Close() // the database handle is now closed under the nonce store
	ok, err := n.Use(context.Background(), "a.example#k", "n", c.now().Add(time.Minute))
	if ok || err == nil {
		t.Fatalf("Use on closed db = %v, %v; want refused with error", ok, err)
	}
	if ok, _ := n.Use(context.Background(), "a.example#k", "n", c.now().Add(time.Minute)); ok {
		t.Fatal("nonce accepted on retry after failed write")
	}
}

// TestBoundedMemory: under a flood the live nonces stay at MaxLive; new
// ones are refused with ErrFull until old ones expire, never forgotten
// early.
func TestBoundedMemory(t *testing.T) {
	c := &clock{}
	c.t.Store(1_700_000_000)
	n, st := open(t, filepath.Join(t.TempDir(), "node.db"), c.now)
	defer st.Close()
	defer n.Close()
	n.SetMaxLive(100)
	for i := range 100 {
		if fresh, _, err := n.Reserve("a.example#k", fmt.Sprint(i), c.now().Add(60*time.Second)); !fresh || err != nil {
			t.Fatalf("Reserve %d = %v, %v", i, fresh, err)
		}
	}
	if _, _, err := n.Reserve("a.example#k", "one more", c.now().Add(60*time.Second)); !errors.Is(err, nonces.ErrFull) {
		t.Fatalf("Reserve past the bound = %v, want ErrFull", err)
	}
	if fresh, _, _ := n.Reserve("a.example#k", "7", c.now().Add(60*time.Second)); fresh {
		t.Fatal("a live nonce was forgotten")
	}
	c.add(61 * time.Second)
	if fresh, _, err := n.Reserve("a.example#k", "after expiry", c.now().Add(60*time.Second)); !fresh || err != nil {
		t.Fatalf("Reserve once the old ones expired = %v, %v", fresh, err)
	}
}

// A nonce given back (Forget) is fresh again, in memory and after a
// restart; the others stay spent.
func TestForget(t *testing.T) {
	c := &clock{}
	c.t.Store(1_700_000_000)
	path := filepath.Join(t.TempDir(), "node.db")
	ctx := context.Background()
	until := c.now().Add(300 * time.Second)

	n, st := open(t, path, c.now)
	for _, nonce := range []string{"given-back", "kept"} {
		if ok, err := n.Use(ctx, "a.example#k", nonce, until); !ok || err != nil {
			t.Fatalf("first use of %s: %v %v", nonce, ok, err)
		}
	}
	if err := n.Forget(ctx, "a.example#k", "given-back"); err != nil {
		t.Fatal(err)
	}
	if err := n.Forget(ctx, "a.example#k", "never-used"); err != nil {
		t.Errorf("forgetting a nonce never used: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	n, st = open(t, path, c.now)
	defer st.Close()
	if ok, err := n.Use(ctx, "a.example#k", "kept", until); ok || err != nil {
		t.Errorf("the nonce kept, after a restart: fresh=%v err=%v, want refused", ok, err)
	}
	if ok, err := n.Use(ctx, "a.example#k", "given-back", until); !ok || err != nil {
		t.Errorf("the nonce given back, after a restart: fresh=%v err=%v, want fresh", ok, err)
	}
}
