package gateway_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"mailnode/gateway/httpsig/httpsigtest"
)

// TestBrowserRequests (hardening item 8): requests for a name that is not
// the node's get 421, a foreign Origin 403, a JSON-RPC batch -32600; the
// node's names can change while it runs.
func TestBrowserRequests(t *testing.T) {
	agent := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	_, port, _ := net.SplitHostPort(n.addr)
	relayName := "n-4kq7.relay.example:" + port

	send := func(host, origin string, body []byte) response {
		t.Helper()
		h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: host, KeyID: agent.keyID(), Key: agent.priv})
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest("POST", "https://"+n.host+"/mcp", bytes.NewReader(body))
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		for k, v := range h {
			req.Header[k] = v
		}
		resp, err := n.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return response{status: resp.StatusCode, header: resp.Header, body: b}
	}
	list := rpc(1, "tools/list", nil)
	for _, tc := range []struct {
		name, host, origin string
		status             int
		error              string
	}{
		{"agent without Origin", n.host, "", 200, ""},
		{"page the node served", n.host, "https://" + n.host, 200, ""},
		{"foreign page", n.host, "https://evil.example", 403, "forbidden"},
		{"foreign page on the node's name over http", n.host, "http://" + n.host, 403, "forbidden"},
		{"null origin", n.host, "null", 403, "forbidden"},
		{"rebinding: another Host", "evil.example:" + port, "", 421, "misdirected_request"},
		{"a name the relay has not given yet", relayName, "", 421, "misdirected_request"},
	} {
		r := send(tc.host, tc.origin, list)
		var e struct{ Error string }
		json.Unmarshal(r.body, &e)
		if r.status != tc.status || e.Error != tc.error {
			t.Errorf("%s: %d %s, want %d %q", tc.name, r.status, r.body, tc.status, tc.error)
		}
	}

	// The relay assigns a name while the node runs: requests signed for
	// it are served, the old names still are.
	n.srv.SetNames(relayName)
	if r := send(relayName, "", list); r.status != 200 || !strings.Contains(string(r.body), "get_upcoming_travel") {
		t.Errorf("new name: %d %s", r.status, r.body)
	}
	if r := send(n.host, "", list); r.status != 200 {
		t.Errorf("old name after SetNames: %d %s", r.status, r.body)
	}
	// A request signed for one name and sent to the other does not verify.
	h, _ := httpsigtest.Headers(list, httpsigtest.Options{Host: n.host, KeyID: agent.keyID(), Key: agent.priv})
	req, _ := http.NewRequest("POST", "https://"+n.host+"/mcp", bytes.NewReader(list))
	req.Host = relayName
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h {
		req.Header[k] = v
	}
	if resp, err := n.client.Do(req); err != nil || resp.StatusCode != 401 {
		t.Errorf("signed for one name, sent to another: %v %v", resp.StatusCode, err)
	}

	// JSON-RPC batches (removed in MCP 2025-06-18) are refused whole.
	batch := []byte("[" + string(rpc(1, "tools/list", nil)) + "," + string(callTool(2, "bills_due", map[string]any{})) + "]")
	r := send(n.host, "", batch)
	var rpcErr struct {
		Error struct{ Code int } `json:"error"`
	}
	if json.Unmarshal(r.body, &rpcErr); r.status != 200 || rpcErr.Error.Code != -32600 || n.source.hits.Load() != 0 {
		t.Errorf("batch: %d %s", r.status, r.body)
	}
}
