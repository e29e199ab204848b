package app_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/approvals"
)

func TestDemoSyncAndRun(t *testing.T) {
	ctx := context.Background()
	n, err := app.New(app.Config{DataDir: t.TempDir(), Demo: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	res, err := n.Sync(ctx)
	if err != nil {
		t.Fatalf("Sync() = %v", err)
	}
	st, err := n.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// 45 sample mails, one of them in Trash, which is not synced.
	if res.Added != 44 || st.Messages != 44 {
		t.Errorf("demo Sync added %d, store holds %d; want 44 and 44", res.Added, st.Messages)
	}
	if st.WithProblem != 1 {
		t.Errorf("messages with MIME problems = %d, want 1 (the deliberately broken one)", st.WithProblem)
	}
	searches := []struct {
		q    string
		want int
	}{
		{"XK4R7Q", 2},   // a booking (JSON-LD in HTML) and its seat confirmation
		{"Großraum", 1}, // a Latin-1 body
		{"grossraum", 0},
		{"KALLAX", 1},
		{"birthday", 1}, // an attachment's name is not text, but the body says it
	}
	for _, s := range searches {
		hits, err := n.Search(ctx, s.q, 5)
		if err != nil || len(hits) != s.want {
			t.Errorf("Search(%q) = %d hits, %v; want %d", s.q, len(hits), err, s.want)
		}
	}

	sub, unsubscribe := n.Subscribe()
	defer unsubscribe()
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- n.Run(runCtx) }()
	select {
	case s := <-sub:
		if s.State == "" {
			t.Errorf("status update with empty state")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no status update from Run within 5s")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run() on cancel = %v, want nil", err)
	}
	if s := n.Status(); s.State != "stopped" || s.Messages != 44 {
		t.Errorf("Status() after Run = %+v, want stopped with 44 messages", s)
	}
}

func TestNoAccount(t *testing.T) {
	n, err := app.New(app.Config{DataDir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if _, err := n.Sync(context.Background()); !errors.Is(err, app.ErrNoAccount) {
		t.Errorf("Sync() with no account = %v, want ErrNoAccount", err)
	}
	if _, err := app.New(app.Config{}, nil); err == nil {
		t.Errorf("New() without a data directory succeeded")
	}
}

// TestLocalAPI: the command line's view of a running node is the node's
// own state, through the socket.
func TestLocalAPI(t *testing.T) {
	dir := t.TempDir()
	n, err := app.New(app.Config{DataDir: dir, Demo: true, Gateway: app.GatewayConfig{Listen: "127.0.0.1:0"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	ready := make(chan string, 1)
	go func() { done <- n.Serve(ctx, func(u string) { ready <- u }) }()
	<-ready
	var lc *app.LocalClient
	for i := 0; i < 100; i++ {
		if lc, err = app.DialLocal(dir); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	if p, err := lc.Pending(ctx); err != nil || len(p) != 0 {
		t.Fatalf("Pending() = %v, %v", p, err)
	}
	if _, err := lc.Decide(ctx, "ABC-DEF", true); !errors.Is(err, approvals.ErrNotFound) {
		t.Fatalf("Decide(unknown) = %v, want ErrNotFound", err)
	}
	// Each sentinel comes back as itself, not as another "not found".
	if err := lc.RemovePhone(ctx, "ph_nope"); !errors.Is(err, approvals.ErrNoPhone) {
		t.Fatalf("RemovePhone(unknown) = %v, want ErrNoPhone", err)
	}
	if n, err := lc.Revoke(ctx, "agent.example.com", ""); n != 0 || err != nil {
		t.Fatalf("Revoke() = %d, %v", n, err)
	}
	if g, err := lc.Grants(ctx); err != nil || len(g) != 0 {
		t.Fatalf("Grants() = %v, %v", g, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := app.DialLocal(dir); !errors.Is(err, app.ErrNodeNotRunning) {
		t.Fatalf("DialLocal after stop = %v", err)
	}
}
