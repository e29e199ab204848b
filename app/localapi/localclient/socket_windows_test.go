package localclient_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"syscall"
	"testing"

	"mailnode/app/localapi/localclient"
	"mailnode/app/localapi/localserver"
	"mailnode/internal/wintest"
)

// wsaeafnosupport is WSAEAFNOSUPPORT: the system has no such address
// family (Wine has no AF_UNIX).
const wsaeafnosupport = syscall.Errno(10047)

// TestSocketWindows: the local API listens on an AF_UNIX socket in the
// data directory on Windows too, a second Listen there is refused (the
// single-instance check), and a client reaches the node through it.
func TestSocketWindows(t *testing.T) {
	dir := wintest.TempDir(t)
	ln, err := localserver.Listen(dir)
	if errors.Is(err, wsaeafnosupport) && wintest.UnderWine() {
		t.Skip("Wine has no AF_UNIX sockets (WSAEAFNOSUPPORT): the local API and the single-instance check run on Windows 10 1803 and later, not here")
	}
	if err != nil {
		t.Fatalf("Listen: %v", err)
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
