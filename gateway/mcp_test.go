package gateway_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"mailnode/approvals"
	"mailnode/gateway/httpsig/httpsigtest"
)

// session is an agent talking to a test node with correct signatures.
type session struct {
	t     *testing.T
	n     *testNode
	agent agentKey
}

func (s session) send(body []byte) response {
	s.t.Helper()
	h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: s.n.host, KeyID: s.agent.keyID(), Key: s.agent.priv})
	if err != nil {
		s.t.Fatal(err)
	}
	return s.n.post("/mcp", body, h)
}

type rpcResponse struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (s session) call(body []byte) rpcResponse {
	s.t.Helper()
	r := s.send(body)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		s.t.Fatalf("%s: %d %s %s", body, r.status, r.header.Get("Content-Type"), r.body)
	}
	if r.header.Get("Mcp-Session-Id") != "" {
		s.t.Errorf("stateless node sent mcp-session-id %q", r.header.Get("Mcp-Session-Id"))
	}
	var out rpcResponse
	if err := json.Unmarshal(r.body, &out); err != nil {
		s.t.Fatalf("%s: %v", r.body, err)
	}
	return out
}

// tool calls a tool and returns its payload and isError.
func (s session) tool(name string, args any) (map[string]any, bool) {
	s.t.Helper()
	out := s.call(callTool(7, name, args))
	if out.Error != nil {
		s.t.Fatalf("tools/call %s: JSON-RPC error %+v", name, out.Error)
	}
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Type, Text string
		} `json:"content"`
	}
	if err := json.Unmarshal(out.Result, &res); err != nil || len(res.Content) != 1 || res.Content[0].Type != "text" {
		s.t.Fatalf("tools/call %s: result %s", name, out.Result)
	}
	var payload map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].Text), &payload); err != nil {
		s.t.Fatalf("tools/call %s: content text is not JSON: %q", name, res.Content[0].Text)
	}
	return payload, res.IsError
}

// TestSession runs the spec's session order and the approval flow.
func TestSession(t *testing.T) {
	agent := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	s := session{t, n, agent}

	init := s.call(rpc(1, "initialize", map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test-agent", "version": "1"},
	}))
	var ir struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct{ Name string }
		Capabilities    struct{ Tools any }
	}
	if json.Unmarshal(init.Result, &ir); ir.ProtocolVersion != "2025-06-18" || ir.ServerInfo.Name != "mailnode" || ir.Capabilities.Tools == nil {
		t.Fatalf("initialize = %s", init.Result)
	}
	if r := s.send(rpc(0, "notifications/initialized", nil)); r.status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d %s", r.status, r.body)
	}

	list := s.call(rpc(2, "tools/list", nil))
	var lr struct {
		Tools []struct {
			Name        string
			InputSchema map[string]any `json:"inputSchema"`
		}
	}
	json.Unmarshal(list.Result, &lr)
	var names []string
	for _, tl := range lr.Tools {
		names = append(names, tl.Name)
		if tl.InputSchema["type"] != "object" {
			t.Errorf("tool %s: input schema %v", tl.Name, tl.InputSchema)
		}
	}
	// The SDK lists tools by name.
	if got := strings.Join(names, ","); got != "ask,bills_due,create_draft,draft_reply,get_excerpt,get_upcoming_travel,order_status,send_draft" {
		t.Fatalf("tools/list = %s", got)
	}

	// First contact: approval required, and no mail read.
	p, isErr := s.tool("get_upcoming_travel", map[string]any{})
	if !isErr || p["error"] != "approval_required" || p["match_code"] == nil || !strings.HasPrefix(p["approval_id"].(string), "apr_") {
		t.Fatalf("first contact = %v", p)
	}
	if !strings.Contains(p["message"].(string), p["match_code"].(string)) || p["agent"] != "agent.example.com" || p["tier"] != "structured_read" {
		t.Errorf("approval_required payload = %v", p)
	}
	if n.source.hits.Load() != 0 {
		t.Fatal("an unapproved call read mail")
	}
	if _, err := n.approvals.Decide(t.Context(), p["match_code"].(string), true); err != nil {
		t.Fatal(err)
	}
	p, isErr = s.tool("get_upcoming_travel", map[string]any{})
	if isErr || p["trips"] == nil {
		t.Fatalf("after approval = %v", p)
	}
	// The grant covers the tier, not other tiers.
	if p, _ := s.tool("ask", map[string]any{"question": "when is my flight?"}); p["error"] != "approval_required" {
		t.Fatalf("ask without its grant = %v", p)
	}
	// Argument errors are tool errors.
	if p, isErr := s.tool("order_status", map[string]any{}); !isErr || p["error"] != "invalid_arguments" {
		t.Fatalf("order_status without merchant = %v", p)
	}
	if p, _ := s.tool("order_status", map[string]any{"merchant": "x", "bogus": 1}); p["error"] != "invalid_arguments" {
		t.Fatalf("unknown argument = %v", p)
	}
	if p, isErr := s.tool("no_such_tool", map[string]any{}); !isErr || p["error"] != "unknown_tool" {
		t.Fatalf("unknown tool = %v", p)
	}

	// raw_read: every call needs its own approval.
	args := map[string]any{"query": "gate"}
	p, _ = s.tool("get_excerpt", args)
	if p["error"] != "approval_required" {
		t.Fatalf("get_excerpt = %v", p)
	}
	hits := n.source.hits.Load()
	// Approved on the phone, over the prompt the node built.
	pending, err := n.approvals.Get(t.Context(), p["approval_id"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.approvals.Answer(t.Context(), pending.ID, approvals.Approve, pending.PromptHash()); err != nil {
		t.Fatal(err)
	}
	p, isErr = s.tool("get_excerpt", args)
	if isErr || p["found"] != true || !strings.Contains(p["excerpt"].(string), "gate") {
		t.Fatalf("approved get_excerpt = %v", p)
	}
	if n.source.hits.Load() == hits {
		t.Fatal("approved call did not read mail")
	}
	if p, _ = s.tool("get_excerpt", args); p["error"] != "approval_required" {
		t.Fatalf("second get_excerpt on one approval = %v", p)
	}
}

func TestDiscoveryAndRouting(t *testing.T) {
	agent := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	resp, err := n.client.Get("https://" + n.host + "/.well-known/svc-node")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Protocol, Node, Auth string
		Tools                []string
		ServedAt             int64 `json:"served_at"`
	}
	json.NewDecoder(resp.Body).Decode(&d)
	resp.Body.Close()
	if d.Protocol != "svc/1" || d.Node != nodeName || d.Auth != "rfc9421+capability" || len(d.Tools) != 8 || d.ServedAt == 0 {
		t.Fatalf("discovery = %+v", d)
	}

	// /mcp/ is served like /mcp (signed for its own URL); nothing redirects.
	body := rpc(1, "tools/list", nil)
	h, _ := httpsigtest.Headers(body, httpsigtest.Options{TargetURI: "https://" + n.host + "/mcp/", Authority: nodeName, KeyID: agent.keyID(), Key: agent.priv})
	if r := n.post("/mcp/", body, h); r.status != 200 {
		t.Fatalf("POST /mcp/: %d %s", r.status, r.body)
	}
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/mcp", 405}, {"POST", "/mcp/x", 404}, {"POST", "/MCP", 404}, {"POST", "//mcp", 404}, {"GET", "/", 404},
	} {
		req, _ := http.NewRequest(c.method, "https://"+n.host+c.path, nil)
		resp, err := n.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s = %d, want %d", c.method, c.path, resp.StatusCode, c.status)
		}
	}
}
