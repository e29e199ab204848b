package oauth_test

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/gateway/agentkeys"
	"mailnode/gateway/oauth"
	"mailnode/mail/store"
)

const (
	nodeHost = "node.example.com"
	resource = "https://node.example.com/oauth/mcp"
	cimdHost = "assistant.example.com"
	cimdID   = "https://assistant.example.com/oauth/client.json"
	redirect = "https://assistant.example.com/callback"
)

type clock struct{ t atomic.Int64 }

func (c *clock) now() time.Time      { return time.Unix(c.t.Load(), 0) }
func (c *clock) add(d time.Duration) { c.t.Add(int64(d / time.Second)) }

// env is a node's front door on a real SQLite file and real approvals,
// with a client metadata document served over TLS on loopback (reached by
// agentkeys' development address, as a relay-hosted document would be).
type env struct {
	t     testing.TB
	clock *clock
	ap    *approvals.Manager
	srv   *oauth.Server
	node  *httptest.Server
	http  *http.Client
	doc   atomic.Pointer[string] // the metadata document served at cimdID
	hits  atomic.Int64
	file  oauth.File // the front door's tables
}

func newEnv(t testing.TB, tweak func(*oauth.Config)) *env {
	e := &env{t: t, clock: &clock{}}
	e.clock.t.Store(1_800_000_000)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	at, err := st.Attach(ctx, "approvals", approvals.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	if e.ap, err = approvals.New(ctx, at, approvals.Config{Now: e.clock.now}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.ap.Close() })
	ot, err := st.Attach(ctx, "oauth", oauth.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	e.file = ot
	doc := fmt.Sprintf(`{"client_id":%q,"client_name":"Example Assistant","redirect_uris":[%q],"token_endpoint_auth_method":"none"}`, cimdID, redirect)
	e.doc.Store(&doc)
	cs := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.hits.Add(1)
		switch r.URL.Path {
		case "/oauth/client.json":
			io.WriteString(w, *e.doc.Load())
		case "/logo.png":
			io.WriteString(w, "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
		case "/logo.svg":
			io.WriteString(w, `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
		case "/oauth/moved.json":
			http.Redirect(w, r, cimdID, http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(cs.Close)
	docs := agentkeys.New(agentkeys.Config{DevAddrs: map[string]string{cimdHost: cs.Listener.Addr().String()},
		DevRootCAs: []*x509.Certificate{cs.Certificate()}}, nil)
	cfg := oauth.Config{Docs: docs, Approvals: e.ap, File: ot, Now: e.clock.now,
		Tiers: []approvals.Tier{approvals.StructuredRead, approvals.FreeFormRead, approvals.RawRead, approvals.Compose, approvals.Send}}
	if tweak != nil {
		tweak(&cfg)
	}
	if e.srv, err = oauth.New(cfg, nil); err != nil {
		t.Fatal(err)
	}
	e.node = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !e.srv.Serve(w, r, nodeHost) {
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(e.node.Close)
	e.http = e.browser()
	return e
}

// browser is a new browser: its own cookies (the node's over https,
// which its __Host- cookie needs), and it does not follow redirects (the
// client's redirect URI is the client's, not reached here).
func (e *env) browser() *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		e.t.Fatal(err)
	}
	c := *e.node.Client()
	c.Jar = jar
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

type reply struct {
	status int
	header http.Header
	body   string
}

func (e *env) get(path string) reply {
	e.t.Helper()
	return e.getIn(e.http, path)
}

// getIn is get in browser b.
func (e *env) getIn(browser *http.Client, path string) reply {
	e.t.Helper()
	resp, err := browser.Get(e.node.URL + path)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b)}
}

func (e *env) post(path string, form url.Values) reply {
	e.t.Helper()
	resp, err := e.http.PostForm(e.node.URL+path, form)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b)}
}

func (r reply) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("%d %q: %v", r.status, r.body, err)
	}
	return m
}

// pkce is a verifier and its S256 challenge.
type pkce struct{ verifier, challenge string }

func newPKCE(seed string) pkce {
	v := base64.RawURLEncoding.EncodeToString([]byte(strings.Repeat(seed+"-verifier", 8)))[:64]
	sum := sha256.Sum256([]byte(v))
	return pkce{v, base64.RawURLEncoding.EncodeToString(sum[:])}
}

func authParams(clientID, redirectURI string, p pkce) url.Values {
	return url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {redirectURI},
		"code_challenge": {p.challenge}, "code_challenge_method": {"S256"}, "state": {"st4te"},
		"resource": {resource}, "scope": {"structured_read compose"}}
}

var matchCodeRE = regexp.MustCompile(`class="code">([A-Z0-9]{3}-[A-Z0-9]{3})<`)
var pollRE = regexp.MustCompile(`url=(/oauth/authorize\?request=[a-z0-9-]+)"`)

// consent starts an authorization and returns the page's match code and
// poll path.
func (e *env) consent(v url.Values) (code, poll string) {
	e.t.Helper()
	r := e.get("/oauth/authorize?" + v.Encode())
	m, p := matchCodeRE.FindStringSubmatch(r.body), pollRE.FindStringSubmatch(r.body)
	if r.status != 200 || m == nil || p == nil {
		e.t.Fatalf("authorize = %d %s", r.status, r.body)
	}
	if csp := r.header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		e.t.Errorf("consent page CSP = %q", csp)
	}
	return m[1], p[1]
}

// approveAndCode approves the consent as `mailnode approvals` does and
// follows the page to the client's redirect with the code.
func (e *env) approveAndCode(v url.Values) string {
	e.t.Helper()
	e.clock.add(10 * time.Second) // the client's authorization rate
	code, poll := e.consent(v)
	if r := e.get(poll); r.status != 200 {
		e.t.Fatalf("poll while pending = %d %s", r.status, r.body)
	}
	if _, err := e.ap.Decide(context.Background(), code, true); err != nil {
		e.t.Fatal(err)
	}
	r := e.get(poll)
	loc, _ := url.Parse(r.header.Get("Location"))
	if r.status != http.StatusFound || loc == nil || !strings.HasPrefix(loc.String(), v.Get("redirect_uri")+"?") ||
		loc.Query().Get("state") != "st4te" || loc.Query().Get("iss") != "https://"+nodeHost || loc.Query().Get("code") == "" {
		e.t.Fatalf("poll after approval = %d %q", r.status, r.header.Get("Location"))
	}
	return loc.Query().Get("code")
}

func (e *env) exchange(code, clientID, redirectURI, verifier string) reply {
	e.t.Helper()
	return e.post("/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {clientID},
		"redirect_uri": {redirectURI}, "code_verifier": {verifier}, "resource": {resource}})
}

func (e *env) tokens(r reply) (access, refresh string) {
	e.t.Helper()
	m := r.json(e.t)
	if r.status != 200 || m["token_type"] != "Bearer" || m["expires_in"].(float64) != 3600 {
		e.t.Fatalf("token = %d %s", r.status, r.body)
	}
	return m["access_token"].(string), m["refresh_token"].(string)
}

func (e *env) register(redirects ...string) string {
	e.t.Helper()
	b, _ := json.Marshal(map[string]any{"client_name": "Registered Tool", "redirect_uris": redirects})
	resp, err := e.http.Post(e.node.URL+"/oauth/register", "application/json", strings.NewReader(string(b)))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	id, _ := m["client_id"].(string)
	if resp.StatusCode != http.StatusCreated || !strings.HasPrefix(id, "dcr-") || m["token_endpoint_auth_method"] != "none" {
		e.t.Fatalf("register = %d %v", resp.StatusCode, m)
	}
	return id
}

func TestMetadata(t *testing.T) {
	e := newEnv(t, nil)
	prm := e.get("/.well-known/oauth-protected-resource/oauth/mcp").json(t)
	if prm["resource"] != resource || fmt.Sprint(prm["authorization_servers"]) != "[https://node.example.com]" {
		t.Errorf("protected resource metadata = %v", prm)
	}
	if root := e.get("/.well-known/oauth-protected-resource").json(t); root["resource"] != resource {
		t.Errorf("protected resource metadata at the root = %v", root)
	}
	as := e.get("/.well-known/oauth-authorization-server").json(t)
	for k, want := range map[string]string{
		"issuer":                                "https://node.example.com",
		"authorization_endpoint":                "https://node.example.com/oauth/authorize",
		"token_endpoint":                        "https://node.example.com/oauth/token",
		"registration_endpoint":                 "https://node.example.com/oauth/register",
		"revocation_endpoint":                   "https://node.example.com/oauth/revoke",
		"client_id_metadata_document_supported": "true",
		"code_challenge_methods_supported":      "[S256]",
		"token_endpoint_auth_methods_supported": "[none]",
		"scopes_supported":                      "[structured_read free_form_read raw_read compose send]",
	} {
		if got := fmt.Sprint(as[k]); got != want {
			t.Errorf("authorization server metadata %s = %s, want %s", k, got, want)
		}
	}
	if got := oauth.WWWAuthenticate(nodeHost, "invalid_token"); got != `Bearer resource_metadata="https://node.example.com/.well-known/oauth-protected-resource/oauth/mcp", error="invalid_token"` {
		t.Errorf("WWWAuthenticate = %s", got)
	}
}

// TestCIMDFlow runs a metadata-document client through consent, code,
// tokens, refresh and revocation.
func TestCIMDFlow(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	p := newPKCE("a")
	code := e.approveAndCode(authParams(cimdID, redirect, p))
	access, refresh := e.tokens(e.exchange(code, cimdID, redirect, p.verifier))
	pr, err := e.srv.Verify(ctx, access, nodeHost)
	if err != nil || pr.Domain != cimdHost || pr.ClientID != cimdID || !strings.HasPrefix(pr.KeyFP, "oauth:") ||
		fmt.Sprint(pr.Tiers) != "[structured_read compose]" {
		t.Fatalf("Verify = %+v, %v", pr, err)
	}
	// The consent is a grant of both tiers to the client's host, pinned to
	// this consent.
	for _, tier := range []approvals.Tier{approvals.StructuredRead, approvals.Compose} {
		d, err := e.ap.Request(ctx, approvals.Call{Domain: pr.Domain, KeyFP: pr.KeyFP, Tool: "t", Tier: tier})
		if err != nil || d.Outcome != approvals.Allowed {
			t.Errorf("call of %s = %v, %v", tier, d.Outcome, err)
		}
	}
	// Refresh rotates.
	r := e.post("/oauth/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {cimdID}})
	access2, refresh2 := e.tokens(r)
	if _, err := e.srv.Verify(ctx, access2, nodeHost); err != nil {
		t.Fatalf("Verify(refreshed) = %v", err)
	}
	// Revocation by the client ends the family.
	if r := e.post("/oauth/revoke", url.Values{"token": {refresh2}, "client_id": {cimdID}}); r.status != 200 {
		t.Fatalf("revoke = %d %s", r.status, r.body)
	}
	for _, tok := range []string{access, access2} {
		if _, err := e.srv.Verify(ctx, tok, nodeHost); err != oauth.ErrInvalidToken {
			t.Errorf("Verify after revoke = %v, want ErrInvalidToken", err)
		}
	}
}

// TestRevokeGrantEndsTokens: revoking the client on the node (phone, tray,
// mailnode approvals revoke) ends its tokens at once.
func TestRevokeGrantEndsTokens(t *testing.T) {
	for _, how := range []string{"revoke", "block"} {
		t.Run(how, func(t *testing.T) {
			e := newEnv(t, nil)
			ctx := context.Background()
			p := newPKCE("b")
			access, refresh := e.tokens(e.exchange(e.approveAndCode(authParams(cimdID, redirect, p)), cimdID, redirect, p.verifier))
			var err error
			if how == "revoke" {
				_, err = e.ap.Revoke(ctx, cimdHost, "")
			} else {
				err = e.ap.Block(ctx, cimdHost)
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.srv.Verify(ctx, access, nodeHost); err != oauth.ErrInvalidToken {
				t.Errorf("Verify after %s = %v, want ErrInvalidToken", how, err)
			}
			r := e.post("/oauth/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {cimdID}})
			if r.status != 400 || r.json(t)["error"] != "invalid_grant" {
				t.Errorf("refresh after %s = %d %s", how, r.status, r.body)
			}
			if how == "block" {
				// A blocked client cannot ask again.
				r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("c")).Encode())
				if r.status != http.StatusForbidden || r.header.Get("Location") != "" || !strings.Contains(r.body, "blocked") {
					t.Errorf("authorize while blocked = %d %q, want the node's page", r.status, r.header.Get("Location"))
				}
			}
		})
	}
}

// TestTokenRefusals: each negative case of issue 43 section 3 at the
// token endpoint, and the codes and tokens it must not accept.
func TestTokenRefusals(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	dcr := e.register("https://tool.example.net/cb")
	p := newPKCE("d")
	tests := []struct {
		name                         string
		clientID, redirect, verifier string
		wantErr                      string
	}{
		{"missing verifier", cimdID, redirect, "", "invalid_grant"},
		{"wrong verifier", cimdID, redirect, newPKCE("z").verifier, "invalid_grant"},
		{"verifier as plain challenge", cimdID, redirect, p.challenge, "invalid_grant"},
		{"code for another client", dcr, redirect, p.verifier, "invalid_grant"},
		{"another redirect URI", cimdID, redirect + "/", p.verifier, "invalid_grant"},
	}
	for _, tt := range tests {
		code := e.approveAndCode(authParams(cimdID, redirect, p))
		r := e.exchange(code, tt.clientID, tt.redirect, tt.verifier)
		if r.status != 400 || r.json(t)["error"] != tt.wantErr {
			t.Errorf("%s: token = %d %s, want %s", tt.name, r.status, r.body, tt.wantErr)
		}
		// The failed attempt spent the code: the right one is refused too.
		if r := e.exchange(code, cimdID, redirect, p.verifier); r.status != 400 {
			t.Errorf("%s: the right exchange after a failed one = %d %s", tt.name, r.status, r.body)
		}
	}

	func() { // code replay revokes its tokens
		code := e.approveAndCode(authParams(cimdID, redirect, p))
		access, _ := e.tokens(e.exchange(code, cimdID, redirect, p.verifier))
		if r := e.exchange(code, cimdID, redirect, p.verifier); r.status != 400 || r.json(t)["error"] != "invalid_grant" {
			t.Fatalf("replayed code = %d %s", r.status, r.body)
		}
		if _, err := e.srv.Verify(ctx, access, nodeHost); err != oauth.ErrInvalidToken {
			t.Errorf("Verify after code replay = %v", err)
		}
	}()
	func() { // expired code
		code := e.approveAndCode(authParams(cimdID, redirect, p))
		e.clock.add(61 * time.Second)
		if r := e.exchange(code, cimdID, redirect, p.verifier); r.status != 400 {
			t.Errorf("expired code = %d %s", r.status, r.body)
		}
	}()
	func() { // token for another resource
		code := e.approveAndCode(authParams(cimdID, redirect, p))
		r := e.post("/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {cimdID},
			"redirect_uri": {redirect}, "code_verifier": {p.verifier}, "resource": {"https://other.example/mcp"}})
		if r.status != 400 || r.json(t)["error"] != "invalid_target" {
			t.Errorf("token for another resource = %d %s", r.status, r.body)
		}
		// A token issued here is refused at another of the node's names.
		access, _ := e.tokens(e.exchange(e.approveAndCode(authParams(cimdID, redirect, p)), cimdID, redirect, p.verifier))
		if _, err := e.srv.Verify(ctx, access, "other.relay.example"); err != oauth.ErrInvalidToken {
			t.Errorf("Verify at another resource = %v", err)
		}
	}()
	func() { // expired access token
		access, _ := e.tokens(e.exchange(e.approveAndCode(authParams(cimdID, redirect, p)), cimdID, redirect, p.verifier))
		e.clock.add(time.Hour)
		if _, err := e.srv.Verify(ctx, access, nodeHost); err != oauth.ErrInvalidToken {
			t.Errorf("Verify of an expired token = %v", err)
		}
	}()
	func() { // spent refresh token revokes the family
		_, refresh := e.tokens(e.exchange(e.approveAndCode(authParams(cimdID, redirect, p)), cimdID, redirect, p.verifier))
		form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {cimdID}}
		access2, refresh2 := e.tokens(e.post("/oauth/token", form))
		if r := e.post("/oauth/token", form); r.status != 400 || r.json(t)["error"] != "invalid_grant" {
			t.Fatalf("spent refresh token = %d %s", r.status, r.body)
		}
		if _, err := e.srv.Verify(ctx, access2, nodeHost); err != oauth.ErrInvalidToken {
			t.Errorf("Verify of the family's access token = %v", err)
		}
		form.Set("refresh_token", refresh2)
		if r := e.post("/oauth/token", form); r.status != 400 {
			t.Errorf("the family's newer refresh token = %d %s", r.status, r.body)
		}
	}()
	func() { // refresh token of another client
		_, refresh := e.tokens(e.exchange(e.approveAndCode(authParams(cimdID, redirect, p)), cimdID, redirect, p.verifier))
		r := e.post("/oauth/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {dcr}})
		if r.status != 400 || r.json(t)["error"] != "invalid_grant" {
			t.Errorf("refresh by another client = %d %s", r.status, r.body)
		}
	}()
	func() { // unknown tokens
		for _, tok := range []string{"", "mna_x", "Bearer x", strings.Repeat("a", 200)} {
			if _, err := e.srv.Verify(ctx, tok, nodeHost); err != oauth.ErrInvalidToken {
				t.Errorf("Verify(%q) = %v", tok, err)
			}
		}
	}()
}

// TestAuthorizeRefusals: requests refused before any prompt, each with a
// page of the node's and never a redirect, even once the client and its
// redirect URI are checked (RFC 9700 section 4.11.2).
func TestAuthorizeRefusals(t *testing.T) {
	e := newEnv(t, nil)
	p := newPKCE("e")
	dcr := e.register("https://tool.example.net/cb")
	private := newEnv(t, func(c *oauth.Config) {
		c.Docs = agentkeys.New(agentkeys.Config{LookupAddrs: func(context.Context, string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr("10.1.2.3")}, nil
		}}, nil)
	})
	tests := []struct {
		name    string
		env     *env
		edit    func(url.Values)
		wantErr string // the error the node's page names
	}{
		{"unknown registered client", e, func(v url.Values) { v.Set("client_id", "dcr-nosuchclient") }, ""},
		{"CIMD on a private address", private, nil, ""},
		{"CIMD behind a redirect", e, func(v url.Values) { v.Set("client_id", "https://assistant.example.com/oauth/moved.json") }, ""},
		{"CIMD not found", e, func(v url.Values) { v.Set("client_id", "https://assistant.example.com/oauth/none.json") }, ""},
		{"CIMD over http", e, func(v url.Values) { v.Set("client_id", "http://assistant.example.com/oauth/client.json") }, ""},
		{"redirect URI not registered", e, func(v url.Values) { v.Set("redirect_uri", "https://evil.example/cb") }, ""},
		{"redirect URI prefix", e, func(v url.Values) { v.Set("redirect_uri", redirect+"/x") }, ""},
		{"redirect URI with query", e, func(v url.Values) { v.Set("redirect_uri", redirect+"?a=b") }, ""},
		{"registered client, other URI", e, func(v url.Values) { v.Set("client_id", dcr) }, ""},
		{"plain PKCE", e, func(v url.Values) { v.Set("code_challenge_method", "plain") }, "invalid_request"},
		{"no PKCE", e, func(v url.Values) { v.Del("code_challenge"); v.Del("code_challenge_method") }, "invalid_request"},
		{"token response type", e, func(v url.Values) { v.Set("response_type", "token") }, "unsupported_response_type"},
		{"another resource", e, func(v url.Values) { v.Set("resource", "https://other.example/mcp") }, "invalid_target"},
		{"no resource", e, func(v url.Values) { v.Del("resource") }, "invalid_target"},
		{"unknown scope", e, func(v url.Values) { v.Set("scope", "structured_read admin") }, "invalid_scope"},
		{"per-call scopes only", e, func(v url.Values) { v.Set("scope", "send") }, "invalid_scope"},
		// Anyone can register a redirect URI: an invalid request naming
		// it must not make the node's address an open redirect.
		{"registered client's own URI, invalid request", e, func(v url.Values) {
			v.Set("client_id", dcr)
			v.Set("redirect_uri", "https://tool.example.net/cb")
			v.Set("response_type", "token")
		}, "unsupported_response_type"},
	}
	for _, tt := range tests {
		v := authParams(cimdID, redirect, p)
		if tt.edit != nil {
			tt.edit(v)
		}
		pending, _ := tt.env.ap.Pending(context.Background())
		tt.env.clock.add(10 * time.Second) // the client's authorization rate
		r := tt.env.get("/oauth/authorize?" + v.Encode())
		if r.status != 400 || r.header.Get("Location") != "" || !strings.Contains(r.header.Get("Content-Type"), "text/html") ||
			!strings.Contains(r.body, tt.wantErr) {
			t.Errorf("%s: authorize = %d %q, want the node's page naming %q", tt.name, r.status, r.header.Get("Location"), tt.wantErr)
		}
		if after, _ := tt.env.ap.Pending(context.Background()); len(after) != len(pending) {
			t.Errorf("%s: a prompt was opened", tt.name)
		}
	}
}

// TestCIMDClientIDMismatch: a document whose client_id is not its URL is
// refused, as is one of a confidential client.
func TestCIMDClientIDMismatch(t *testing.T) {
	for _, doc := range []string{
		fmt.Sprintf(`{"client_id":"https://other.example/client.json","redirect_uris":[%q]}`, redirect),
		fmt.Sprintf(`{"client_id":%q,"redirect_uris":[%q]}`, cimdID+"?x", redirect),
		fmt.Sprintf(`{"client_id":%q,"redirect_uris":[%q],"token_endpoint_auth_method":"private_key_jwt"}`, cimdID, redirect),
		fmt.Sprintf(`{"client_id":%q,"redirect_uris":["javascript:alert(1)"]}`, cimdID),
		`not json`,
	} {
		e := newEnv(t, nil)
		e.doc.Store(&doc)
		r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("f")).Encode())
		if r.status != 400 || r.header.Get("Location") != "" {
			t.Errorf("document %s: authorize = %d %q, want refused", doc, r.status, r.header.Get("Location"))
		}
		if p, _ := e.ap.Pending(context.Background()); len(p) != 0 {
			t.Errorf("document %s: a prompt was opened", doc)
		}
	}
}

// TestDCRFlow runs a registered client through to its tokens, its
// identity the registered id (never a domain).
func TestDCRFlow(t *testing.T) {
	e := newEnv(t, nil)
	const cb = "http://127.0.0.1:33333/callback"
	id := e.register(cb)
	p := newPKCE("g")
	v := authParams(id, cb, p)
	r := e.get("/oauth/authorize?" + v.Encode())
	dom := between(r.body, `<span class="who">registered client `, "</span>")
	if !approvals.IsRegisteredClient(dom) || len(dom) != len(id[:28]) {
		t.Errorf("consent page does not mark the registered client by its short identity: %s", r.body)
	}
	access, _ := e.tokens(e.exchange(e.approveAndCode(v), id, cb, p.verifier))
	pr, err := e.srv.Verify(context.Background(), access, nodeHost)
	if err != nil || pr.Domain != dom || pr.ClientID != id {
		t.Fatalf("Verify = %+v, %v", pr, err)
	}
	for _, body := range []string{
		`{"redirect_uris":[]}`,
		`{"redirect_uris":["http://evil.example/cb"]}`,
		`{"redirect_uris":["https://a.example/cb#frag"]}`,
		`{"redirect_uris":["https://a.example/cb"],"token_endpoint_auth_method":"client_secret_basic"}`,
		`{"redirect_uris":["https://a.example/cb"],"grant_types":["client_credentials"]}`,
		`[]`,
	} {
		resp, err := e.http.Post(e.node.URL+"/oauth/register", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("register %s = %d, want 400", body, resp.StatusCode)
		}
	}
}

// TestDenyAndExpiry: the person's refusal and a lapsed request go back to
// the client as access_denied, but only to a redirect URI on the host of
// a metadata document's URL. A registered client's, or a document's on
// another host, is whatever its author wrote (RFC 9700 section 4.11.2: a
// consent-phishing client must not have the node's address send the
// person who refused it to its page): those get the node's own page.
func TestDenyAndExpiry(t *testing.T) {
	e := newEnv(t, nil)
	const elsewhere = "https://phish.example/cb"
	registered := e.register(elsewhere)
	for _, tt := range []struct {
		name, clientID, redirect string
		back                     bool
	}{
		{"document, its own host", cimdID, redirect, true},
		{"registered client", registered, elsewhere, false},
		{"document, another host", cimdID, elsewhere, false},
	} {
		if tt.clientID == cimdID && tt.redirect != redirect {
			doc := fmt.Sprintf(`{"client_id":%q,"client_name":"Example Assistant","redirect_uris":[%q,%q],"token_endpoint_auth_method":"none"}`, cimdID, redirect, elsewhere)
			e.doc.Store(&doc)
			e.clock.add(2 * time.Hour) // past the cached document
		}
		for _, deny := range []bool{true, false} {
			e.clock.add(time.Minute)
			code, poll := e.consent(authParams(tt.clientID, tt.redirect, newPKCE("h")))
			if deny {
				if _, err := e.ap.Decide(context.Background(), code, false); err != nil {
					t.Fatal(err)
				}
			} else {
				e.clock.add(11 * time.Minute)
			}
			r := e.get(poll)
			loc, _ := url.Parse(r.header.Get("Location"))
			switch {
			case tt.back && (r.status != http.StatusFound || loc.Query().Get("error") != "access_denied" || loc.Query().Get("code") != ""):
				t.Errorf("%s, deny %v: poll = %d %q, want access_denied", tt.name, deny, r.status, r.header.Get("Location"))
			case !tt.back && (r.status != http.StatusForbidden || r.header.Get("Location") != "" || !strings.Contains(strings.ToLower(r.body), "nothing was shared")):
				t.Errorf("%s, deny %v: poll = %d %q, want the node's page", tt.name, deny, r.status, r.header.Get("Location"))
			}
			if r := e.get(poll); r.status != 400 {
				t.Errorf("%s, deny %v: poll again = %d", tt.name, deny, r.status)
			}
		}
	}
}

// TestAuthorizeFlood: one client asking in a loop is rate-limited, and the
// phone sees a few prompts at most.
func TestAuthorizeFlood(t *testing.T) {
	e := newEnv(t, nil)
	limited := 0
	for i := range 50 {
		r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE(fmt.Sprint(i%10))).Encode())
		if r.status == http.StatusTooManyRequests {
			limited++
		}
	}
	p, _ := e.ap.Pending(context.Background())
	if len(p) > 5 || limited < 45 {
		t.Errorf("after 50 authorization requests: %d prompts open, %d limited; want at most 5, at least 45", len(p), limited)
	}
	if fetches := e.hits.Load(); fetches != 1 {
		t.Errorf("the metadata document was fetched %d times, want once (cached)", fetches)
	}
	// Requests bound to fail spend nothing of the client's allowance
	// (outside attack 43c, finding 1: a stranger sending one such request
	// every 10 s kept the person's own attempts refused, with no prompt
	// to deny): ids on its host that do not resolve, each fetched once
	// while the site's fetches last (10, then one per 6 s: outside attack
	// 43d, finding 3), and another redirect URI; the client's own kept
	// document needs no fetch.
	e.clock.add(time.Minute)
	before := e.hits.Load()
	for i := range 20 {
		e.get("/oauth/authorize?" + authParams(fmt.Sprintf("https://assistant.example.com/none-%d.json", i), redirect, newPKCE("x")).Encode())
		e.get("/oauth/authorize?" + authParams(fmt.Sprintf("https://assistant.example.com/none-%d.json", i), redirect, newPKCE("x")).Encode())
		e.get("/oauth/authorize?" + authParams(cimdID, "https://evil.example/cb", newPKCE("x")).Encode())
	}
	if fetches := e.hits.Load() - before; fetches != 10 {
		t.Errorf("20 unresolvable client ids asked twice made %d fetches, want 10 (the site's fetches; a failure is kept a minute)", fetches)
	}
	for _, a := range p {
		if _, err := e.ap.Decide(context.Background(), a.MatchCode, false); err != nil {
			t.Fatal(err)
		}
	}
	if r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("person")).Encode()); r.status != http.StatusOK {
		t.Errorf("the client's own request after 60 failing ones = %d, want the consent page", r.status)
	}
}

// TestLogo: the consent page shows a document client's logo inline, only
// a raster image from the client id's own host.
func TestLogo(t *testing.T) {
	for _, tt := range []struct {
		logo string
		want bool
	}{
		{"https://assistant.example.com/logo.png", true},
		{"https://assistant.example.com/logo.svg", false},
		{"https://other.example.com/logo.png", false},
		{"http://assistant.example.com/logo.png", false},
		{"javascript:alert(1)", false},
	} {
		e := newEnv(t, nil)
		doc := fmt.Sprintf(`{"client_id":%q,"client_name":"Example Assistant","redirect_uris":[%q],"logo_uri":%q}`, cimdID, redirect, tt.logo)
		e.doc.Store(&doc)
		r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("l")).Encode())
		if got := strings.Contains(r.body, `<img class="logo" src="data:image/png;base64,`); got != tt.want || r.status != 200 {
			t.Errorf("logo %s: page %d shows it %v, want %v", tt.logo, r.status, got, tt.want)
		}
		if strings.Contains(r.body, "<svg") || strings.Contains(r.body, "javascript:") {
			t.Errorf("logo %s: the page carries it: %s", tt.logo, r.body)
		}
	}
}

// TestUnusedRegistrationsGo: a registration that led to nothing is gone a
// day later; one whose client holds tokens stays.
func TestUnusedRegistrationsGo(t *testing.T) {
	e := newEnv(t, nil)
	const cb = "http://127.0.0.1:4000/cb"
	unused, used := e.register(cb), e.register(cb)
	p := newPKCE("u")
	e.tokens(e.exchange(e.approveAndCode(authParams(used, cb, p)), used, cb, p.verifier))
	e.clock.add(25 * time.Hour)
	e.register(cb)
	for id, want := range map[string]int{unused: 400, used: 200} {
		e.clock.add(10 * time.Second)
		if r := e.get("/oauth/authorize?" + authParams(id, cb, p).Encode()); r.status != want {
			t.Errorf("authorize of %s a day on = %d, want %d", id, r.status, want)
		}
	}
}

// TestRegisteredNameOnOneLine: a registered client's name cannot fake
// lines of the phone's prompt (U+2028, U+2029), and a registered client
// is named by its id first, its name quoted after, flagged when it mixes
// scripts as a look-alike of another name does.
func TestRegisteredNameOnOneLine(t *testing.T) {
	e := newEnv(t, nil)
	const cb = "https://claude.ai/api/mcp/auth_callback"
	name := "Claude\u2028Client id: https://claude.ai/oauth/mcp-client-metadata\u2029\u2029It asks to use, until you revoke it:\u2028- structured_read: read only"
	id := e.registerNamed(name, cb)
	v := authParams(id, cb, newPKCE("n"))
	v.Set("scope", "structured_read compose send raw_read")
	r := e.get("/oauth/authorize?" + v.Encode())
	p, _ := e.ap.Pending(context.Background())
	if r.status != 200 || len(p) != 1 {
		t.Fatalf("authorize = %d with %d prompts, want 200 and 1", r.status, len(p))
	}
	dom := p[0].Domain
	if !approvals.IsRegisteredClient(dom) || strings.ContainsAny(p[0].Details, "\u2028\u2029\u0085") || !strings.HasPrefix(p[0].Details, "OAuth client: registered client "+dom+"\nCalls itself: \u201cClaude Client id:") {
		t.Errorf("phone details = %q, want the registered id first and the name quoted on one line", p[0].Details)
	}
	if who := between(r.body, `<span class="who">`, "</span>"); who != "registered client "+dom || strings.ContainsAny(r.body, "\u2028\u2029") {
		t.Errorf("page names %q first, want %q, and no line separators", who, "registered client "+dom)
	}

	id2 := e.registerNamed("Сlаudе (claude.ai)", cb) // Cyrillic С, а, е
	e.clock.add(time.Minute)
	r = e.get("/oauth/authorize?" + authParams(id2, cb, newPKCE("h")).Encode())
	if !strings.Contains(r.body, "mixes Cyrillic and Latin letters") {
		t.Errorf("look-alike name's page = %q, want it flagged", between(r.body, `<span class="who">`, "</p>"))
	}
	p, _ = e.ap.Pending(context.Background())
	flagged := false
	for _, a := range p {
		flagged = flagged || a.Domain != dom && strings.Contains(a.Details, "mixes Cyrillic and Latin letters")
	}
	if !flagged {
		t.Errorf("look-alike name's prompt not flagged on the phone: %+v", p)
	}
}

// TestDocumentNameAfterIdentity (outside attack 43c, finding 4): a
// document client's page names its host first and in bold, its name
// quoted after, so "Claude (claude.ai) - official connector" from
// another host does not read as the identity, and is flagged for naming
// another site; a name naming its own host is not.
func TestDocumentNameAfterIdentity(t *testing.T) {
	e := newEnv(t, nil)
	for i, tt := range []struct {
		name, note string
	}{
		{"Claude (claude.ai) - official connector by Anthropic", "its name names claude.ai, which is not where it comes from"},
		{"Assistant (assistant.example.com)", ""},
		{"Example Assistant", ""},
	} {
		doc := fmt.Sprintf(`{"client_id":%q,"client_name":%q,"redirect_uris":[%q],"token_endpoint_auth_method":"none"}`, cimdID, tt.name, redirect)
		e.doc.Store(&doc)
		e.clock.add(2 * time.Hour) // past the cached document and the allowance
		r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE(fmt.Sprint(i))).Encode())
		line := between(r.body, `<p><span class="who">`, "</p>")
		if !strings.HasPrefix(line, cimdHost+"</span>, which calls itself <q>") {
			t.Errorf("%q: page line %q, want the host first and the name quoted after", tt.name, line)
		}
		if got := strings.Contains(r.body, "which is not where it comes from"); got != (tt.note != "") || tt.note != "" && !strings.Contains(r.body, tt.note) {
			t.Errorf("%q: page line %q, want note %q", tt.name, line, tt.note)
		}
		p, _ := e.ap.Pending(context.Background())
		for _, a := range p {
			if strings.Contains(a.Details, tt.name) && tt.note != "" && !strings.Contains(a.Details, tt.note) {
				t.Errorf("%q: phone details %q, want note %q", tt.name, a.Details, tt.note)
			}
		}
	}
}

func (e *env) registerNamed(name string, redirects ...string) string {
	e.t.Helper()
	b, _ := json.Marshal(map[string]any{"client_name": name, "redirect_uris": redirects})
	resp, err := e.http.Post(e.node.URL+"/oauth/register", "application/json", strings.NewReader(string(b)))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	id, _ := m["client_id"].(string)
	return id
}

// notFound answers every client id but the test's own as a host that does
// not resolve, as the many names of an attacker's failing documents do.
type notFound struct{ oauth.Documents }

func (d notFound) Document(ctx context.Context, u string) ([]byte, error) {
	if strings.HasPrefix(u, "https://"+cimdHost+"/") {
		return d.Documents.Document(ctx, u)
	}
	return nil, fmt.Errorf("lookup %s: no such host", u)
}

// TestClientDocumentCacheKeepsValid: ids refused without a fetch are not
// remembered, and failing documents fill the cache without pushing out
// a client's valid document, which is used again without a fetch.
func TestClientDocumentCacheKeepsValid(t *testing.T) {
	e := newEnv(t, func(c *oauth.Config) { c.Docs = notFound{c.Docs} })
	e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("a")).Encode())
	h0 := e.hits.Load()
	for i := range 1100 {
		e.get(fmt.Sprintf("/oauth/authorize?client_id=https://h%d.example/", i))
		e.get("/oauth/authorize?" + authParams(fmt.Sprintf("https://f%d.example/c.json", i), redirect, newPKCE("f")).Encode())
	}
	e.clock.add(10 * time.Second)
	if r := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("b")).Encode()); r.status != 200 || e.hits.Load() != h0 {
		t.Errorf("authorize after 2200 other ids = %d with %d more fetches, want 200 and none", r.status, e.hits.Load()-h0)
	}
}

// TestClientDocumentFetchBusy: hosts that stall every place for client
// documents make the person's new client's authorize say the node is
// busy (503, not a bad document), leave agents' key fetches alone, and are
// not remembered: the retry once they are idle works.
func TestClientDocumentFetchBusy(t *testing.T) {
	e := newEnv(t, nil)
	stall := make(chan struct{})
	var accepted atomic.Int32
	tl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	go func() {
		for {
			c, err := tl.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			go func() { <-stall; c.Close() }() // never answers the TLS handshake
		}
	}()
	good := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, *e.doc.Load())
	}))
	defer good.Close()
	dev := map[string]string{cimdHost: good.Listener.Addr().String()}
	for i := range 8 {
		dev[fmt.Sprintf("t%d.tarpit.example", i)] = tl.Addr().String()
	}
	docs := agentkeys.New(agentkeys.Config{DevAddrs: dev, DevRootCAs: []*x509.Certificate{good.Certificate()},
		MaxDocumentFetches: 4, Timeout: 4 * time.Second}, nil)
	srv, err := oauth.New(oauth.Config{Docs: docs, Approvals: e.ap, File: oauthFile(t), Now: e.clock.now,
		Tiers: []approvals.Tier{approvals.StructuredRead, approvals.Compose}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { srv.Serve(w, r, nodeHost) }))
	defer node.Close()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp, err := http.Get(node.URL + "/oauth/authorize?" + authParams(fmt.Sprintf("https://t%d.tarpit.example/c.json", i), redirect, newPKCE("t")).Encode()); err == nil {
				resp.Body.Close()
			}
		}()
	}
	for accepted.Load() < 4 {
		time.Sleep(10 * time.Millisecond)
	}
	v := authParams(cimdID, redirect, newPKCE("p"))
	v.Set("scope", "structured_read")
	get := func() (int, string) {
		resp, err := http.Get(node.URL + "/oauth/authorize?" + v.Encode())
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, between(string(b), "<p>", "</p>")
	}
	if status, msg := get(); status != http.StatusServiceUnavailable || !strings.Contains(msg, "busy") {
		t.Errorf("authorize while the places stall = %d %q, want 503 saying the node is busy", status, msg)
	}
	if _, err := docs.PublicKey(context.Background(), cimdHost, "k1"); errors.Is(err, agentkeys.ErrBusy) {
		t.Errorf("agent key fetch while client documents stall = %v, want a fetch", err)
	}
	close(stall)
	wg.Wait()
	if status, msg := get(); status != http.StatusOK {
		t.Errorf("retry once idle (no time passed) = %d %q, want 200", status, msg)
	}
}

func oauthFile(t *testing.T) oauth.File {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "o.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ot, err := st.Attach(context.Background(), "oauth", oauth.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	return ot
}

// TestConsentBoundToBrowser: the consent page's address handed to another
// browser (a stranger starts an authorization naming a public client's
// id and sends the person the page) shows neither the match code nor,
// once approved, hands that browser the code; the browser that started
// it still gets its code.
func TestConsentBoundToBrowser(t *testing.T) {
	e := newEnv(t, nil)
	starter := newPKCE("starter")
	code, poll := e.consent(authParams(cimdID, redirect, starter))
	other := e.browser()
	if r := e.getIn(other, poll); r.status != http.StatusForbidden || strings.Contains(r.body, code) || matchCodeRE.MatchString(r.body) {
		t.Fatalf("another browser's reload while pending = %d, shows the match code: %v", r.status, strings.Contains(r.body, code))
	}
	// Nor does the approval page, which any browser may open, show a
	// consent's own prompt (an outside re-attack: a second way round the
	// binding, given the approval id).
	pending, err := e.ap.Pending(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range pending {
		if a.MatchCode != code {
			continue
		}
		if r := e.getIn(other, oauth.ApprovalPath+"?"+url.Values{"id": {a.ID}}.Encode()); r.status != http.StatusNotFound || strings.Contains(r.body, code) {
			t.Errorf("the approval page of the consent's prompt = %d, shows the match code: %v", r.status, strings.Contains(r.body, code))
		}
	}
	if _, err := e.ap.Decide(context.Background(), code, true); err != nil {
		t.Fatal(err)
	}
	for _, b := range []*http.Client{other, e.node.Client()} { // a browser with another cookie, one with none
		if r := e.getIn(b, poll); r.status != http.StatusForbidden || r.header.Get("Location") != "" {
			t.Errorf("another browser's reload after approval = %d %q, want refused", r.status, r.header.Get("Location"))
		}
	}
	r := e.get(poll)
	loc, _ := url.Parse(r.header.Get("Location"))
	if r.status != http.StatusFound || loc.Query().Get("code") == "" {
		t.Fatalf("starting browser's reload after approval = %d %q", r.status, r.header.Get("Location"))
	}
	e.tokens(e.exchange(loc.Query().Get("code"), cimdID, redirect, starter.verifier))

	// The cookie: only the node's host over https, not for scripts.
	u, _ := url.Parse(e.node.URL)
	var found bool
	for _, c := range e.http.Jar.Cookies(u) {
		found = found || c.Name == "__Host-mailnode-oauth"
	}
	set := e.get("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("again")).Encode()).header.Get("Set-Cookie")
	if !found || !strings.HasPrefix(set, "__Host-mailnode-oauth=") {
		t.Fatalf("browser cookie kept %v, set %q", found, set)
	}
	for _, attr := range []string{"Path=/", "HttpOnly", "Secure", "SameSite=Lax"} {
		if !strings.Contains(set, attr) {
			t.Errorf("Set-Cookie %q lacks %s", set, attr)
		}
	}
	if strings.Contains(strings.ToLower(set), "domain=") {
		t.Errorf("Set-Cookie %q names a domain", set)
	}

	// A value the node did not make binds nothing: a browser presenting
	// one it chose gets a value of the node's, and its chosen value
	// does not reach a request started with it.
	chosen := strings.Repeat("A", 43)
	e.clock.add(10 * time.Second)
	req, _ := http.NewRequest(http.MethodGet, e.node.URL+"/oauth/authorize?"+authParams(cimdID, redirect, newPKCE("chosen")).Encode(), nil)
	req.AddCookie(&http.Cookie{Name: "__Host-mailnode-oauth", Value: chosen})
	resp, err := e.node.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	set = resp.Header.Get("Set-Cookie")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(set, "__Host-mailnode-oauth=") || strings.Contains(set, chosen) {
		t.Errorf("a chosen cookie value: %d, Set-Cookie %q, want a value of the node's", resp.StatusCode, set)
	}
}

// TestAuthorizeHeadOpensNothing: a HEAD (a link preview, a crawler) of an
// authorization opens no prompt, and of a page's reload spends no code.
func TestAuthorizeHeadOpensNothing(t *testing.T) {
	e := newEnv(t, nil)
	head := func(path string) int {
		req, _ := http.NewRequest(http.MethodHead, e.node.URL+path, nil)
		resp, err := e.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := head("/oauth/authorize?" + authParams(cimdID, redirect, newPKCE("h")).Encode()); s != http.StatusMethodNotAllowed {
		t.Errorf("HEAD authorize = %d", s)
	}
	if p, _ := e.ap.Pending(context.Background()); len(p) != 0 {
		t.Fatalf("HEAD opened %d prompts", len(p))
	}
	e.clock.add(10 * time.Second)
	code, poll := e.consent(authParams(cimdID, redirect, newPKCE("g")))
	if _, err := e.ap.Decide(context.Background(), code, true); err != nil {
		t.Fatal(err)
	}
	if s := head(poll); s != http.StatusMethodNotAllowed {
		t.Errorf("HEAD of the page's reload = %d", s)
	}
	if r := e.get(poll); r.status != http.StatusFound || !strings.Contains(r.header.Get("Location"), "code=") {
		t.Errorf("reload after a HEAD = %d %q, want the code", r.status, r.header.Get("Location"))
	}
}
