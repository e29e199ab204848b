package localclient_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"mailnode/app/localapi"
	"mailnode/app/localapi/localclient"
	"mailnode/app/localapi/localserver"
	"mailnode/approvals"
)

// fake answers every call with err and records what it was asked.
type fake struct {
	err   error
	mu    sync.Mutex
	calls []string
}

func (f *fake) rec(s string) error {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
	return f.err
}

func (f *fake) Pending(context.Context) ([]approvals.Approval, error) {
	return []approvals.Approval{{ID: "ap_1"}}, f.rec("Pending")
}
func (f *fake) Decide(_ context.Context, id string, approve bool) (approvals.Approval, error) {
	return approvals.Approval{ID: id}, f.rec(fmt.Sprint("Decide ", id, " ", approve))
}
func (f *fake) Grants(context.Context) ([]approvals.Grant, error) { return nil, f.rec("Grants") }
func (f *fake) Revoke(_ context.Context, agent string, tier approvals.Tier) (int, error) {
	return 2, f.rec("Revoke " + agent + " " + string(tier))
}
func (f *fake) Block(_ context.Context, agent string) (string, error) {
	return agent, f.rec("Block " + agent)
}
func (f *fake) Audit(_ context.Context, limit int) ([]approvals.AuditEntry, error) {
	return nil, f.rec(fmt.Sprint("Audit ", limit))
}
func (f *fake) Pair(_ context.Context, o localapi.PairOptions) (localapi.PairOffer, error) {
	return localapi.PairOffer{ID: "po_1"}, f.rec(fmt.Sprint("Pair ", o.LAN))
}
func (f *fake) SetLAN(_ context.Context, on bool) (localapi.LANStatus, error) {
	return localapi.LANStatus{}, f.rec(fmt.Sprint("SetLAN ", on))
}
func (f *fake) PairStatus(_ context.Context, id string) (localapi.PairStatus, error) {
	return localapi.PairStatus{SAS: "123456"}, f.rec("PairStatus " + id)
}
func (f *fake) Phones(context.Context) ([]approvals.Phone, error) { return nil, f.rec("Phones") }
func (f *fake) ConfirmPhone(_ context.Context, id string) (approvals.Phone, error) {
	return approvals.Phone{ID: id}, f.rec("ConfirmPhone " + id)
}
func (f *fake) RenamePhone(_ context.Context, id, name string) (approvals.Phone, error) {
	return approvals.Phone{ID: id, Name: name}, f.rec("RenamePhone " + id + " " + name)
}
func (f *fake) RemovePhone(_ context.Context, id string) error { return f.rec("RemovePhone " + id) }
func (f *fake) Show(context.Context) error                     { return f.rec("Show") }
func (f *fake) Accounts(context.Context) ([]localapi.Account, error) {
	return nil, f.rec("Accounts")
}
func (f *fake) SaveAccount(_ context.Context, r localapi.SaveAccountRequest) (localapi.SavedAccount, error) {
	return localapi.SavedAccount{Name: "a"}, f.rec("SaveAccount " + string(r.Settings) + " " + r.ClientID)
}
func (f *fake) RemoveAccount(_ context.Context, name string) error {
	return f.rec("RemoveAccount " + name)
}
func (f *fake) NodeStatus(context.Context) (localapi.NodeStatus, error) {
	return localapi.NodeStatus{Running: true}, f.rec("NodeStatus")
}
func (f *fake) Search(_ context.Context, q string, limit int) ([]localapi.Summary, error) {
	return nil, f.rec(fmt.Sprint("Search ", q, " ", limit))
}
func (f *fake) SyncNow(context.Context) (localapi.SyncReport, error) {
	return localapi.SyncReport{}, f.rec("SyncNow")
}
func (f *fake) Drafts(_ context.Context, limit int) ([]localapi.Draft, error) {
	return nil, f.rec(fmt.Sprint("Drafts ", limit))
}
func (f *fake) Draft(_ context.Context, id string) (localapi.Draft, error) {
	return localapi.Draft{ID: id}, f.rec("Draft " + id)
}
func (f *fake) EditDraft(_ context.Context, id string, subject, body *string) (localapi.Draft, error) {
	return localapi.Draft{ID: id}, f.rec(fmt.Sprint("EditDraft ", id, " ", *subject, " ", body == nil))
}
func (f *fake) Backup(_ context.Context, pass string) ([]byte, error) {
	return []byte{0, 1, 2}, f.rec("Backup " + pass)
}

// serve runs the server for f on a socket in a new directory and returns
// a client and the patterns the server matched.
func serve(t *testing.T, f *fake) (*localclient.Client, func() []string) {
	t.Helper()
	dir := t.TempDir()
	ln, err := localserver.Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var patterns []string
	h := localserver.Handler(f, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- localserver.Serve(ctx, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r)
			mu.Lock()
			patterns = append(patterns, r.Pattern)
			mu.Unlock()
		}))
	}()
	t.Cleanup(func() { cancel(); <-done })
	if _, err := localserver.Listen(dir); !errors.Is(err, localserver.ErrAnotherNode) {
		t.Errorf("a second Listen on one directory = %v, want ErrAnotherNode", err)
	}
	c, err := localclient.Dial(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c, func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(patterns) }
}

// calls makes every call of the Backend once.
func calls(ctx context.Context, c localapi.Backend) []error {
	_, e1 := c.Pending(ctx)
	_, e2 := c.Decide(ctx, "ABC-DEF", true)
	_, e3 := c.Grants(ctx)
	_, e4 := c.Revoke(ctx, "agent.example", approvals.FreeFormRead)
	_, e5 := c.Block(ctx, "*.example")
	_, e6 := c.Audit(ctx, 7)
	_, e7 := c.Pair(ctx, localapi.PairOptions{LAN: true})
	_, e8 := c.PairStatus(ctx, "po/1 x")
	_, e9 := c.Phones(ctx)
	_, e10 := c.ConfirmPhone(ctx, "ph_1")
	_, e11 := c.RenamePhone(ctx, "ph_1", "Pixel")
	e12 := c.RemovePhone(ctx, "ph_1")
	e13 := c.Show(ctx)
	_, e14 := c.SetLAN(ctx, true)
	_, e15 := c.Accounts(ctx)
	_, e16 := c.SaveAccount(ctx, localapi.SaveAccountRequest{Settings: []byte(`{"name":"a"}`), ClientID: "cid"})
	e17 := c.RemoveAccount(ctx, "a b")
	_, e18 := c.NodeStatus(ctx)
	_, e19 := c.Search(ctx, "tax & invoice?", 20)
	_, e20 := c.SyncNow(ctx)
	_, e21 := c.Drafts(ctx, 50)
	_, e22 := c.Draft(ctx, "dr/1 x")
	subj := "New"
	_, e23 := c.EditDraft(ctx, "dr_1", &subj, nil)
	_, e24 := c.Backup(ctx, "correct horse")
	return []error{e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23, e24}
}

// TestEveryRoute: each client method reaches its own route and the
// backend with its arguments intact, and every route is used.
func TestEveryRoute(t *testing.T) {
	f := &fake{}
	c, patterns := serve(t, f)
	for i, err := range calls(context.Background(), c) {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	want := []string{"Pending", "Decide ABC-DEF true", "Grants", "Revoke agent.example free_form_read", "Block *.example",
		"Audit 7", "Pair true", "PairStatus po/1 x", "Phones", "ConfirmPhone ph_1", "RenamePhone ph_1 Pixel", "RemovePhone ph_1", "Show", "SetLAN true", "Accounts",
		`SaveAccount {"name":"a"} cid`, "RemoveAccount a b", "NodeStatus", "Search tax & invoice? 20", "SyncNow", "Drafts 50", "Draft dr/1 x",
		"EditDraft dr_1 New true", "Backup correct horse"}
	if !slices.Equal(f.calls, want) {
		t.Errorf("backend calls:\n%q\nwant\n%q", f.calls, want)
	}
	var all []string
	for _, r := range localapi.Routes {
		all = append(all, r.Pattern())
	}
	if got := patterns(); !slices.Equal(got, all) {
		t.Errorf("routes reached:\n%q\nwant every route in order:\n%q", got, all)
	}
}

// TestErrorsRoundTrip: every sentinel of localapi.Errors comes back as
// itself with the node's message, from every call; any other error comes
// back as its message.
func TestErrorsRoundTrip(t *testing.T) {
	for _, e := range localapi.Errors {
		t.Run(e.Code, func(t *testing.T) {
			sent := fmt.Errorf("%w: with detail", e.Err)
			c, _ := serve(t, &fake{err: sent})
			for i, err := range calls(context.Background(), c) {
				if !errors.Is(err, e.Err) || err.Error() != sent.Error() {
					t.Errorf("call %d: got %v, want %v", i, err, sent)
				}
			}
		})
	}
	t.Run("other", func(t *testing.T) {
		c, _ := serve(t, &fake{err: errors.New("disk full")})
		for i, err := range calls(context.Background(), c) {
			if err == nil || err.Error() != "disk full" {
				t.Errorf("call %d: got %v", i, err)
			}
			for _, e := range localapi.Errors {
				if errors.Is(err, e.Err) {
					t.Errorf("call %d: a plain error came back as %s", i, e.Code)
				}
			}
		}
	})
}

// TestNoSecretInLog: a failed backup or account save is logged by the
// node without the passphrase or client secret its request carried.
func TestNoSecretInLog(t *testing.T) {
	var log lockedBuffer
	f := &fake{err: errors.New("disk full")}
	dir := t.TempDir()
	ln, err := localserver.Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- localserver.Serve(ctx, ln, localserver.Handler(f, slog.New(slog.NewTextHandler(&log, nil))))
	}()
	defer func() { cancel(); <-done }()
	c, err := localclient.Dial(dir)
	if err != nil {
		t.Fatal(err)
	}
	const pass, secret = "correct-horse-battery", "GOCSPX-secret"
	if _, err := c.Backup(ctx, pass); err == nil {
		t.Fatal("Backup succeeded")
	}
	if _, err := c.SaveAccount(ctx, localapi.SaveAccountRequest{Settings: []byte(`{}`), ClientID: "cid", ClientSecret: secret}); err == nil {
		t.Fatal("SaveAccount succeeded")
	}
	got := log.String()
	if !strings.Contains(got, "disk full") {
		t.Errorf("the failures were not logged: %q", got)
	}
	if strings.Contains(got, pass) || strings.Contains(got, secret) {
		t.Errorf("the log holds a secret: %q", got)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
