package app_test

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/app/localapi/localclient"
	"mailnode/app/localapi/localserver"
	"mailnode/approvals"
)

func TestDemoSyncAndRun(t *testing.T) {
	ctx := context.Background()
	n, err := app.New(apptest.Demo(t, app.Config{DataDir: t.TempDir()}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
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

	if err := n.Stop(); err != nil {
		t.Errorf("Stop() = %v", err)
	}
	if _, err := n.Search(ctx, "KALLAX", 5); !errors.Is(err, app.ErrNotStarted) {
		t.Errorf("Search after Stop = %v, want ErrNotStarted", err)
	}
}

// TestLifecycle: New does no I/O; Start opens once and runs the services
// asked for; the status stream follows the sync folder by folder; Stop
// stops everything, Wait says why, and the stream ends with "stopped".
func TestLifecycle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "node")
	n, err := app.New(apptest.Demo(t, app.Config{DataDir: dir,
		Services: app.Services{Sync: true, LocalAPI: true}}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("New created %s (%v): it must do no I/O", dir, err)
	}
	if _, err := n.Stats(context.Background()); !errors.Is(err, app.ErrNotStarted) {
		t.Fatalf("Stats before Start = %v, want ErrNotStarted", err)
	}
	sub, unsubscribe := n.Subscribe()
	defer unsubscribe()
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Start returns with the local API up.
	if _, err := localclient.Dial(dir); err != nil {
		t.Fatalf("DialLocal right after Start = %v", err)
	}
	// A second node on the same directory is refused, and says why
	// first: it does not try its gateway's port (taken here, as by the
	// first node's gateway) or touch the store (issue 42 item 9).
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	var logs apptest.Buffer
	n2, _ := app.New(app.Config{DataDir: dir, Gateway: app.GatewayConfig{Listen: taken.Addr().String()},
		Services: app.Services{LocalAPI: true, Gateway: true}}, slog.New(slog.NewTextHandler(&logs, nil)))
	if err := n2.Start(context.Background()); !errors.Is(err, localserver.ErrAnotherNode) {
		t.Errorf("second node on one directory: Start = %v, want ErrAnotherNode", err)
	}
	if err := n2.Wait(); !errors.Is(err, localserver.ErrAnotherNode) {
		t.Errorf("second node: Wait() = %v, want ErrAnotherNode", err)
	}
	if logs.String() != "" {
		t.Errorf("second node logged before it stopped:\n%s", logs.String())
	}
	if _, err := localclient.Dial(dir); err != nil {
		t.Errorf("the first node's local API after a second node gave up: %v", err)
	}

	var last app.Status
	sawProgress := false
	deadline := time.After(20 * time.Second)
	// The facts service's first pass, at its start, may count facts
	// while the sync is still storing: wait for the counts after it.
	for last.State != app.StateIdle || last.Facts.Trips == 0 || last.Messages != 44 {
		select {
		case s := <-sub:
			last = s
			for _, f := range s.Folders {
				if f.Folder == "INBOX" && f.Done > 0 && f.Total > 0 {
					sawProgress = true
				}
			}
		case <-deadline:
			t.Fatalf("no idle status with facts within 20 s; last %+v", last)
		}
	}
	if !sawProgress {
		t.Errorf("the stream showed no INBOX progress: %+v", last.Folders)
	}
	if last.Messages != 44 || last.LastSync.IsZero() {
		t.Errorf("idle status = %+v, want 44 messages and a last sync", last)
	}
	names := map[string]string{}
	for _, s := range last.Services {
		names[s.Name] = s.State
	}
	for _, want := range []string{"local API", "sync/demo", "facts", "status"} {
		if names[want] != "running" {
			t.Errorf("service %q is %q, want running (all: %v)", want, names[want], names)
		}
	}
	if _, err := n.Sync(context.Background()); err == nil {
		t.Errorf("Sync() while the Sync service runs succeeded")
	}

	if err := n.Stop(); err != nil {
		t.Fatalf("Stop() = %v", err)
	}
	if err := n.Wait(); err != nil {
		t.Errorf("Wait() after Stop = %v, want nil", err)
	}
	var final app.Status
	for s := range sub { // closed after the final status
		final = s
	}
	if final.State != app.StateStopped {
		t.Errorf("last status = %q, want stopped", final.State)
	}
	if _, err := localclient.Dial(dir); !errors.Is(err, localclient.ErrNodeNotRunning) {
		t.Errorf("DialLocal after Stop = %v", err)
	}
	if err := n.Start(context.Background()); err == nil {
		t.Errorf("Start after Stop succeeded")
	}
}

// TestSubscribeSlow: a subscriber that never reads holds up nothing and
// finds the newest status when it does.
func TestSubscribeSlow(t *testing.T) {
	n, err := app.New(apptest.Demo(t, app.Config{DataDir: t.TempDir()}), nil)
	if err != nil {
		t.Fatal(err)
	}
	sub, unsubscribe := n.Subscribe()
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Sync(context.Background()); err != nil { // many updates, none read
		t.Fatal(err)
	}
	s := <-sub
	if s.State != app.StateIdle || s.Messages != 44 {
		t.Errorf("newest status = %q with %d messages, want idle with 44", s.State, s.Messages)
	}
	unsubscribe()
	unsubscribe() // twice is harmless
	if _, ok := <-sub; ok {
		t.Errorf("channel open after unsubscribe")
	}
	n.Stop()
}

func TestNoAccount(t *testing.T) {
	n, err := app.New(app.Config{DataDir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
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
	n, err := app.New(apptest.Demo(t, app.Config{DataDir: dir, Gateway: app.GatewayConfig{Listen: "127.0.0.1:0"},
		Services: app.Services{Gateway: true, LocalAPI: true}}), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	if n.GatewayURL() == "" {
		t.Fatal("no gateway URL after Start")
	}
	lc, err := localclient.Dial(dir)
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
	if err := n.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := localclient.Dial(dir); !errors.Is(err, localclient.ErrNodeNotRunning) {
		t.Fatalf("DialLocal after stop = %v", err)
	}
}
