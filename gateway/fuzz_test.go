package gateway_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"mailnode/gateway"
)

// FuzzMCP feeds arbitrary JSON-RPC bodies to the MCP layer behind the
// signature check (switched off here so that the fuzzer reaches the
// parser). No agent has a grant, so whatever the body says, no tool may
// read mail (only get_excerpt's prompt reads what it would quote); and the node must answer, never panic or fail with 5xx.
func FuzzMCP(f *testing.F) {
	for _, seed := range [][]byte{
		rpc(1, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "a", "version": "1"}}),
		rpc(0, "notifications/initialized", nil),
		rpc(2, "tools/list", nil),
		callTool(3, "bills_due", map[string]any{"before": 1800000000}),
		callTool(4, "get_excerpt", map[string]any{"query": "x"}),
		callTool(5, "send_draft", map[string]any{"draft_id": "d_1"}),
		[]byte(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{"question":"q"}}}]`),
		[]byte(`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"ask","arguments":"{}"}}`),
		[]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{"question":"q"},"_meta":{"progressToken":1}}}`),
		[]byte(`{"jsonrpc":"1.0","id":null,"method":"tools/call"}`),
		[]byte(`{`),
	} {
		f.Add(seed)
	}
	agent := newAgentKey("agent.example.com")
	n := startNode(f, f.TempDir(), "", newKeyDocs(f, agent), gateway.DisableVerification)
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest("POST", "/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { n.srv.ServeHTTP(rec, req); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("no answer within 5s to %q", body)
		}
		if rec.Code >= 500 {
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
		if rec.Code != http.StatusOK && rec.Code != http.StatusAccepted && rec.Code/100 != 4 {
			t.Fatalf("status %d for %q", rec.Code, body)
		}
		// get_excerpt's prompt reads the mail it would quote, for the
		// phone to show (gateway/authorize.go); nothing else may.
		if n.source.hits.Load() != 0 && !bytes.Contains(body, []byte("get_excerpt")) {
			t.Fatalf("body %q reached mail without a grant", body)
		}
		n.source.hits.Store(0)
	})
}
