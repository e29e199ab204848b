package signin_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"mailnode/mail/credential"
	"mailnode/mail/oidctest"
	"mailnode/mail/signin"
)

const user = "person@example.test"

var scopes = []string{"openid", "email"}

// provider discovers the test's oidc-provider as the node's client.
func provider(t *testing.T, op *oidctest.Provider, client string) signin.Provider {
	t.Helper()
	p, err := signin.Discover(context.Background(), op.HTTPClient(), op.Issuer, signin.Client{ID: client}, scopes)
	if err != nil {
		t.Fatal(err)
	}
	if p.DeviceAuthURL == "" || p.JWKSURL == "" {
		t.Fatalf("Discover() = %+v: no device or JWKS endpoint", p)
	}
	return p
}

// browse returns an open function that has a browser sign in as login,
// and a wait for its outcome. With edit, the browser fetches the node's
// start address itself and edits the provider's address it redirects to.
func browse(t *testing.T, op *oidctest.Provider, login string, edit func(*url.URL)) (func(string) error, func() (int, string, error)) {
	var wg sync.WaitGroup
	var status int
	var body string
	var err error
	open := func(startURL string) error {
		if !strings.HasPrefix(startURL, "http://127.0.0.1:") || !strings.Contains(startURL, signin.StartPath) {
			t.Errorf("open(%q): not the node's loopback start address", startURL)
		}
		page := startURL
		if edit != nil {
			u, err := authURL(startURL)
			if err != nil {
				return err
			}
			edit(u)
			page = u.String()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, body, err = op.NewBrowser().SignIn(page, login)
		}()
		return nil
	}
	return open, func() (int, string, error) { wg.Wait(); return status, body, err }
}

// authURL fetches the node's one-time start address and returns the
// provider's address it redirects to.
func authURL(startURL string) (*url.URL, error) {
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(startURL)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		return nil, fmt.Errorf("GET %s = %s, want a redirect", startURL, resp.Status)
	}
	return resp.Location()
}

// TestBrowserSignIn: code + PKCE through the provider's own login and
// consent pages to the node's loopback listener; the address from the ID
// token; the refresh token kept 0600 where no keyring answers; an access
// token the provider's introspection calls active for that account, and
// renewed on demand.
func TestBrowserSignIn(t *testing.T) {
	op := oidctest.Start(t, oidctest.Options{})
	p := provider(t, op, oidctest.ClientID)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	open, wait := browse(t, op, user, nil)
	g, err := signin.Browser(ctx, p, open, signin.Options{HTTPClient: op.HTTPClient()})
	status, body, berr := wait()
	if err != nil {
		t.Fatalf("Browser() = %v (browser: %d %v %.200s)", err, status, berr, body)
	}
	if berr != nil || status != http.StatusOK || !strings.Contains(body, "Signed in") {
		t.Errorf("the callback page = %d %v %.200q", status, berr, body)
	}
	if g.Address != user || g.Refresh == "" || g.Provider != p.ID || g.Subject != user {
		t.Fatalf("grant = %q %q %q, want %s with a refresh token", g.Provider, g.Address, g.Subject, user)
	}

	keyring.MockInitWithError(errors.New("no Secret Service"))
	file := filepath.Join(t.TempDir(), "refresh")
	src, err := g.Save(file)
	if err != nil || src.File != file {
		t.Fatalf("Save() = %+v, %v", src, err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("refresh token file: %v, %v", fi, err)
	}

	tokens := g.Tokens(p, signin.TokensOptions{Options: signin.Options{HTTPClient: op.HTTPClient()}})
	first, err := tokens.AccessToken(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	in, err := op.Introspect(ctx, first.Reveal())
	if err != nil || !in.Active || in.Subject != user || in.ClientID != oidctest.ClientID {
		t.Fatalf("Introspect(first) = %+v, %v", in, err)
	}
	// Kept for later: the same token without renewal.
	if again, _ := tokens.AccessToken(ctx, false); again != first {
		t.Error("AccessToken(false) renewed a fresh token")
	}
	renewed, err := tokens.AccessToken(ctx, true)
	if err != nil || renewed == first {
		t.Fatalf("AccessToken(true) = same token or %v", err)
	}
	if in, err := op.Introspect(ctx, renewed.Reveal()); err != nil || !in.Active {
		t.Fatalf("Introspect(renewed) = %+v, %v", in, err)
	}
}

// TestDeviceSignIn: the device grant, completed by the test entering the
// user code the node showed on the provider's pages.
func TestDeviceSignIn(t *testing.T) {
	op := oidctest.Start(t, oidctest.Options{})
	p := provider(t, op, oidctest.ClientID)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	var berr error
	show := func(dc signin.DeviceCode) error {
		if dc.UserCode == "" || !strings.HasPrefix(dc.URI, op.Issuer) {
			t.Errorf("DeviceCode = %+v", dc)
		}
		wg.Add(1)
		go func() { defer wg.Done(); berr = op.NewBrowser().EnterCode(dc.URI, dc.UserCode, user) }()
		return nil
	}
	g, err := signin.Device(ctx, p, show, signin.Options{HTTPClient: op.HTTPClient()})
	wg.Wait()
	if berr != nil {
		t.Fatalf("entering the code: %v", berr)
	}
	if err != nil || g.Address != user || g.Refresh == "" {
		t.Fatalf("Device() = %+v, %v", g, err)
	}

	// Google refuses the mail scope on its device flow: said, not tried.
	google, _ := signin.Lookup("google", signin.Clients{"google": {ID: "x"}})
	if _, err := signin.Device(ctx, google, show, signin.Options{}); !errors.Is(err, signin.ErrNoDeviceFlow) || !strings.Contains(err.Error(), "browser") {
		t.Errorf("Device(google) = %v", err)
	}
}

// idTokenSwap is a token endpoint in front of the provider's that hands
// the first ID token it sees (another program's) to every later answer:
// a mix-up, or an attacker replaying a real token for another audience.
func idTokenSwap(t *testing.T, op *oidctest.Provider, tokenURL string) string {
	var mu sync.Mutex
	var kept string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequest(r.Method, tokenURL, r.Body)
		req.Header = r.Header.Clone()
		resp, err := op.HTTPClient().Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var m map[string]any
		if json.Unmarshal(b, &m) == nil && m["id_token"] != nil {
			mu.Lock()
			if kept == "" {
				kept = m["id_token"].(string)
			}
			m["id_token"] = kept
			mu.Unlock()
			b, _ = json.Marshal(m)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(resp.StatusCode)
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestRefused: a wrong state, an ID token for another audience, a
// callback on another path, a redirect to a port the node did not open,
// and invalid_grant (a made-up and a revoked refresh token): each a clear
// error and no grant, so nothing to store.
func TestRefused(t *testing.T) {
	op := oidctest.Start(t, oidctest.Options{})
	p := provider(t, op, oidctest.ClientID)
	o := signin.Options{HTTPClient: op.HTTPClient()}

	t.Run("state", func(t *testing.T) {
		// The browser's answer carries another state: refused with a
		// page, and not counted (TestStrayCallbacks), so the sign-in
		// waits on until ctx ends.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		open, wait := browse(t, op, user, func(u *url.URL) {
			q := u.Query()
			q.Set("state", "an-attackers-state")
			u.RawQuery = q.Encode()
		})
		g, err := signin.Browser(ctx, p, open, o)
		status, body, _ := wait()
		if g != nil || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Browser(wrong state) = %v, %v", g, err)
		}
		if status != http.StatusBadRequest || !strings.Contains(body, "Sign-in failed") || !strings.Contains(body, "state differs") {
			t.Errorf("callback page = %d %.200q", status, body)
		}
	})

	t.Run("audience", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		swap := idTokenSwap(t, op, p.TokenURL)
		other := provider(t, op, oidctest.OtherClientID)
		other.TokenURL = swap
		open, wait := browse(t, op, user, nil)
		if _, err := signin.Browser(ctx, other, open, o); err != nil {
			t.Fatalf("the other program's sign-in: %v", err)
		}
		wait()
		node := p
		node.TokenURL = swap
		open, wait = browse(t, op, user, nil)
		g, err := signin.Browser(ctx, node, open, o)
		wait()
		if g != nil || err == nil || !strings.Contains(err.Error(), "not for this sign-in") || !strings.Contains(err.Error(), "audience") {
			t.Errorf("Browser(another audience's ID token) = %v, %v", g, err)
		}
	})

	t.Run("path", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var port string
		open, wait := browse(t, op, user, func(u *url.URL) {
			r, _ := url.Parse(u.Query().Get("redirect_uri"))
			port = r.Port()
			// Requests on other paths are refused and do not use up the
			// one callback.
			for _, path := range []string{"/", "/signin/callback/x", "/favicon.ico"} {
				resp, err := http.Get("http://127.0.0.1:" + port + path + "?code=x&state=y")
				if err != nil || resp.StatusCode != http.StatusNotFound {
					t.Errorf("GET %s = %v, %v, want 404", path, resp, err)
				}
				if resp != nil {
					resp.Body.Close()
				}
			}
		})
		g, err := signin.Browser(ctx, p, open, o)
		wait()
		if err != nil || g.Address != user {
			t.Fatalf("Browser() after requests on other paths = %v", err)
		}
		// The listener is gone with the sign-in.
		if resp, err := http.Get("http://127.0.0.1:" + port + signin.CallbackPath); err == nil {
			resp.Body.Close()
			t.Errorf("the callback listener still answers after the sign-in")
		}
	})

	t.Run("port", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		// The port is held for the sign-in's length, each connection to it
		// closed at once as a closed port refuses one: a port closed here
		// could be handed to the node's own callback listener next (it
		// once was, in CI), and the redirect would then reach the node.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		closed := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		open, wait := browse(t, op, user, func(u *url.URL) {
			q := u.Query()
			q.Set("redirect_uri", "http://127.0.0.1:"+closed+signin.CallbackPath)
			u.RawQuery = q.Encode()
		})
		g, err := signin.Browser(ctx, p, open, o)
		_, _, berr := wait()
		if g != nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer") {
			t.Errorf("Browser(redirect to a closed port) = %v, %v", g, err)
		}
		if berr == nil {
			t.Errorf("the browser reached a port the node did not open")
		}
	})

	t.Run("invalid_grant", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var saved []credential.Secret
		save := func(s credential.Secret) error { saved = append(saved, s); return nil }
		tokens := signin.NewTokens(p, "made-up", signin.TokensOptions{Options: o, Save: save})
		_, err := tokens.AccessToken(ctx, false)
		if !errors.Is(err, signin.ErrSignInAgain) || !strings.HasPrefix(err.Error(), "Sign in to "+op.Issuer+" again") {
			t.Errorf("AccessToken(made-up refresh token) = %v", err)
		}

		open, wait := browse(t, op, user, nil)
		g, err := signin.Browser(ctx, p, open, o)
		wait()
		if err != nil {
			t.Fatal(err)
		}
		if err := op.Revoke(ctx, g.Refresh.Reveal()); err != nil {
			t.Fatal(err)
		}
		tokens = g.Tokens(p, signin.TokensOptions{Options: o, Save: save})
		_, err = tokens.AccessToken(ctx, true)
		if !errors.Is(err, signin.ErrSignInAgain) {
			t.Fatalf("AccessToken(revoked) = %v, want ErrSignInAgain", err)
		}
		if len(saved) != 0 {
			t.Errorf("%d refresh tokens saved after refusals", len(saved))
		}
		if strings.Contains(err.Error(), g.Refresh.Reveal()) {
			t.Error("the error carries the refresh token")
		}
	})
}
