package oauth

import (
	"crypto/subtle"
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
const browserCookie = "__Host-mailnode-oauth"

// browserOf is the browser's cookie value, or "" without a usable one.
func browserOf(r *http.Request) string {
	c, err := r.Cookie(browserCookie)
	if err != nil || len(c.Value) != 43 || !isUnreserved(c.Value) {
		return ""
	}
	return c.Value
}

// setBrowser sets the browser's cookie to v (a secret("") value).
func setBrowser(w http.ResponseWriter, v string) {
	http.SetCookie(w, &http.Cookie{Name: browserCookie, Value: v, Path: "/", Secure: true, HttpOnly: true,
		SameSite: http.SameSiteLaxMode})
}

// sameBrowser reports whether r comes from the browser whose cookie
// hashes to want; a request stored without one matches no browser.
func sameBrowser(r *http.Request, want string) bool {
	v := browserOf(r)
	return v != "" && want != "" && subtle.ConstantTimeCompare([]byte(hash(v)), []byte(want)) == 1
}
