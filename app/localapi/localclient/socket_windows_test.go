package localclient_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"slices"
	"testing"

	"mailnode/app/localapi/localclient"
	"mailnode/app/localapi/localserver"
	"mailnode/internal/wintest"
)

// TestSocketWindows: the local API listens on an AF_UNIX socket in the
// data directory on Windows too, a second Listen there is refused (the
// single-instance check), and a client reaches the node through it.
// Where the system has no AF_UNIX sockets (Wine; Windows before 10 1803),
// the data directory's lock file keeps it to one node and a command is
// told the node cannot be reached (lockOnly).
func TestSocketWindows(t *testing.T) {
	dir := wintest.TempDir(t)
	ln, err := localserver.Listen(dir)
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	if localserver.LockOnly(ln) {
		lockOnly(t, dir, ln)
		return
	}
	f := &fake{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- localserver.Serve(ctx, ln, localserver.Handler(f, slog.Default())) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve = %v", err)
		}
	}()
	if _, err := localserver.Listen(dir); !errors.Is(err, localserver.ErrAnotherNode) {
		t.Errorf("a second Listen = %v, want ErrAnotherNode", err)
	}
	c, err := localclient.Dial(dir)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	if err := c.Show(ctx); err != nil {
		t.Errorf("Show through the socket = %v", err)
	}
	if f.mu.Lock(); !slices.Equal(f.calls, []string{"Show"}) {
		t.Errorf("the node was asked %v, want Show", f.calls)
	}
	f.mu.Unlock()
}

// lockOnly checks a node on a system without AF_UNIX sockets, as Wine is:
// a second Listen is refused by the lock, a client gets
// ErrNodeUnreachable (not ErrNodeNotRunning, which would have a command
// open the store beside the node), and once the node stops the lock is
// free and a client is told no node runs.
func lockOnly(t *testing.T, dir string, ln net.Listener) {
	if !wintest.UnderWine() {
		t.Log("no AF_UNIX sockets on this Windows: the lock file stands in")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- localserver.Serve(ctx, ln, localserver.Handler(&fake{}, slog.Default())) }()
	if _, err := localserver.Listen(dir); !errors.Is(err, localserver.ErrAnotherNode) {
		t.Errorf("a second Listen = %v, want ErrAnotherNode", err)
	}
	if _, err := localclient.Dial(dir); !errors.Is(err, localclient.ErrNodeUnreachable) {
		t.Errorf("Dial with the node running = %v, want ErrNodeUnreachable", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve = %v", err)
	}
	if _, err := localclient.Dial(dir); !errors.Is(err, localclient.ErrNodeNotRunning) {
		t.Errorf("Dial after the node stopped = %v, want ErrNodeNotRunning", err)
	}
	ln2, err := localserver.Listen(dir)
	if err != nil {
		t.Fatalf("Listen after the node stopped = %v", err)
	}
	ln2.Close()
}
