package signin_test

// Regression tests for the outside attack on issue 45 (its report's
// findings F1 to F5): a provider, or anyone reaching the loopback
// listener, that answers with what the node must survive or refuse.

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

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

var _ = strings.Contains
