package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/app/config"
	"mailnode/mail/imaptest"
	"mailnode/mail/oidctest"
	"mailnode/mail/signin"
)

// person reads what mailnode prints and does what it says, once: opens
// the sign-in address in a browser, or enters the device code.
type person struct {
	op    *oidctest.Provider
	login string
	mu    sync.Mutex
	out   bytes.Buffer
	acted bool
	done  chan error
}

var (
	openLine   = regexp.MustCompile(`(?m)^  (http://127\.0\.0\.1:\d+/signin/start/\S+)$`)
	deviceLine = regexp.MustCompile(`open (https://\S+) and enter the code (\S+) `)
)

func (p *person) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.out.Write(b)
	if p.acted {
		return len(b), nil
	}
	if m := deviceLine.FindStringSubmatch(p.out.String()); m != nil {
		p.acted = true
		go func() { p.done <- p.op.NewBrowser().EnterCode(m[1], m[2], p.login) }()
	} else if m := openLine.FindStringSubmatch(p.out.String()); m != nil {
		p.acted = true
		go func() { _, _, err := p.op.NewBrowser().SignIn(m[1], p.login); p.done <- err }()
	}
	return len(b), nil
}

func (p *person) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// TestAccountsOAuth: mailnode accounts add --oauth signs in at an OpenID
// provider (oidc-provider) with the device flow, the code entered by the
// test as a person would on a phone, and with the browser flow, the
// address printed for a browser on this computer; the account is named
// as the provider says, its token in a 0600 file. Google's and
// Microsoft's rows without a client id say what to register. A node then
// syncs the account over Dovecot; mailnode accounts says so, and once the
// provider revokes the grant it says "Sign in to ... again" while the
// node's other account syncs on.
func TestAccountsOAuth(t *testing.T) {
	const user = "person@example.test"
	op := oidctest.Start(t, oidctest.Options{})
	dove := op.Dovecot(t, user)
	dir := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := runContext(ctx, args, &stdout, &stderr, getenv)
		return code, stdout.String(), stderr.String()
	}

	// No client id: what to register, and nothing saved.
	for provider, want := range map[string]string{"microsoft": "Microsoft Entra", "google": `"Desktop app"`} {
		code, _, errOut := run("accounts", "add", "--oauth", provider, "--data-dir", dir)
		if code == 0 || !strings.Contains(errOut, "needs an OAuth client id") || !strings.Contains(errOut, want) {
			t.Errorf("accounts add --oauth %s without a client id = %d, %q", provider, code, errOut)
		}
	}
	// A Google or Microsoft token goes to their own servers only, over TLS.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--oauth", "google", "--imap-server", "imap.evil.test:993"}, "own mail servers"},
		{[]string{"--oauth", "microsoft", "--smtp-server", "smtp.office365.com.evil.test:587"}, "own mail servers"},
		{[]string{"--oauth", "google", "--imap-security", "plain"}, "only over TLS"},
		{[]string{"--oauth", "microsoft", "--smtp-server", "smtp.office365.com:25", "--smtp-security", "plain"}, "only over TLS"},
	} {
		code, _, errOut := run(append([]string{"accounts", "add", "--data-dir", dir}, tc.args...)...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("accounts add %v = %d, %q", tc.args, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "config.json")); err == nil {
		t.Error("a failed sign-in wrote the settings")
	}

	// add answers the question "Add this account?" with answer, or
	// passes --yes when answer is "".
	add := func(flow, answer string) (string, error) {
		p := &person{op: op, login: user, done: make(chan error, 1)}
		args := []string{"add", "--oauth", op.Issuer, "--client-id", oidctest.ClientID,
			"--dev-oauth-ca", op.CAFile, "--imap-server", dove.Addr, "--imap-security", "plain", flow, "--data-dir", dir}
		if answer == "" {
			args = append(args, "--yes")
		}
		err := cmdAccounts(ctx, args, strings.NewReader(answer), p, p, getenv)
		select {
		case err := <-p.done:
			if err != nil {
				t.Fatalf("the person's part of %s: %v\n%s", flow, err, p)
			}
		default:
			t.Fatalf("accounts add %s ended without asking the person anything: %v\n%s", flow, err, p)
		}
		return p.String(), err
	}
	if out, err := add("--device", ""); err != nil || !strings.Contains(out, "Signed in as "+user+".\n") ||
		strings.Contains(out, "[y/N]") || !strings.Contains(out, "Added "+user) {
		t.Errorf("accounts add --device --yes = %v, said:\n%s", err, out)
	}
	f, err := config.Load(filepath.Join(dir, "config.json"))
	if err != nil || len(f.Accounts) != 1 || f.Accounts[0].OAuth.Provider != op.Issuer || f.SignIn[op.Issuer].ID != oidctest.ClientID {
		t.Fatalf("settings after accounts add: %+v, %v", f, err)
	}
	tokenFile := f.Accounts[0].OAuth.File
	if fi, err := os.Stat(tokenFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the refresh token's file: %v, %v", fi, err)
	}
	// The browser on this computer: the same account, signed in again,
	// once the person says so; declined, nothing changes.
	before, _ := os.ReadFile(tokenFile)
	if out, err := add("--browser", "n\n"); !errors.Is(err, app.ErrSignInCancelled) ||
		!strings.Contains(out, "Signed in as "+user+".\nUse this sign-in for the account? [y/N] ") {
		t.Errorf("accounts add --browser, answered n = %v, said:\n%s", err, out)
	}
	if after, _ := os.ReadFile(tokenFile); !bytes.Equal(before, after) {
		t.Error("a declined sign-in replaced the refresh token")
	}
	if out, err := add("--browser", "y\n"); err != nil || !strings.Contains(out, "Open this address in a browser on this computer") ||
		!strings.Contains(out, "Signed in again to "+user) {
		t.Errorf("accounts add --browser = %v, said:\n%s", err, out)
	}
	if f, err := config.Load(filepath.Join(dir, "config.json")); err != nil || f.Accounts[0].OAuth.Subject != user {
		t.Errorf("the account's first sign-in's sub = %q, %v; want %q", f.Accounts[0].OAuth.Subject, err, user)
	}

	// A node syncs it, beside a password account.
	other := imaptest.NewDovecot(t)
	env["OTHER_PW"] = other.Password
	settings := config.NewStore(filepath.Join(dir, "config.json"))
	if _, err := settings.Modify(func(f *config.File) error {
		f.Accounts = append(f.Accounts, config.Account{Name: "other", Server: other.Addr, Security: "plain",
			Username: other.Username, Password: config.Password{Env: "OTHER_PW"}})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	p, err := signin.Discover(ctx, op.HTTPClient(), op.Issuer, signin.Client{ID: oidctest.ClientID}, []string{"openid", "email", "offline_access"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := app.Config{DataDir: dir, Settings: settings, Getenv: getenv,
		SignIn:   app.SignInConfig{Providers: []signin.Provider{p}, HTTP: op.HTTPClient()},
		Services: app.Services{Sync: true, LocalAPI: true}}
	f, _ = settings.Load()
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
	until := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %s after 30 s: %+v", what, n.Status())
			}
		}
	}
	until("a pass of both accounts", func() bool {
		_, out, _ := run("accounts", "--data-dir", dir)
		return strings.Count(out, "syncing") == 2
	})
	refresh, _ := os.ReadFile(tokenFile)
	if err := op.Revoke(ctx, strings.TrimSpace(string(refresh))); err != nil {
		t.Fatal(err)
	}
	if _, err := dove.Kick(user); err != nil {
		t.Fatal(err)
	}
	want := "Sign in to " + op.Issuer + " again"
	var out string
	until("the CLI saying "+want, func() bool {
		_, out, _ = run("accounts", "--data-dir", dir)
		return strings.Contains(out, want)
	})
	if !regexp.MustCompile(`(?m)^other .* syncing$`).MatchString(out) || !strings.Contains(out, "mailnode accounts add --oauth "+op.Issuer) {
		t.Errorf("mailnode accounts said:\n%s", out)
	}
}

// TestPrintable: what a provider wrote reaches the terminal without
// escape sequences, C1 controls or bidi controls (attack 45, F5).
func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"https://microsoft.com/devicelogin":              "https://microsoft.com/devicelogin",
		"\x1b]0;pwned\x07ABCD-\x1b[2J1234\r\n":           "]0;pwnedABCD-[2J1234",
		"https://evil.test/\u202egro.elgoog\u2066\u200b": "https://evil.test/gro.elgoog",
		"\u009b31mcode\u0085":                            "31mcode",
		"café":                                           "café",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}
