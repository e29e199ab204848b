package gateway_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/gateway"
	"mailnode/gateway/httpsig/httpsigtest"
)

// TestQueuedRequests: what the gateway does with a request from the
// relay's offline queue (docs/relay.md). Its signature may be older than a
// live call's and past its expires, never older than the queue keeps
// requests; a call it would allow does not run, and an approved raw_read
// is not spent by it; it opens the prompt a call without a grant needs;
// the same envelope twice is refused the second time.
func TestQueuedRequests(t *testing.T) {
	ctx := context.Background()
	agent := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	const ttl = 24 * time.Hour
	queued := func(body []byte, created time.Time) gateway.QueuedRequest {
		h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: agent.keyID(), Key: agent.priv, Now: created})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{"host": n.host, "content-type": "application/json", "accept": "application/json, text/event-stream"}
		for k := range h {
			m[strings.ToLower(k)] = h.Get(k)
		}
		return gateway.QueuedRequest{Method: "POST", Path: "/mcp", Headers: m, Body: body}
	}
	text := func(rep gateway.QueuedReply) string {
		var m struct {
			Result struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
		}
		json.Unmarshal(rep.Body, &m)
		if len(m.Result.Content) == 0 {
			return string(rep.Body)
		}
		return m.Result.Content[0].Text
	}
	hourAgo := time.Now().Add(-time.Hour)

	// No grant: the prompt opens, as a live call's would.
	rep := n.srv.ServeQueued(ctx, queued(callTool(1, "bills_due", map[string]any{}), hourAgo), ttl)
	if rep.Status != http.StatusOK || !strings.Contains(text(rep), "approval_required") {
		t.Fatalf("queued call without a grant = %d %s", rep.Status, text(rep))
	}
	pending, _ := n.approvals.Pending(ctx)
	if len(pending) != 1 {
		t.Fatalf("%d prompts open, want 1", len(pending))
	}

	// Under a grant: still not run.
	n.grant(agent, "bills_due", approvals.StructuredRead)
	before := n.source.hits.Load()
	old := queued(callTool(2, "bills_due", map[string]any{}), hourAgo)
	rep = n.srv.ServeQueued(ctx, old, ttl)
	if rep.Status != http.StatusOK || !strings.Contains(text(rep), "queued_not_run") {
		t.Errorf("queued call under a grant = %d %s, want queued_not_run", rep.Status, text(rep))
	}
	if n.source.hits.Load() != before {
		t.Error("a queued call reached the mail store")
	}
	// The relay hands the same envelope over again: refused.
	if rep := n.srv.ServeQueued(ctx, old, ttl); rep.Status != http.StatusUnauthorized || !strings.Contains(string(rep.Body), "nonce") {
		t.Errorf("the same envelope again = %d %s, want 401 nonce", rep.Status, rep.Body)
	}
	// Older than the queue keeps requests: refused.
	if rep := n.srv.ServeQueued(ctx, queued(callTool(3, "bills_due", map[string]any{}), time.Now().Add(-ttl-time.Hour)), ttl); rep.Status != http.StatusUnauthorized {
		t.Errorf("a request older than the queue's TTL = %d %s, want 401", rep.Status, rep.Body)
	}
	if rep := n.srv.ServeQueued(ctx, queued(callTool(4, "bills_due", map[string]any{}), hourAgo), 0); rep.Status != http.StatusBadRequest {
		t.Errorf("ServeQueued without a queue age = %d, want 400", rep.Status)
	}
	// Only POST /mcp, for the node's own name.
	other := queued(callTool(5, "bills_due", map[string]any{}), hourAgo)
	other.Path = "/phone/x"
	if rep := n.srv.ServeQueued(ctx, other, ttl); rep.Status != http.StatusNotFound {
		t.Errorf("queued request for another path = %d", rep.Status)
	}
	other = queued(callTool(6, "bills_due", map[string]any{}), hourAgo)
	other.Headers["host"] = "elsewhere.example"
	if rep := n.srv.ServeQueued(ctx, other, ttl); rep.Status != http.StatusMisdirectedRequest {
		t.Errorf("queued request for another name = %d", rep.Status)
	}
}

// FuzzServeQueued: a queued request is whatever a relay hands over (a
// hostile relay included): the gateway answers it without panicking and
// never reaches the mail store.
func FuzzServeQueued(f *testing.F) {
	agent := newAgentKey("agent.example.com")
	n := startNode(f, f.TempDir(), "", newKeyDocs(f, agent))
	body := callTool(1, "bills_due", map[string]any{})
	h, _ := httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: agent.keyID(), Key: agent.priv})
	f.Add("POST", "/mcp", n.host, h.Get("Signature-Input"), h.Get("Signature"), h.Get("Content-Digest"), body)
	f.Add("GET", "/phone/x", "other", "", "", "", []byte("{}"))
	f.Add("POST", "/mcp", n.host, "sig=();created=1", ":AAAA:", "sha-256=:x:", []byte(`[{"jsonrpc":"2.0"}]`))
	f.Fuzz(func(t *testing.T, method, path, host, sigInput, sig, digest string, body []byte) {
		before := n.source.hits.Load()
		rep := n.srv.ServeQueued(context.Background(), gateway.QueuedRequest{Method: method, Path: path, Body: body,
			Headers: map[string]string{"host": host, "signature-input": sigInput, "signature": sig, "content-digest": digest,
				"content-type": "application/json"}}, 24*time.Hour)
		if rep.Status == 0 {
			t.Fatal("no status")
		}
		if n.source.hits.Load() != before {
			t.Fatal("a queued request reached the mail store")
		}
	})
}
