package gateway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mailnode/approvals"
	"mailnode/gateway"
	"mailnode/gateway/httpsig/httpsigtest"
)

// The MCP revisions the node serves (docs/protocol.md, "MCP revisions").
var served = []string{"2026-07-28", "2025-11-25", "2025-06-18"}

// meta is the _meta every 2026-07-28 request carries.
func meta() map[string]any {
	return map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "test-agent", "version": "1"},
	}
}

// rpc2026 is a 2026-07-28 request: params with _meta.
func rpc2026(id int, method string, params map[string]any) []byte {
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = meta()
	return rpc(id, method, params)
}

// headers2026 are the 2026-07-28 headers of a request (none signed).
func headers2026(method, name string) http.Header {
	h := http.Header{}
	h.Set("Mcp-Protocol-Version", "2026-07-28")
	h.Set("Mcp-Method", method)
	if name != "" {
		h.Set("Mcp-Name", name)
	}
	return h
}

// sendWith is send with more headers, which the signature does not cover.
func (s session) sendWith(body []byte, extra http.Header) response {
	s.t.Helper()
	h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: s.n.host, KeyID: s.agent.keyID(), Key: s.agent.priv})
	if err != nil {
		s.t.Fatal(err)
	}
	for k, v := range extra {
		h[k] = v
	}
	return s.n.post("/mcp", body, h)
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	} `json:"data"`
}

func decodeRPC(t *testing.T, r response) (json.RawMessage, *rpcError) {
	t.Helper()
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatalf("%d %s: not JSON-RPC: %v", r.status, r.body, err)
	}
	return out.Result, out.Error
}

// TestMCPVersions: exactly 2026-07-28, 2025-11-25 and 2025-06-18 are
// served; an older revision is refused with a JSON-RPC error naming them,
// in initialize and in the Mcp-Protocol-Version header alike.
func TestMCPVersions(t *testing.T) {
	agent := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	s := session{t, n, agent}
	initialize := func(v string) []byte {
		return rpc(1, "initialize", map[string]any{"protocolVersion": v, "capabilities": map[string]any{},
			"clientInfo": map[string]any{"name": "t", "version": "1"}})
	}
	for _, c := range []struct {
		asked, got string // got "": refused
	}{
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		// 2026-07-28 has no initialize; asked for by it, the answer is
		// the newest revision that has one (lifecycle negotiation).
		{"2026-07-28", "2025-11-25"},
		{"2025-03-26", ""},
		{"2024-11-05", ""},
		{"1.0", ""},
	} {
		res, rerr := decodeRPC(t, s.send(initialize(c.asked)))
		if c.got == "" {
			if rerr == nil || rerr.Code != -32602 || !slices.Equal(rerr.Data.Supported, served) || rerr.Data.Requested != c.asked {
				t.Errorf("initialize %s = %s %+v, want error -32602 naming %v", c.asked, res, rerr, served)
			}
			continue
		}
		var ir struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(res, &ir); rerr != nil || ir.ProtocolVersion != c.got {
			t.Errorf("initialize %s = %s %+v, want protocolVersion %s", c.asked, res, rerr, c.got)
		}
	}

	for _, c := range []struct {
		header string
		status int
	}{
		{"", 200}, // the contract's client sends none
		{"2025-06-18", 200}, {"2025-11-25", 200},
		{"2025-03-26", 400}, {"2024-11-05", 400}, {"2025-06-19", 400},
	} {
		h := http.Header{}
		if c.header != "" {
			h.Set("Mcp-Protocol-Version", c.header)
		}
		r := s.sendWith(rpc(3, "tools/list", nil), h)
		res, rerr := decodeRPC(t, r)
		if r.status != c.status {
			t.Errorf("tools/list with Mcp-Protocol-Version %q = %d %s, want %d", c.header, r.status, r.body, c.status)
		}
		if c.status == 400 && (rerr == nil || rerr.Code != mcp.CodeUnsupportedProtocolVersion || !slices.Equal(rerr.Data.Supported, served) ||
			!strings.Contains(rerr.Message, "2026-07-28, 2025-11-25, 2025-06-18")) {
			t.Errorf("tools/list with Mcp-Protocol-Version %q = %s, want error %d naming %v", c.header, r.body, mcp.CodeUnsupportedProtocolVersion, served)
		}
		if c.status == 200 && (rerr != nil || !bytes.Contains(res, []byte(`"get_upcoming_travel"`))) {
			t.Errorf("tools/list with Mcp-Protocol-Version %q = %s", c.header, r.body)
		}
	}

	// The discovery document names them (an addition to the contract's).
	resp, err := n.client.Get("https://" + n.host + "/.well-known/svc-node")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Protocol    string   `json:"protocol"`
		MCPVersions []string `json:"mcp_versions"`
	}
	json.NewDecoder(resp.Body).Decode(&d)
	resp.Body.Close()
	if d.Protocol != "svc/1" || !slices.Equal(d.MCPVersions, served) || !slices.Equal(gateway.MCPVersions(), served) {
		t.Errorf("discovery = %+v, want protocol svc/1 and mcp_versions %v", d, served)
	}
}

// callResult is a tools/call result as a 2026-07-28 client reads it.
type callResult struct {
	ResultType string `json:"resultType"`
	IsError    bool   `json:"isError"`
	Content    []struct {
		Type, Text string
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

// Test2026 runs a 2026-07-28 agent: server/discover, tools/list and
// tools/call with no initialize, each result with resultType, the
// approval_required result included; typed results and annotations.
func Test2026(t *testing.T) {
	agent := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	s := session{t, n, agent}
	call := func(body []byte, method, name string) (json.RawMessage, *rpcError, response) {
		t.Helper()
		r := s.sendWith(body, headers2026(method, name))
		res, rerr := decodeRPC(t, r)
		if r.header.Get("Mcp-Session-Id") != "" {
			t.Errorf("%s: stateless node sent mcp-session-id", method)
		}
		return res, rerr, r
	}

	res, rerr, _ := call(rpc2026(1, "server/discover", nil), "server/discover", "")
	var disc struct {
		ResultType        string   `json:"resultType"`
		SupportedVersions []string `json:"supportedVersions"`
		Capabilities      struct{ Tools any }
	}
	if json.Unmarshal(res, &disc); rerr != nil || disc.ResultType != "complete" || !slices.Equal(disc.SupportedVersions, served) || disc.Capabilities.Tools == nil {
		t.Fatalf("server/discover = %s %+v", res, rerr)
	}

	res, rerr, _ = call(rpc2026(2, "tools/list", nil), "tools/list", "")
	var list struct {
		ResultType string `json:"resultType"`
		Tools      []struct {
			Name         string
			OutputSchema map[string]any `json:"outputSchema"`
			Annotations  map[string]any `json:"annotations"`
		}
	}
	if json.Unmarshal(res, &list); rerr != nil || list.ResultType != "complete" || len(list.Tools) != 8 {
		t.Fatalf("tools/list = %s %+v", res, rerr)
	}
	want := map[string]struct {
		output                           string // the output schema's list, "" none
		readOnly, destructive, openWorld any    // nil: absent
	}{
		"get_upcoming_travel": {"trips", true, nil, true},
		"order_status":        {"orders", true, nil, true},
		"bills_due":           {"bills", true, nil, true},
		"ask":                 {"", true, nil, true},
		"get_excerpt":         {"", true, nil, true},
		"create_draft":        {"", false, false, false},
		"draft_reply":         {"", false, false, false},
		"send_draft":          {"", false, true, true},
	}
	for _, tl := range list.Tools {
		w := want[tl.Name]
		props, _ := tl.OutputSchema["properties"].(map[string]any)
		if (w.output == "") != (tl.OutputSchema == nil) || w.output != "" && props[w.output] == nil {
			t.Errorf("%s: outputSchema %v, want one listing %q", tl.Name, tl.OutputSchema, w.output)
		}
		a := tl.Annotations
		if a["readOnlyHint"] != w.readOnly || a["destructiveHint"] != w.destructive || a["openWorldHint"] != w.openWorld {
			t.Errorf("%s: annotations %v, want readOnly %v destructive %v openWorld %v", tl.Name, a, w.readOnly, w.destructive, w.openWorld)
		}
	}

	// First contact: approval_required, a result like any other.
	travel := rpc2026(3, "tools/call", map[string]any{"name": "get_upcoming_travel", "arguments": map[string]any{}})
	res, rerr, _ = call(travel, "tools/call", "get_upcoming_travel")
	var cr callResult
	if json.Unmarshal(res, &cr); rerr != nil || cr.ResultType != "complete" || !cr.IsError || !strings.Contains(cr.Content[0].Text, `"approval_required"`) {
		t.Fatalf("first contact = %s %+v", res, rerr)
	}
	var ar struct {
		MatchCode string `json:"match_code"`
	}
	json.Unmarshal([]byte(cr.Content[0].Text), &ar)
	if _, err := n.approvals.Decide(t.Context(), ar.MatchCode, true); err != nil {
		t.Fatal(err)
	}
	res, rerr, _ = call(travel, "tools/call", "get_upcoming_travel")
	cr = callResult{}
	if json.Unmarshal(res, &cr); rerr != nil || cr.ResultType != "complete" || cr.IsError || len(cr.Content) != 1 {
		t.Fatalf("granted call = %s %+v", res, rerr)
	}
	// structuredContent is the text's JSON, which stays.
	var text, structured any
	json.Unmarshal([]byte(cr.Content[0].Text), &text)
	json.Unmarshal(cr.StructuredContent, &structured)
	if tb, _ := json.Marshal(text); text == nil || !bytes.Equal(tb, mustJSON(structured)) {
		t.Errorf("structuredContent %s, text %s: want the same JSON", cr.StructuredContent, cr.Content[0].Text)
	}
	// A tool without an output schema answers text only.
	n.grant(agent, "ask", approvals.FreeFormRead)
	res, _, _ = call(rpc2026(4, "tools/call", map[string]any{"name": "ask", "arguments": map[string]any{"question": "which gate?"}}), "tools/call", "ask")
	cr = callResult{}
	if json.Unmarshal(res, &cr); cr.ResultType != "complete" || cr.IsError || cr.StructuredContent != nil {
		t.Errorf("ask = %s", res)
	}
	// Older revisions get no resultType, and the same typed result.
	r := s.sendWith(callTool(5, "get_upcoming_travel", map[string]any{}), http.Header{"Mcp-Protocol-Version": {"2025-06-18"}})
	res, _ = decodeRPC(t, r)
	cr = callResult{}
	if json.Unmarshal(res, &cr); cr.ResultType != "" || cr.IsError || cr.StructuredContent == nil {
		t.Errorf("2025-06-18 call = %s", res)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestUnsignedHeaders: the 2026-07-28 headers the signature does not
// cover (docs/signatures.md, "MCP headers") cannot make a signed body do
// anything else. Mcp-Method and Mcp-Name that disagree with the body are
// refused before any tool; Mcp-Protocol-Version dropped or changed serves
// the same body as an older revision, or refuses it; nothing reaches mail
// or opens a prompt but the call the body signs.
func TestUnsignedHeaders(t *testing.T) {
	agent := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	s := session{t, n, agent}
	n.grant(agent, "bills_due", approvals.StructuredRead)

	signed2026 := func(id int) []byte {
		return rpc2026(id, "tools/call", map[string]any{"name": "bills_due", "arguments": map[string]any{}})
	}
	pending := func() int {
		list, err := n.approvals.Pending(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}
	for i, c := range []struct {
		name   string
		body   []byte
		header http.Header
		runs   bool // the signed call (bills_due) runs; else refused with JSON-RPC code
		code   int
	}{
		{"as signed", signed2026(10), headers2026("tools/call", "bills_due"), true, 0},
		{"Mcp-Name names a per-call tool", signed2026(11), headers2026("tools/call", "get_excerpt"), false, -32020},
		{"Mcp-Name missing", signed2026(12), headers2026("tools/call", ""), false, -32020},
		{"Mcp-Method says tools/list", signed2026(13), headers2026("tools/list", "bills_due"), false, -32020},
		{"Mcp-Method missing", signed2026(14), http.Header{"Mcp-Protocol-Version": {"2026-07-28"}, "Mcp-Name": {"bills_due"}}, false, -32020},
		// The body's _meta names 2026-07-28: another header, or none, is
		// a mismatch the SDK refuses.
		{"Mcp-Protocol-Version dropped", signed2026(15), http.Header{"Mcp-Method": {"tools/call"}, "Mcp-Name": {"bills_due"}}, false, -32020},
		{"Mcp-Protocol-Version 2025-06-18", signed2026(16), http.Header{"Mcp-Protocol-Version": {"2025-06-18"}}, false, -32020},
		// A body signed as 2025: the header set to 2026-07-28 finds no
		// _meta and is refused; set to another 2025 revision, the same
		// call runs.
		{"2025 body, header 2026-07-28", callTool(17, "bills_due", map[string]any{}), headers2026("tools/call", "bills_due"), false, -32602},
		{"2025 body, header 2025-11-25", callTool(18, "bills_due", map[string]any{}), http.Header{"Mcp-Protocol-Version": {"2025-11-25"}, "Mcp-Name": {"get_excerpt"}}, true, 0},
	} {
		hits, prompts := n.source.hits.Load(), pending()
		r := s.sendWith(c.body, c.header)
		res, rerr := decodeRPC(t, r)
		if c.runs {
			var cr callResult
			json.Unmarshal(res, &cr)
			if rerr != nil || cr.IsError || !strings.Contains(cr.Content[0].Text, `"bills"`) || n.source.hits.Load() == hits {
				t.Errorf("%d %s: %d %s, want bills_due run", i, c.name, r.status, r.body)
			}
			continue
		}
		if rerr == nil || rerr.Code != c.code || r.status != http.StatusBadRequest {
			t.Errorf("%d %s: %d %s, want 400 with error %d", i, c.name, r.status, r.body, c.code)
		}
		if n.source.hits.Load() != hits || pending() != prompts {
			t.Errorf("%d %s: a refused request read mail or opened a prompt", i, c.name)
		}
	}
}

// signingTransport signs every request as agent, as a client of any SDK
// would with a signer in its HTTP stack.
type signingTransport struct {
	base  http.RoundTripper
	host  string
	agent agentKey
	// methods, if set, hears each request's JSON-RPC method and its
	// Mcp-Protocol-Version header.
	methods func(method, version string)
}

func (st signingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body.Close()
		body = b
	}
	h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: st.host, KeyID: st.agent.keyID(), Key: st.agent.priv})
	if err != nil {
		return nil, err
	}
	if st.methods != nil {
		var m struct{ Method string }
		json.Unmarshal(body, &m)
		st.methods(m.Method, req.Header.Get("Mcp-Protocol-Version"))
	}
	req = req.Clone(req.Context())
	for k, v := range h {
		req.Header[k] = v
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	return st.base.RoundTrip(req)
}

// TestGoSDKClient: the official Go SDK's client, at each revision served
// and one refused, through a signing HTTP transport.
func TestGoSDKClient(t *testing.T) {
	agent := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	n.grant(agent, "bills_due", approvals.StructuredRead)
	for _, v := range append(slices.Clone(served), "2025-03-26") {
		t.Run(v, func(t *testing.T) {
			var seen []string
			hc := &http.Client{Transport: signingTransport{n.client.Transport, n.host, agent, func(m, ver string) {
				seen = append(seen, m+"@"+ver)
			}}, CheckRedirect: n.client.CheckRedirect}
			ctx := context.Background()
			c := mcp.NewClient(&mcp.Implementation{Name: "go-sdk-test", Version: "1"}, nil)
			cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: n.url, HTTPClient: hc, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: v})
			if v == "2025-03-26" {
				if err == nil {
					cs.Close()
					t.Fatal("Connect at 2025-03-26 succeeded")
				}
				return
			}
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" && got != v {
				t.Errorf("negotiated %q, want %q", got, v)
			}
			// 2026-07-28 is spoken without initialize.
			if v == "2026-07-28" && (len(seen) == 0 || seen[0] != "server/discover@2026-07-28" || slices.ContainsFunc(seen, func(s string) bool { return strings.HasPrefix(s, "initialize") })) {
				t.Errorf("a 2026-07-28 client sent %v", seen)
			}
			defer func() {
				for _, s := range seen {
					if v == "2026-07-28" && !strings.HasSuffix(s, "@2026-07-28") {
						t.Errorf("a 2026-07-28 client sent %s", s)
					}
				}
			}()
			tl, err := cs.ListTools(ctx, nil)
			if err != nil || len(tl.Tools) != 8 {
				t.Fatalf("ListTools = %v, %v", tl, err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "bills_due", Arguments: map[string]any{}})
			if err != nil || res.IsError || res.StructuredContent == nil {
				t.Fatalf("CallTool bills_due = %+v, %v", res, err)
			}
			// A call waiting for the phone is a tool error the client
			// reads like any result.
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_excerpt", Arguments: map[string]any{"query": "gate"}})
			if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "approval_required") {
				t.Fatalf("CallTool get_excerpt = %+v, %v", res, err)
			}
		})
	}
}

// TestQueued2026: an envelope's sealed headers may carry the 2026-07-28
// headers (docs/protocol.md, "Queue envelopes of 2026-07-28"); the node
// copies them, and the request goes through the same checks as live: a
// wrong Mcp-Name is refused, a call under a grant is queued_not_run with
// its resultType.
func TestQueued2026(t *testing.T) {
	ctx := context.Background()
	agent := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	n.meet(agent)
	n.grant(agent, "bills_due", approvals.StructuredRead)
	queued := func(body []byte, name string) gateway.QueuedRequest {
		h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: agent.keyID(), Key: agent.priv})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{"host": n.host, "content-type": "application/json", "accept": "application/json, text/event-stream",
			"mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name}
		for k := range h {
			m[strings.ToLower(k)] = h.Get(k)
		}
		return gateway.QueuedRequest{Method: "POST", Path: "/mcp", Headers: m, Body: body}
	}
	body := func(id int) []byte {
		return rpc2026(id, "tools/call", map[string]any{"name": "bills_due", "arguments": map[string]any{}})
	}
	rep := n.srv.ServeQueued(ctx, queued(body(1), "get_excerpt"), time.Hour)
	if rep.Status != http.StatusBadRequest || !strings.Contains(string(rep.Body), "-32020") || rep.Allowed {
		t.Errorf("queued call with a wrong mcp-name = %d %s, allowed %v", rep.Status, rep.Body, rep.Allowed)
	}
	rep = n.srv.ServeQueued(ctx, queued(body(2), "bills_due"), time.Hour)
	var out struct{ Result callResult }
	json.Unmarshal(rep.Body, &out)
	if rep.Status != http.StatusOK || !rep.Allowed || out.Result.ResultType != "complete" || len(out.Result.Content) == 0 ||
		!strings.Contains(out.Result.Content[0].Text, "queued_not_run") {
		t.Errorf("queued 2026-07-28 call under a grant = %d %s, allowed %v", rep.Status, rep.Body, rep.Allowed)
	}
}
