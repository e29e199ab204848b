package app_test

import (
	"context"
	"fmt"
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
			// Every step waits through the navigation before it: the
			// provider's pages replace one another, and a look at a
			// page being replaced fails ("Cannot find context").
			err := chromedp.Do(step,
				chromedp.Navigate(u),
				untilJS(`!!document.querySelector('input[name=login]')`),
				untilJS(fmt.Sprintf(`(() => { const f = document.querySelector('input[name=login]').form;
					f.login.value = %q; f.password.value = 'any password'; f.requestSubmit(); return true })()`, signInUser)),
				// The consent page: allow.
				untilJS(`(() => { const b = [...document.querySelectorAll('button')].find(b => b.textContent.includes('Continue'));
					if (!b) return false; b.click(); return true })()`),
				// The node's own page, on its loopback listener.
				untilJS(`document.querySelector('h1')?.textContent.trim() === 'Signed in'`),
			)
			if err == nil {
				// Read by script, not by a DOM node: a node id taken just
				// as the page settles can be gone by the next call ("No
				// node with given id found", seen under load).
				page, err = chromedp.Run(step, chromedp.Evaluate[string](`document.body.innerText`))
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

// untilJS evaluates expr, a boolean, until it is true, trying again when
// the page it meets is being replaced.
func untilJS(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		var last error
		for {
			ok, err := chromedp.Evaluate[bool](expr)(ctx, t)
			if err == nil && ok {
				return nil
			}
			if err != nil {
				last = err
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%s stayed false (last error %v): %w", expr, last, ctx.Err())
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}
