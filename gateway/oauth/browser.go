package oauth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
)

// browserCookie binds an authorization request to the browser that
// started it. The consent page's address (?request=oar-…) is otherwise a
// capability: whoever started a request for a public client's id could
// send it to the person, who would see the phone's own match code on
// their own node's page and approve, and the starter's reload would
// collect the code. With the cookie, a reload from any other browser
// gets neither the match code nor the code.
//
// __Host-: only the node's own host over https can set or replace it
// (no Domain, Path /, Secure); HttpOnly; SameSite Lax, so that the
// top-level navigation from the client's site and the page's own
// reloads carry it. It lasts the browser's session, and one browser
// keeps one value for all its requests.
//
// A value is 16 random bytes and a MAC of them under the node's
// registration key, and only a value the node made is taken: node
// hostnames under one relay zone are one site to a browser, so a value
// that came from anywhere but this node (set by script on a sibling
// host in a browser without cookie prefixes, or chosen by whoever drives
// a browser) binds nothing.
const browserCookie = "__Host-mailnode-oauth"

const browserLabel = "mailnode oauth browser v1\x00"

// newBrowser returns a new cookie value: base64url of 16 random bytes
// and their 16-byte MAC, 43 characters.
func newBrowser(key []byte) string {
	b := make([]byte, 16, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(append(b, browserSum(key, b)...))
}

func browserSum(key, random []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(browserLabel))
	m.Write(random)
	return m.Sum(nil)[:16]
}

// browserOf is the browser's cookie value if the node made it, else "".
func (s *Server) browserOf(ctx context.Context, r *http.Request) string {
	c, err := r.Cookie(browserCookie)
	if err != nil || len(c.Value) != 43 {
		return ""
	}
	b, err := base64.RawURLEncoding.DecodeString(c.Value)
	if err != nil || len(b) != 32 || base64.RawURLEncoding.EncodeToString(b) != c.Value {
		return ""
	}
	key, err := s.registrationKey(ctx)
	if err != nil || !hmac.Equal(b[16:], browserSum(key, b[:16])) {
		return ""
	}
	return c.Value
}

// setBrowser sets the browser's cookie to v (a newBrowser value).
func setBrowser(w http.ResponseWriter, v string) {
	http.SetCookie(w, &http.Cookie{Name: browserCookie, Value: v, Path: "/", Secure: true, HttpOnly: true,
		SameSite: http.SameSiteLaxMode})
}

// sameBrowser reports whether r comes from the browser whose cookie
// hashes to want; a request stored without one matches no browser.
func (s *Server) sameBrowser(ctx context.Context, r *http.Request, want string) bool {
	v := s.browserOf(ctx, r)
	return v != "" && want != "" && subtle.ConstantTimeCompare([]byte(hash(v)), []byte(want)) == 1
}
