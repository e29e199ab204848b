package oauth_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"mailnode/gateway/oauth"
)

// FuzzAuthorize feeds arbitrary query strings to the authorization
// endpoint. Whatever they say, the node answers without a 5xx, and a
// redirect goes only to a redirect URI the client registered.
func FuzzAuthorize(f *testing.F) {
	p := newPKCE("fuzz")
	for _, v := range []url.Values{
		authParams(cimdID, redirect, p),
		authParams(cimdID, redirect+"#x", p),
		authParams("https://assistant.example.com/oauth/moved.json", redirect, p),
		authParams("dcr-aaaaaaaaaaaaaaaaaaaaaaaa", "http://127.0.0.1/cb", p),
		{"request": {"oar-nosuchrequest"}},
		{"request": {"x"}, "client_id": {cimdID}},
	} {
		f.Add(v.Encode())
	}
	f.Add("client_id=https%3A%2F%2Fassistant.example.com%2Foauth%2Fclient.json&redirect_uri=https%3A%2F%2Fassistant.example.com%2Fcallback%2F..%2Fcallback")
	f.Add("%zz&&=;")
	e := newEnv(f, func(c *oauth.Config) { c.AuthorizeBurst, c.RegisterBurst = 1e6, 1e6 })
	registered := []string{redirect}
	f.Fuzz(func(t *testing.T, query string) {
		req := httptest.NewRequest("GET", "/oauth/authorize", nil)
		req.URL.RawQuery = query
		rec := httptest.NewRecorder()
		e.srv.Serve(rec, req, nodeHost)
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("authorize?%s = %d", query, rec.Code)
		}
		if rec.Code == http.StatusFound {
			loc := rec.Header().Get("Location")
			ok := false
			for _, r := range registered {
				ok = ok || strings.HasPrefix(loc, r+"?")
			}
			if !ok {
				t.Fatalf("authorize?%s redirected to %q, not a registered redirect URI", query, loc)
			}
		}
	})
}

// FuzzToken feeds arbitrary forms to the token endpoint, where no code or
// refresh token was ever issued: nothing may come back but an error.
func FuzzToken(f *testing.F) {
	for _, s := range []string{
		"grant_type=authorization_code&code=mnc_x&client_id=dcr-a&redirect_uri=x&code_verifier=" + strings.Repeat("a", 43),
		"grant_type=refresh_token&refresh_token=mnr_x&client_id=" + url.QueryEscape(cimdID),
		"grant_type=client_credentials",
		"grant_type=authorization_code&code=&code=mnc_",
		"%%%",
	} {
		f.Add(s)
	}
	e := newEnv(f, nil)
	f.Fuzz(func(t *testing.T, form string) {
		req := httptest.NewRequest("POST", "/oauth/token", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		e.srv.Serve(rec, req, nodeHost)
		if rec.Code != http.StatusBadRequest {
			t.Fatalf("token %q = %d %s", form, rec.Code, rec.Body)
		}
	})
}

// FuzzRegister feeds arbitrary bodies to registration: never a 5xx, and a
// client is registered only with redirect URIs the node accepts.
func FuzzRegister(f *testing.F) {
	for _, s := range []string{
		`{"redirect_uris":["https://a.example/cb"],"client_name":"A"}`,
		`{"redirect_uris":["http://127.0.0.1:8080/cb"]}`,
		`{"redirect_uris":["javascript:x"]}`,
		`{"redirect_uris":"https://a.example/cb"}`,
		`{"redirect_uris":["https://a.example/cb"],"client_name":"\u202eevil\u0000"}`,
		`null`,
	} {
		f.Add(s)
	}
	e := newEnv(f, func(c *oauth.Config) { c.RegisterBurst = 1e6 })
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest("POST", "/oauth/register", strings.NewReader(body))
		rec := httptest.NewRecorder()
		e.srv.Serve(rec, req, nodeHost)
		switch {
		case rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable:
			t.Fatalf("register %q = %d", body, rec.Code)
		case rec.Code == http.StatusCreated && strings.Contains(rec.Body.String(), "javascript:"):
			t.Fatalf("register %q registered %s", body, rec.Body)
		}
	})
}
