package ui

import (
	"bytes"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"mailnode/app"
	"mailnode/app/config"
	"mailnode/mail/oidctest"
	"mailnode/mail/signin"
)

// TestWizardSignIn: the wizard's first page offers "Sign in with Google"
// and "Sign in with Microsoft". Google here is the tests' oidc-provider
// with a Dovecot checking its tokens: the button opens the browser (a
// person's, driven by the test) at the provider, and the account comes
// back with the address the provider named, syncing. Microsoft has no
// client id in this build: the wizard says what to register. Once the
// provider revokes the grant, the status and the Accounts window say
// "Sign in to Google again", and its button signs in again.
// MAILNODE_UI_SHOTS=DIR saves the first page as the README shows it.
func TestWizardSignIn(t *testing.T) {
	const user = "person@example.test"
	op := oidctest.Start(t, oidctest.Options{})
	dove := op.Dovecot(t, user)
	google, err := signin.Discover(t.Context(), op.HTTPClient(), op.Issuer, signin.Client{ID: oidctest.ClientID},
		[]string{"openid", "email", "offline_access"})
	if err != nil {
		t.Fatal(err)
	}
	google.ID, google.Name, google.IMAP, google.Plain = "google", "Google", dove.Addr, true

	dir := t.TempDir()
	n, err := app.New(app.Config{DataDir: dir, Settings: config.NewStore(filepath.Join(dir, "config.json")),
		SignIn:   app.SignInConfig{Providers: []signin.Provider{google}, HTTP: op.HTTPClient()},
		Services: app.Services{Sync: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	// The system browser: the person signs in at the page the app opens.
	opened := make(chan string, 4)
	browse := func(u *url.URL) error {
		opened <- u.String()
		go op.NewBrowser().SignIn(u.String(), user)
		return nil
	}
	e := &env{t: t, fa: &notifyingApp{App: test.NewTempApp(t)}, node: n}
	e.u = New(e.fa, n, Options{TrayHost: func() bool { return false }, OpenURL: browse})
	e.u.Start()
	t.Cleanup(e.u.Close)
	e.u.OpenWizard()
	var w *wizard
	e.until("the wizard", func() bool { w = e.u.wiz; return w != nil })
	for _, b := range []string{"Sign in with Google", "Sign in with Microsoft"} {
		e.u.locked(func() {
			if findButton(w.body, b) == nil {
				t.Errorf("the wizard's first page has no %q button:\n%s", b, texts(w.body))
			}
		})
	}
	if dir := os.Getenv("MAILNODE_UI_SHOTS"); dir != "" {
		var b bytes.Buffer
		e.u.locked(func() { png.Encode(&b, w.win.Canvas().Capture()) })
		os.WriteFile(filepath.Join(dir, "wizard-signin.png"), b.Bytes(), 0o644)
	}

	// No client id for Microsoft in a test build: what to register.
	e.tap(w.body, "Sign in with Microsoft")
	e.until("the missing client id explained", func() bool {
		return w.errLabel.Visible() && strings.Contains(w.errLabel.Text, "needs an OAuth client id") &&
			strings.Contains(w.errLabel.Text, "Entra") && strings.Contains(w.errLabel.Text, "http://127.0.0.1/signin/callback")
	})

	// Google: the browser opens at the provider; the address comes back.
	e.tap(w.body, "Sign in with Google")
	var page string
	select {
	case page = <-opened:
	case <-t.Context().Done():
	}
	if !strings.HasPrefix(page, "http://127.0.0.1:") || !strings.Contains(page, signin.StartPath) {
		t.Errorf("the browser opened %q, want the node's one-time start address", page)
	}
	// "Signed in as …": Add or Cancel. Cancel keeps nothing.
	e.whileCalling(60*time.Second, "the confirmation", func() bool { return w.step == stepConfirm })
	e.u.locked(func() {
		if !strings.Contains(texts(w.body), "Signed in as "+user) {
			t.Errorf("the confirmation says:\n%s", texts(w.body))
		}
	})
	e.tap(w.body, "Cancel")
	e.until("the first page again, saying so", func() bool {
		return w.step == stepAddress && strings.Contains(w.errLabel.Text, "cancelled")
	})
	if f, err := n.Settings(); err != nil || len(f.Accounts) != 0 {
		t.Fatalf("settings after a cancelled sign-in: %+v, %v", f.Accounts, err)
	}
	e.tap(w.body, "Sign in with Google")
	<-opened
	e.whileCalling(60*time.Second, "the confirmation", func() bool { return w.step == stepConfirm })
	e.tap(w.body, "Add")
	e.untilWithin(60*time.Second, "the relay step", func() bool { return w.step == stepRelay })
	e.u.locked(func() {
		if w.address.Text != user {
			t.Errorf("the wizard's address = %q, want the provider's %q", w.address.Text, user)
		}
	})
	f, err := n.Settings()
	if err != nil || len(f.Accounts) != 1 || f.Accounts[0].Username != user || f.Accounts[0].OAuth.Provider != "google" {
		t.Fatalf("settings after signing in: %+v, %v", f.Accounts, err)
	}
	e.until("the account synced", func() bool { return !n.Status().LastSync.IsZero() })
	e.u.locked(func() { w.finish() })

	// The provider revokes the grant and ends the session.
	refresh, _ := os.ReadFile(f.Accounts[0].OAuth.File)
	if err := op.Revoke(t.Context(), strings.TrimSpace(string(refresh))); err != nil {
		t.Fatal(err)
	}
	if _, err := dove.Kick(user); err != nil {
		t.Fatal(err)
	}
	e.untilWithin(30*time.Second, "the status saying so", func() bool {
		return e.u.status.headline.Text == "Sign in to Google again"
	})
	if trayState(n.Status()) != iconError {
		t.Errorf("the tray's icon is %q, want %q", trayState(n.Status()), iconError)
	}
	e.u.Show(TabAccounts)
	e.until("the Accounts window saying so", func() bool {
		return findButton(e.u.accounts.list, "Sign in to Google again") != nil &&
			strings.Contains(texts(e.u.accounts.list), "its mail is not being copied")
	})
	e.tap(e.u.accounts.list, "Sign in to Google again")
	// "Signed in as …": the dialog's "Use this sign-in".
	var use *widget.Button
	e.whileCalling(60*time.Second, "the confirmation dialog", func() bool {
		if top := e.u.win.Canvas().Overlays().Top(); top != nil {
			use = findButton(top, "Use this sign-in")
		}
		return use != nil
	})
	e.u.locked(func() { test.Tap(use) })
	e.untilWithin(60*time.Second, "the account syncing again", func() bool {
		st := n.Status()
		return len(st.Accounts) == 1 && st.Accounts[0].Problem == ""
	})
	e.until("the Accounts window without the problem", func() bool {
		return findButton(e.u.accounts.list, "Sign in to Google again") == nil
	})
}

// whileCalling is untilWithin for a state reached while a node call is
// still under way (the sign-in waits for the person's confirmation), so
// without waiting for the calls to end first.
func (e *env) whileCalling(d time.Duration, what string, cond func() bool) {
	e.t.Helper()
	for deadline := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		var ok bool
		e.u.locked(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %s", what)
		}
	}
}
