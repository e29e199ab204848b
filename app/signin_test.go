package app_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

const signInUser = "person@example.test"

// oauthDovecot is Dovecot checking tokens at op's introspection endpoint
// (its own oauth2 passdb), the mailbox of signInUser.
func oauthDovecot(t *testing.T, op *oidctest.Provider) *imaptest.Dovecot {
	t.Helper()
	return op.Dovecot(t, signInUser)
}

// testProvider is op as a provider named "Example ID" whose mail server
// is imap (plain, on loopback).
func testProvider(t *testing.T, op *oidctest.Provider, imap string) signin.Provider {
	t.Helper()
	p, err := signin.Discover(t.Context(), op.HTTPClient(), op.Issuer, signin.Client{ID: oidctest.ClientID},
		[]string{"openid", "email", "offline_access"})
	if err != nil {
		t.Fatal(err)
	}
	p.ID, p.Name, p.IMAP, p.Plain = "example", "Example ID", imap, true
	return p
}

// browserFlow signs in as login in op's pages when the node opens them.
func browserFlow(op *oidctest.Provider, login string) (app.SignInFlow, func() error) {
	var wg sync.WaitGroup
	var err error
	return app.SignInFlow{Open: func(u string) error {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, err = op.NewBrowser().SignIn(u, login)
			}()
			return nil
		}}, func() error {
			wg.Wait()
			return err
		}
}

func appendMessage(t *testing.T, s *imaptest.Server, subject string) {
	t.Helper()
	c := s.Dial(t)
	defer c.Close()
	msg := fmt.Sprintf("From: a@example.test\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s@test>\r\n\r\nBody.\r\n",
		s.Username, subject, strings.ReplaceAll(subject, " ", "."))
	cmd := c.Append("INBOX", int64(len(msg)), nil)
	cmd.Write([]byte(msg))
	cmd.Close()
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

// TestSignInAccount: an account added by signing in at the provider
// (oidc-provider; the address from its ID token, the refresh token in a
// 0600 file where no keyring runs, nothing of it in the settings) syncs
// a Dovecot that checks its tokens. Once the provider revokes the grant,
// that account's sync stops, without retrying, and says "Sign in to
// Example ID again", while a password account beside it keeps syncing;
// signing in again starts it once more.
func TestSignInAccount(t *testing.T) {
	op := oidctest.Start(t, oidctest.Options{})
	d := oauthDovecot(t, op)
	other := imaptest.NewDovecot(t)
	dir := t.TempDir()
	settings := config.NewStore(filepath.Join(dir, "config.json"))
	env := map[string]string{"OTHER_PW": other.Password}
	n, err := app.New(app.Config{DataDir: filepath.Join(dir, "data"), Settings: settings,
		Getenv:   func(k string) string { return env[k] },
		SignIn:   app.SignInConfig{Providers: []signin.Provider{testProvider(t, op, d.Addr)}, HTTP: op.HTTPClient()},
		Services: app.Services{Sync: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	messages := func(want int) func() bool {
		return func() bool { return n.Status().Messages == want }
	}
	until := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %s after 30 s: %+v", what, n.Status())
			}
		}
	}

	appendMessage(t, other, "password 1")
	if err := n.AddAccount(ctx, config.Account{Name: "other", Server: other.Addr, Security: "plain",
		Username: other.Username, Password: config.Password{Env: "OTHER_PW"}}); err != nil {
		t.Fatal(err)
	}
	appendMessage(t, d.Server, "oauth 1")
	flow, browsed := browserFlow(op, signInUser)
	a, err := n.SignInAccount(ctx, "example", flow)
	if berr := browsed(); err != nil || berr != nil {
		t.Fatalf("SignInAccount() = %v (browser: %v)", err, berr)
	}
	if a.Name != signInUser || a.Username != signInUser || a.OAuth.Provider != "example" || a.OAuth.File == "" || a.OAuth.Subject != signInUser {
		t.Fatalf("SignInAccount() = %+v, want the provider's address and the token in a file", a)
	}
	if fi, err := os.Stat(a.OAuth.File); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the refresh token's file: %v, %v", fi, err)
	}
	refresh, _ := os.ReadFile(a.OAuth.File)
	if b, _ := os.ReadFile(settings.Path()); strings.Contains(string(b), strings.TrimSpace(string(refresh))) {
		t.Error("the settings file holds the refresh token")
	}
	until("both accounts synced", messages(2))
	for _, acct := range n.Status().Accounts {
		if acct.Name == signInUser && (!acct.OAuth || !strings.Contains(acct.PasswordSource, "Example ID sign-in")) {
			t.Errorf("the OAuth account's status: %+v", acct)
		}
	}

	// The provider revokes the grant, and ends the session (as a provider
	// does); the node's next sign-in is refused for good.
	if err := op.Revoke(ctx, strings.TrimSpace(string(refresh))); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Kick(signInUser); err != nil {
		t.Fatal(err)
	}
	problem := func() string {
		for _, acct := range n.Status().Accounts {
			if acct.Name == signInUser {
				return acct.Problem
			}
		}
		return ""
	}
	until("sign-in problem", func() bool { return problem() != "" })
	if got := problem(); got != "Sign in to Example ID again" {
		t.Errorf("the account's problem = %q, want %q", got, "Sign in to Example ID again")
	}
	if st := n.Status(); !strings.Contains(st.LastError, "Sign in to Example ID again") || st.State == app.StateOffline {
		t.Errorf("status after the revoked grant: state %s, last error %q", st.State, st.LastError)
	}
	// No retries: Dovecot hears of no attempt after the refusal.
	logins := strings.Count(d.Log(), "Introspection")
	// The password account syncs on.
	appendMessage(t, other, "password 2")
	until("the password account's new message", messages(3))
	time.Sleep(3 * time.Second) // longer than the sync's first back-off
	if again := strings.Count(d.Log(), "Introspection"); again != logins {
		t.Errorf("the stopped account signed in %d more times", again-logins)
	}

	// Signing in again, the person first sees who signed in: declined,
	// nothing is kept (someone else on this computer may have signed in
	// with the sign-in's address).
	var asked []string
	kept, _ := os.ReadFile(a.OAuth.File)
	flow, browsed = browserFlow(op, signInUser)
	flow.Confirm = func(_ context.Context, address string, again bool) error {
		asked = append(asked, fmt.Sprintf("%s %v", address, again))
		return app.ErrSignInCancelled
	}
	if _, err := n.SignInAccount(ctx, "example", flow); !errors.Is(err, app.ErrSignInCancelled) || browsed() != nil {
		t.Fatalf("SignInAccount(declined) = %v", err)
	}
	if len(asked) != 1 || asked[0] != signInUser+" true" {
		t.Errorf("Confirm was asked %q, want %s as an account again", asked, signInUser)
	}
	if now, _ := os.ReadFile(a.OAuth.File); string(now) != string(kept) {
		t.Error("a declined sign-in replaced the refresh token")
	}
	// A sign-in naming the same address but another sub (Microsoft's
	// preferred_username is no stable identity) is refused before
	// anything is kept or asked.
	if _, err := settings.Modify(func(f *config.File) error {
		f.Accounts[1].OAuth.Subject = "someone-else"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	flow, browsed = browserFlow(op, signInUser)
	flow.Confirm = func(context.Context, string, bool) error { t.Error("asked to confirm another person"); return nil }
	if _, err := n.SignInAccount(ctx, "example", flow); err == nil || !strings.Contains(err.Error(), "different person") || browsed() != nil {
		t.Fatalf("SignInAccount(another sub) = %v", err)
	}
	if now, _ := os.ReadFile(a.OAuth.File); string(now) != string(kept) {
		t.Error("a sign-in as another person replaced the refresh token")
	}
	if _, err := settings.Modify(func(f *config.File) error {
		f.Accounts[1].OAuth.Subject = signInUser
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	// Signing in again starts the account once more.
	appendMessage(t, d.Server, "oauth 2")
	flow, browsed = browserFlow(op, signInUser)
	flow.Confirm = func(context.Context, string, bool) error { return nil }
	if _, err := n.SignInAccount(ctx, "example", flow); err != nil || browsed() != nil {
		t.Fatalf("SignInAccount() again = %v", err)
	}
	until("the OAuth account synced again", messages(4))
	if p := problem(); p != "" {
		t.Errorf("after signing in again, the account's problem = %q", p)
	}
	f, _ := n.Settings()
	if len(f.Accounts) != 2 {
		t.Errorf("settings after signing in again: %+v", f.Accounts)
	}
}

// TestSignInTokenHosts (attack 45, F8): a Google or Microsoft account's
// token goes only to that provider's own mail servers; settings naming
// another host for either server are refused when the account is
// resolved, so no token is sent there. An issuer of one's own has no
// such list.
func TestSignInTokenHosts(t *testing.T) {
	file := filepath.Join(t.TempDir(), "refresh")
	if err := os.WriteFile(file, []byte("r"), 0o600); err != nil {
		t.Fatal(err)
	}
	sc := app.SignInConfig{Clients: signin.Clients{"google": {ID: "g"}, "microsoft": {ID: "m"}}}
	noEnv := func(string) string { return "" }
	for _, tc := range []struct {
		provider, imap, smtp string
		imapSec, smtpSec     string
		refusal              string // "" when taken
	}{
		{"google", "imap.gmail.com:993", "smtp.gmail.com:465", "tls", "tls", ""},
		{"google", "IMAP.GMAIL.COM.:993", "", "tls", "", ""},
		{"google", "imap.evil.test:993", "smtp.gmail.com:465", "tls", "tls", "own mail servers"},
		{"google", "imap.gmail.com:993", "smtp.gmail.com.evil.test:465", "tls", "tls", "own mail servers"},
		{"microsoft", "outlook.office365.com:993", "smtp.office365.com:587", "tls", "starttls", ""},
		{"microsoft", "outlook.office365.com:993", "smtp.gmail.com:587", "tls", "starttls", "own mail servers"},
		// Round 2 (R2-3): the provider's own host, but in plain text.
		{"google", "imap.gmail.com:143", "", "plain", "", "only over TLS"},
		{"microsoft", "outlook.office365.com:993", "smtp.office365.com:25", "tls", "PLAIN", "only over TLS"},
	} {
		a := config.Account{Name: "a", Server: tc.imap, Security: tc.imapSec, Username: "a@example.test",
			OAuth: config.OAuth{Provider: tc.provider, File: file}, SMTP: config.SMTP{Server: tc.smtp, Security: tc.smtpSec}}
		_, err := app.ResolveAccount(a, sc, noEnv)
		if tc.refusal == "" && err != nil || tc.refusal != "" && (err == nil || !strings.Contains(err.Error(), tc.refusal)) {
			t.Errorf("ResolveAccount(%s, %s %s, %s %s) = %v", tc.provider, tc.imap, tc.imapSec, tc.smtp, tc.smtpSec, err)
		}
	}
}
