package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/app/config"
	"mailnode/app/localapi"
	"mailnode/app/localapi/localclient"
	"mailnode/app/localapi/localserver"
	"mailnode/assets"
	"mailnode/mail/demobox"
)

// TestCommandsThroughNode (issue 47 item 1): each command run while a
// node serves the data directory goes through its local API (the route
// it reached is recorded) and prints what the same command prints with
// no node running, when it opens the store itself; sync and status say
// which it was. An account added through the local API is synced by the
// running node at once, and accounts remove stops it.
func TestCommandsThroughNode(t *testing.T) {
	srv, dir, pw := demoServer(t)
	data := filepath.Join(dir, "data")
	settings := config.NewStore(filepath.Join(data, "config.json"))
	os.MkdirAll(data, 0o700)
	if _, err := settings.Modify(func(f *config.File) error {
		f.Accounts = []config.Account{{Name: "home", Server: srv.Addr, Security: "plain", Username: demobox.Username,
			Password: config.Password{File: pw}}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == passphraseEnv {
			return "correct horse battery staple"
		}
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := runContext(ctx, append(args, "--data-dir", data), &stdout, &stderr, getenv)
		return code, stdout.String(), stderr.String()
	}
	// A first pass, with no node: the store the commands read.
	if code, out, errOut := run("sync", "--log-level", "warn"); code != 0 || !strings.HasPrefix(out, "Synced ") {
		t.Fatalf("sync without a node = %d\n%s%s", code, out, errOut)
	}

	type command struct {
		name  string
		args  []string
		route localapi.Route
		code  int
		// same: the output with and without a node is the same; else
		// direct and through are what each must match.
		same            bool
		direct, through string
	}
	backups := t.TempDir()
	commands := []command{
		{name: "search", args: []string{"search", "Telekom", "Rechnung"}, route: localapi.RouteSearch, same: true},
		{name: "search nothing", args: []string{"search", "zzzyxnotthere"}, route: localapi.RouteSearch, same: true},
		{name: "drafts", args: []string{"drafts"}, route: localapi.RouteDrafts, same: true},
		{name: "drafts show unknown", args: []string{"drafts", "show", "dr_nothere"}, route: localapi.RouteDraft, code: 1, same: true},
		{name: "drafts edit unknown", args: []string{"drafts", "edit", "dr_nothere", "--subject", "New"}, route: localapi.RouteEditDraft, code: 1, same: true},
		{name: "status", args: []string{"status"}, route: localapi.RouteStatus,
			direct:  `^No node is running on .*\.\nMessages: [1-9]\d*\. `,
			through: `^The node on .* is running: \w+\.\nMessages: [1-9]\d*\. (?s:.*)\nhome +` + regexp.QuoteMeta(demobox.Username) + ` +\S+ +syncing\n`},
		{name: "sync", args: []string{"sync"}, route: localapi.RouteSync,
			direct:  `^Synced \d+ folders in .*: 0 new, .* The store holds [1-9]\d* messages`,
			through: `^The node running on .* keeps its accounts current itself, so no pass was needed\. The store holds [1-9]\d* messages`},
		{name: "backup", args: []string{"backup", "--out", filepath.Join(backups, "B.mnb")}, route: localapi.RouteBackup, same: true},
	}
	type result struct {
		code        int
		out, errOut string
	}
	direct := map[string]result{}
	for _, c := range commands {
		if c.name == "backup" {
			os.Remove(filepath.Join(backups, "B.mnb"))
		}
		code, out, errOut := run(c.args...)
		direct[c.name] = result{code, out, errOut}
		if code != c.code {
			t.Errorf("%s without a node = %d, want %d\n%s%s", c.name, code, c.code, out, errOut)
		}
		if c.direct != "" && !regexp.MustCompile(c.direct).MatchString(out) {
			t.Errorf("%s without a node said:\n%s\nwant it to match %s", c.name, out, c.direct)
		}
	}
	if fi, err := os.Stat(filepath.Join(backups, "B.mnb")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the backup without a node: %v %v", fi, err)
	}
	os.Remove(filepath.Join(backups, "B.mnb"))

	// The node, syncing its account, answering on the socket with the
	// local API's own handler, each route it reaches recorded.
	cfg := app.Config{DataDir: data, Settings: settings, Getenv: getenv, Services: app.Services{Sync: true}}
	f, err := settings.Load()
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Apply(&cfg, f, getenv, nil); err != nil {
		t.Fatal(err)
	}
	n, err := app.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	ln, err := localserver.Listen(data)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var reached []string
	h := localserver.Handler(n, slog.New(slog.DiscardHandler))
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() {
		served <- localserver.Serve(sctx, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r)
			mu.Lock()
			reached = append(reached, r.Pattern)
			mu.Unlock()
		}))
	}()
	defer func() { stop(); <-served }()
	took := func() []string { mu.Lock(); defer mu.Unlock(); r := reached; reached = nil; return r }
	// Wait for the node's first pass, so that status lists the account
	// as syncing.
	for deadline := time.Now().Add(30 * time.Second); n.Status().LastSync.IsZero(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the node made no pass: %+v", n.Status())
		}
	}

	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(c.args...)
			if r := took(); !slices.Contains(r, c.route.Pattern()) {
				t.Errorf("%s reached %q of the local API, want %s", c.name, r, c.route.Pattern())
			}
			if code != c.code {
				t.Errorf("%s with a node = %d, want %d\n%s%s", c.name, code, c.code, out, errOut)
			}
			d := direct[c.name]
			if c.same && (out != d.out || errOut != d.errOut) {
				t.Errorf("%s with a node said:\n%s%s\nwithout:\n%s%s", c.name, out, errOut, d.out, d.errOut)
			}
			if c.through != "" && !regexp.MustCompile(c.through).MatchString(out) {
				t.Errorf("%s with a node said:\n%s\nwant it to match %s", c.name, out, c.through)
			}
		})
	}
	sealed, err := os.ReadFile(filepath.Join(backups, "B.mnb"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := json.Marshal(sealed); err != nil || len(sealed) == 0 || bytes.Contains(sealed, []byte(getenv(passphraseEnv))) {
		t.Errorf("the backup through the node: %d bytes, %v", len(sealed), err)
	}

	// An account added through the local API syncs at once.
	second, err := demobox.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if _, err := second.Seed(assets.DemoMailbox(), time.Now()); err != nil {
		t.Fatal(err)
	}
	lc, err := localclient.Dial(data)
	if err != nil {
		t.Fatal(err)
	}
	acct, _ := json.Marshal(config.Account{Name: "second", Server: second.Addr, Security: "plain", Username: demobox.Username,
		Password: config.Password{File: pw}})
	saved, err := lc.SaveAccount(ctx, localapi.SaveAccountRequest{Settings: acct})
	if err != nil || !saved.Syncing || saved.Again || saved.Name != "second" {
		t.Fatalf("SaveAccount = %+v, %v", saved, err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		done := slices.ContainsFunc(n.Status().Folders, func(f app.FolderStatus) bool {
			return f.Account == "second" && f.Folder == "INBOX" && f.Finished && f.Done > 0
		})
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the account added through the local API was not synced: %+v", n.Status().Folders)
		}
	}
	if _, err := lc.SaveAccount(ctx, localapi.SaveAccountRequest{Settings: acct}); err == nil || !strings.Contains(err.Error(), `"second" exists`) {
		t.Errorf("the same password account saved twice: %v", err)
	}
	code, out, errOut := run("accounts", "remove", "second")
	if code != 0 || !strings.HasPrefix(out, "Removed second: ") || !slices.Contains(took(), localapi.RouteRemoveAcct.Pattern()) {
		t.Errorf("accounts remove through the node = %d\n%s%s", code, out, errOut)
	}
	if as, _ := n.Accounts(ctx); len(as) != 1 || as[0].Name != "home" {
		t.Errorf("the node's accounts after remove: %+v", as)
	}
	if f, _ := settings.Load(); len(f.Accounts) != 1 {
		t.Errorf("the settings after remove: %+v", f.Accounts)
	}
}

// TestAccountsRemoveWithoutNode: with no node running, accounts remove
// takes the account out of the settings through a node opened on them.
func TestAccountsRemoveWithoutNode(t *testing.T) {
	data := t.TempDir()
	settings := config.NewStore(filepath.Join(data, "config.json"))
	if _, err := settings.Modify(func(f *config.File) error {
		f.Accounts = []config.Account{{Name: "a", Server: "127.0.0.1:1", Security: "plain", Username: "u", Password: config.Password{Env: "X"}}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"accounts", "remove", "nobody", "--data-dir", data}, &out, &errb, func(string) string { return "" }); code != 1 ||
		!strings.Contains(errb.String(), `no account named "nobody"`) {
		t.Errorf("accounts remove of no account = %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"accounts", "remove", "a", "--data-dir", data}, &out, &errb, func(string) string { return "" }); code != 0 ||
		!strings.HasPrefix(out.String(), "Removed a: ") {
		t.Errorf("accounts remove = %d\n%s%s", code, out.String(), errb.String())
	}
	if f, err := settings.Load(); err != nil || len(f.Accounts) != 0 {
		t.Errorf("the settings after remove: %+v, %v", f.Accounts, err)
	}
}
