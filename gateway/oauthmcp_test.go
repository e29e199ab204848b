package gateway_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"mailnode/approvals"
	"mailnode/gateway/httpsig/httpsigtest"
)

// The OAuth front door as a hosted client meets it through the gateway:
// discovery from the 401, a client metadata document or a registration,
// the consent page, the person's approval, the token, then tools on
// /oauth/mcp decided as a signed agent's are.

const (
	cimdDomain = "assistant.example.com"
	cimdURL    = "https://assistant.example.com/mcp/client.json"
	cimdBack   = "https://assistant.example.com/callback"
)

func (n *testNode) get(path string) response {
	n.t.Helper()
	resp, err := n.client.Get("https://" + n.host + path)
	if err != nil {
		n.t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}
}

func (n *testNode) form(path string, v url.Values) map[string]any {
	n.t.Helper()
	resp, err := n.client.PostForm("https://"+n.host+path, v)
	if err != nil {
		n.t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	return m
}

var (
	pageCode = regexp.MustCompile(`class="code">([A-Z0-9]{3}-[A-Z0-9]{3})<`)
	pagePoll = regexp.MustCompile(`url=(/oauth/authorize\?request=[a-z0-9-]+)"`)
)

// connect runs the authorization of clientID with scope, approving it as
// `mailnode approvals approve CODE` does, and returns the access token.
func (n *testNode) connect(clientID, redirectURI, scope string) (access, refresh string) {
	n.t.Helper()
	verifier := strings.Repeat("v3rifier-", 6)
	sum := sha256.Sum256([]byte(verifier))
	v := url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {redirectURI},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"resource": {"https://" + n.host + "/oauth/mcp"}, "scope": {scope}, "state": {"s"}}
	page := n.get("/oauth/authorize?" + v.Encode())
	code, poll := pageCode.FindSubmatch(page.body), pagePoll.FindSubmatch(page.body)
	if page.status != 200 || code == nil || poll == nil {
		n.t.Fatalf("authorize = %d %s", page.status, page.body)
	}
	// The phone's prompt is the same request, with the same code.
	pending, _ := n.approvals.Pending(n.t.Context())
	if len(pending) != 1 || pending[0].MatchCode != string(code[1]) || pending[0].Domain == "" ||
		!strings.Contains(pending[0].Details, "OAuth client") {
		n.t.Fatalf("pending prompts = %+v", pending)
	}
	if _, err := n.approvals.Decide(n.t.Context(), string(code[1]), true); err != nil {
		n.t.Fatal(err)
	}
	back := n.get(string(poll[1]))
	loc, _ := url.Parse(back.header.Get("Location"))
	if back.status != http.StatusFound || loc.Query().Get("code") == "" {
		n.t.Fatalf("poll = %d %q", back.status, back.header.Get("Location"))
	}
	tok := n.form("/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")},
		"client_id": {clientID}, "redirect_uri": {redirectURI}, "code_verifier": {verifier}})
	a, _ := tok["access_token"].(string)
	r, _ := tok["refresh_token"].(string)
	if a == "" || r == "" {
		n.t.Fatalf("token = %v", tok)
	}
	return a, r
}

// bearerSession calls /oauth/mcp with an access token.
type bearerSession struct {
	t     *testing.T
	n     *testNode
	token string
}

func (s bearerSession) send(body []byte) response {
	s.t.Helper()
	return s.n.post("/oauth/mcp", body, http.Header{"Authorization": {"Bearer " + s.token}})
}

func (s bearerSession) tool(name string, args any) (map[string]any, bool) {
	s.t.Helper()
	r := s.send(callTool(7, name, args))
	var out rpcResponse
	if err := json.Unmarshal(r.body, &out); err != nil || r.status != 200 || out.Error != nil {
		s.t.Fatalf("tools/call %s = %d %s", name, r.status, r.body)
	}
	var res struct {
		IsError bool                    `json:"isError"`
		Content []struct{ Text string } `json:"content"`
	}
	json.Unmarshal(out.Result, &res)
	var p map[string]any
	if len(res.Content) != 1 || json.Unmarshal([]byte(res.Content[0].Text), &p) != nil {
		s.t.Fatalf("tools/call %s: result %s", name, out.Result)
	}
	return p, res.IsError
}

func TestOAuthFrontDoor(t *testing.T) {
	keys := newKeyDocsUnstarted(t)
	keys.docs[cimdDomain] = func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }
	keys.files[cimdDomain+"/mcp/client.json"] = fmt.Sprintf(`{"client_id":%q,"client_name":"Example Assistant","redirect_uris":[%q]}`, cimdURL, cimdBack)
	keys.StartTLS()
	n := startNode(t, t.TempDir(), "", keys)

	// Discovery starts from the 401.
	r := n.post("/oauth/mcp", rpc(1, "tools/list", nil), nil)
	wantChallenge := `Bearer resource_metadata="https://` + n.host + `/.well-known/oauth-protected-resource/oauth/mcp"`
	if r.status != 401 || r.header.Get("WWW-Authenticate") != wantChallenge {
		t.Fatalf("unauthenticated /oauth/mcp = %d %q", r.status, r.header.Get("WWW-Authenticate"))
	}
	var prm struct {
		Resource string   `json:"resource"`
		Servers  []string `json:"authorization_servers"`
	}
	json.Unmarshal(n.get("/.well-known/oauth-protected-resource/oauth/mcp").body, &prm)
	if prm.Resource != "https://"+n.host+"/oauth/mcp" || len(prm.Servers) != 1 {
		t.Fatalf("protected resource metadata = %+v", prm)
	}

	access, _ := n.connect(cimdURL, cimdBack, "structured_read raw_read")
	s := bearerSession{t, n, access}
	list := s.send(rpc(1, "tools/list", nil))
	if list.status != 200 || !strings.Contains(string(list.body), "get_upcoming_travel") {
		t.Fatalf("tools/list = %d %s", list.status, list.body)
	}
	if p, isErr := s.tool("get_upcoming_travel", map[string]any{}); isErr || p["trips"] == nil {
		t.Fatalf("a structured call under the consent = %v", p)
	}
	// A tier outside the token's scopes is refused before any decision
	// or mail.
	hits := n.source.hits.Load()
	if p, _ := s.tool("ask", map[string]any{"question": "when is my flight?"}); p["error"] != "insufficient_scope" {
		t.Fatalf("ask outside the scopes = %v", p)
	}
	if n.source.hits.Load() != hits {
		t.Fatal("a call outside the token's scopes read mail")
	}
	// raw_read asks the phone on every call, as on /mcp.
	p, _ := s.tool("get_excerpt", map[string]any{"query": "flight gate Lisbon"})
	if p["error"] != "approval_required" || p["match_code"] == nil || p["agent"] != cimdDomain {
		t.Fatalf("get_excerpt = %v", p)
	}

	// A bearer token is no signature on /mcp.
	if r := n.post("/mcp", rpc(1, "tools/list", nil), http.Header{"Authorization": {"Bearer " + access}}); r.status != 401 {
		t.Fatalf("bearer token on /mcp = %d %s", r.status, r.body)
	}
	// Nor is a signature a token on /oauth/mcp.
	agent := newAgentKey("agent.example.com")
	body := rpc(1, "tools/list", nil)
	h, _ := httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: agent.keyID(), Key: agent.priv})
	if r := n.post("/oauth/mcp", body, h); r.status != 401 {
		t.Fatalf("signed request on /oauth/mcp = %d %s", r.status, r.body)
	}

	// Revoking the client on the node ends its token at once.
	if _, err := n.approvals.Revoke(t.Context(), cimdDomain, ""); err != nil {
		t.Fatal(err)
	}
	hits = n.source.hits.Load()
	r = s.send(callTool(2, "get_upcoming_travel", map[string]any{}))
	if r.status != 401 || !strings.Contains(r.header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Fatalf("after revocation = %d %q %s", r.status, r.header.Get("WWW-Authenticate"), r.body)
	}
	if n.source.hits.Load() != hits {
		t.Fatal("a revoked token's call read mail")
	}
}

// TestOAuthRegisteredClient: a client without a metadata document
// registers (RFC 7591) and is known by its registered id.
func TestOAuthRegisteredClient(t *testing.T) {
	n := startNode(t, t.TempDir(), "", newKeyDocs(t))
	const back = "http://127.0.0.1:41234/cb"
	resp, err := n.client.Post("https://"+n.host+"/oauth/register", "application/json",
		strings.NewReader(`{"client_name":"CLI tool","redirect_uris":["`+back+`"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var reg map[string]any
	json.NewDecoder(resp.Body).Decode(&reg)
	resp.Body.Close()
	id, _ := reg["client_id"].(string)
	if resp.StatusCode != 201 || !strings.HasPrefix(id, "dcr-") {
		t.Fatalf("register = %d %v", resp.StatusCode, reg)
	}
	access, _ := n.connect(id, back, "compose")
	s := bearerSession{t, n, access}
	p, isErr := s.tool("create_draft", map[string]any{"to": []string{"a@example.org"}, "subject": "Hi", "body": "Hello"})
	if p["error"] == "approval_required" || p["error"] == "insufficient_scope" {
		t.Fatalf("create_draft under the consent = %v (isError %v)", p, isErr)
	}
}

// TestOAuthURLElicitation: a 2026-07-28 OAuth client that can open URLs is
// sent, for a call that waits for the phone, to the node's page for the
// request (input_required with a URL-mode elicitation); its answer
// approves nothing, the phone does.
func TestOAuthURLElicitation(t *testing.T) {
	keys := newKeyDocsUnstarted(t)
	keys.docs[cimdDomain] = func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }
	keys.files[cimdDomain+"/mcp/client.json"] = fmt.Sprintf(`{"client_id":%q,"redirect_uris":[%q]}`, cimdURL, cimdBack)
	keys.StartTLS()
	n := startNode(t, t.TempDir(), "", keys)
	access, _ := n.connect(cimdURL, cimdBack, "structured_read raw_read")
	auth := http.Header{"Authorization": {"Bearer " + access}}
	for k, v := range headers2026("tools/call", "get_excerpt") {
		auth[k] = v
	}
	args := map[string]any{"query": "flight gate Lisbon"}
	call := func(params map[string]any, caps map[string]any) map[string]any {
		t.Helper()
		m := meta()
		m["io.modelcontextprotocol/clientCapabilities"] = caps
		params["_meta"] = m
		r := n.post("/oauth/mcp", rpc(9, "tools/call", params), auth)
		var out struct {
			Result map[string]any `json:"result"`
		}
		if json.Unmarshal(r.body, &out) != nil || r.status != 200 || out.Result == nil {
			t.Fatalf("tools/call = %d %s", r.status, r.body)
		}
		return out.Result
	}
	urlCaps := map[string]any{"elicitation": map[string]any{"url": map[string]any{}}}

	res := call(map[string]any{"name": "get_excerpt", "arguments": args}, urlCaps)
	if res["resultType"] != "input_required" {
		t.Fatalf("first call = %v, want input_required", res)
	}
	var id, link, message string
	for k, v := range res["inputRequests"].(map[string]any) {
		req := v.(map[string]any)
		p := req["params"].(map[string]any)
		if req["method"] != "elicitation/create" || p["mode"] != "url" || p["elicitationId"] != k {
			t.Fatalf("input request %v", req)
		}
		id, link, message = k, p["url"].(string), p["message"].(string)
	}
	pending, err := n.approvals.Get(t.Context(), id)
	if err != nil || pending.State != approvals.Pending || !strings.Contains(message, pending.MatchCode) ||
		link != "https://"+n.host+"/oauth/approval?id="+id {
		t.Fatalf("elicitation %q %q for %+v, %v", link, message, pending, err)
	}
	page := n.get(strings.TrimPrefix(link, "https://"+n.host))
	if page.status != 200 || !strings.Contains(string(page.body), pending.MatchCode) || strings.Contains(string(page.body), "Lisbon") {
		t.Fatalf("approval page = %d %s", page.status, page.body)
	}

	// The client's answer approves nothing.
	retry := map[string]any{"name": "get_excerpt", "arguments": args,
		"inputResponses": map[string]any{id: map[string]any{"action": "accept"}}}
	res = call(retry, urlCaps)
	if res["resultType"] != "complete" || res["isError"] != true || !strings.Contains(fmt.Sprint(res["content"]), "approval_required") {
		t.Fatalf("retry before the phone approved = %v", res)
	}
	if _, err := n.approvals.Answer(t.Context(), id, approvals.Approve, pending.PromptHash()); err != nil {
		t.Fatal(err)
	}
	if page := n.get(strings.TrimPrefix(link, "https://"+n.host)); !strings.Contains(string(page.body), "Approved") {
		t.Fatalf("approval page after the phone approved: %s", page.body)
	}
	res = call(retry, urlCaps)
	if res["resultType"] != "complete" || res["isError"] == true || !strings.Contains(fmt.Sprint(res["content"]), "excerpt") {
		t.Fatalf("retry after the phone approved = %v", res)
	}
	// A page for a request that is not an OAuth client's is not shown.
	if page := n.get("/oauth/approval?id=apr_nosuchrequest"); page.status != 404 {
		t.Fatalf("approval page of an unknown request = %d", page.status)
	}
}
