package app_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mailnode/app"
	"mailnode/app/config"
	"mailnode/mail/oidctest"
	"mailnode/mail/signin"
)

// TestSignInInChromium: the browser sign-in as a person goes through it,
// in headless Chromium: the node opens the provider's page (oidc-provider's
// own login and consent pages), the person signs in and allows, the
// provider redirects the browser to the node's loopback listener, whose
// page says it is done; the node has the account the provider named.
func TestSignInInChromium(t *testing.T) {
	op := oidctest.Start(t, oidctest.Options{})
	tab := browser(t)
	dir := t.TempDir()
	n, err := app.New(app.Config{DataDir: filepath.Join(dir, "data"), Settings: config.NewStore(filepath.Join(dir, "config.json")),
		SignIn: app.SignInConfig{Providers: []signin.Provider{testProvider(t, op, "127.0.0.1:1")}, HTTP: op.HTTPClient()}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	step, cancel := context.WithTimeout(tab, time.Minute)
	defer cancel()
	browsed := make(chan error, 1)
	var page string
	flow := app.SignInFlow{Open: func(u string) error {
		go func() {
			err := chromedp.Do(step,
				chromedp.Navigate(u),
				chromedp.WaitVisible(chromedp.CSS(`input[name=login]`)),
				chromedp.SendKeys(chromedp.CSS(`input[name=login]`), signInUser),
				chromedp.SendKeys(chromedp.CSS(`input[name=password]`), "any password"),
				chromedp.Click(chromedp.CSS(`button[type=submit]`)),
				// The consent page: allow.
				chromedp.WaitVisible(chromedp.Search(`//button[contains(., "Continue")]`)),
				chromedp.Click(chromedp.Search(`//button[contains(., "Continue")]`)),
				// The node's own page, on its loopback listener.
				waitText(`h1`, "Signed in"),
			)
			if err == nil {
				page, err = chromedp.Run(step, chromedp.Text(chromedp.CSS(`body`)))
			}
			browsed <- err
		}()
		return nil
	}}
	a, err := n.SignInAccount(step, "example", flow)
	if err != nil {
		t.Fatalf("SignInAccount() = %v", err)
	}
	if err := <-browsed; err != nil {
		t.Fatalf("the browser: %v", err)
	}
	if a.Username != signInUser {
		t.Errorf("SignInAccount() = %+v, want the account %s", a, signInUser)
	}
	if !strings.Contains(page, "You can close this tab and return to mailnode") {
		t.Errorf("the browser ends on %q, want the node's page", page)
	}
}
