package gateway_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
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
// the same envelope twice is refused the second time. Only a call the
// person already allowed is a reply to post (TestQueuedReplyOnlyUnderGrant).
func TestQueuedRequests(t *testing.T) {
	ctx := context.Background()
	agent := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	n.meet(agent)
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

	// No grant: the prompt opens, as a live call's would; the reply is
	// not to be posted.
	rep := n.srv.ServeQueued(ctx, queued(callTool(1, "bills_due", map[string]any{}), hourAgo), ttl)
	if rep.Status != http.StatusOK || !strings.Contains(text(rep), "approval_required") || rep.Allowed {
		t.Fatalf("queued call without a grant = %d %s, allowed %v", rep.Status, text(rep), rep.Allowed)
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
	if rep.Status != http.StatusOK || !strings.Contains(text(rep), "queued_not_run") || !rep.Allowed {
		t.Errorf("queued call under a grant = %d %s, allowed %v; want queued_not_run, allowed", rep.Status, text(rep), rep.Allowed)
	}
	if n.source.hits.Load() != before {
		t.Error("a queued call reached the mail store")
	}
	// The relay hands the same envelope over again: refused.
	if rep := n.srv.ServeQueued(ctx, old, ttl); rep.Status != http.StatusUnauthorized || !strings.Contains(string(rep.Body), "nonce") || rep.Allowed {
		t.Errorf("the same envelope again = %d %s, allowed %v; want 401 nonce", rep.Status, rep.Body, rep.Allowed)
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

// meet has a make a live call, as an agent's first contact is: the node
// then holds its key document.
func (n *testNode) meet(a agentKey) {
	n.t.Helper()
	body := rpc(1, "ping", nil)
	h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: a.keyID(), Key: a.priv})
	if err != nil {
		n.t.Fatal(err)
	}
	if r := n.post("/mcp", body, h); r.status != http.StatusOK {
		n.t.Fatalf("live ping of %s = %d %s", a.domain, r.status, r.body)
	}
}

// TestQueuedReplyOnlyUnderGrant: the node posts a reply to a queued
// request only for a verified call from an agent the person already
// allowed, so that a stranger's envelope, whatever it holds, leaves the
// queue looking as a decoy's (issue 40, item 5). A hosted agent domain is
// free to anyone, so a verified call from an agent without a grant is not
// enough either. An agent the node holds no key document for is never
// fetched for (TestQueuedNeverFetches).
func TestQueuedReplyOnlyUnderGrant(t *testing.T) {
	ctx := context.Background()
	granted := newAgentKey("granted.example.com")
	stranger := newAgentKey("stranger.example.com")
	unknown := newAgentKey("unknown.example.com") // no key document
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, granted, stranger))
	n.meet(granted)
	n.meet(stranger)
	n.grant(granted, "bills_due", approvals.StructuredRead)
	const ttl = 24 * time.Hour
	hourAgo := time.Now().Add(-time.Hour)
	signed := func(a agentKey, keyID string, body []byte) gateway.QueuedRequest {
		h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: keyID, Key: a.priv, Now: hourAgo})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{"host": n.host, "content-type": "application/json", "accept": "application/json, text/event-stream"}
		for k := range h {
			m[strings.ToLower(k)] = h.Get(k)
		}
		return gateway.QueuedRequest{Method: "POST", Path: "/mcp", Headers: m, Body: body}
	}
	bills := func(id int) []byte { return callTool(id, "bills_due", map[string]any{}) }
	tampered := signed(granted, granted.keyID(), bills(3))
	tampered.Body = bills(4)
	tests := []struct {
		name    string
		req     gateway.QueuedRequest
		allowed bool
	}{
		{"granted agent, granted tier", signed(granted, granted.keyID(), bills(1)), true},
		{"granted agent, the same envelope again", signed(granted, granted.keyID(), bills(1)), false},
		{"granted agent, a tier it was not granted", signed(granted, granted.keyID(), callTool(2, "ask", map[string]any{"question": "when?"})), false},
		{"granted agent, not a tools/call", signed(granted, granted.keyID(), rpc(5, "tools/list", nil)), false},
		{"granted agent's key id, another key", signed(stranger, granted.keyID(), bills(6)), false},
		{"granted agent, body changed after signing", tampered, false},
		{"verified agent without a grant", signed(stranger, stranger.keyID(), bills(7)), false},
		{"agent without a key document", signed(unknown, unknown.keyID(), bills(8)), false},
		{"unsigned", gateway.QueuedRequest{Method: "POST", Path: "/mcp", Headers: map[string]string{"host": n.host}, Body: bills(9)}, false},
		{"junk", gateway.QueuedRequest{Method: "x", Path: "\x00", Headers: map[string]string{"host": "\xff"}, Body: []byte{0xff, 0}}, false},
	}
	// The same envelope twice: the first is the allowed one above.
	tests[1].req = tests[0].req
	for _, tt := range tests {
		rep := n.srv.ServeQueued(ctx, tt.req, ttl)
		if rep.Allowed != tt.allowed {
			t.Errorf("%s: allowed %v (%d %s), want %v", tt.name, rep.Allowed, rep.Status, rep.Body, tt.allowed)
		}
	}
	// The stranger's verified call still opened the person's prompt.
	pending, _ := n.approvals.Pending(ctx)
	var asked []string
	for _, p := range pending {
		asked = append(asked, p.Domain+" "+string(p.Tier))
	}
	if strings.Join(asked, ",") != "granted.example.com free_form_read,stranger.example.com structured_read" &&
		strings.Join(asked, ",") != "stranger.example.com structured_read,granted.example.com free_form_read" {
		t.Errorf("prompts open: %v; want the ungranted tier's and the stranger's", asked)
	}
}

// TestQueuedNeverFetches: a queued request is verified only against the
// key documents the node already holds (from agents' live calls, kept
// across restarts), and never makes the node fetch one: a stranger who
// seals a request naming a key host it runs would otherwise see the node
// connect when it comes online, from its own address (docs/relay.md,
// "On the node"). Such a request is refused, opens no prompt and has no
// reply to post; the same agent's live call then fetches as always, and
// its next queued request, after a restart too, is verified.
func TestQueuedNeverFetches(t *testing.T) {
	ctx := context.Background()
	stranger := newAgentKey("stranger.example.com")
	docs := newKeyDocs(t, stranger)
	var fetches atomic.Int32
	serve := docs.docs[stranger.domain]
	docs.docs[stranger.domain] = func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		serve(w, r)
	}
	dir := t.TempDir()
	n := startNode(t, dir, "", docs)
	const ttl = 24 * time.Hour
	queued := func(id int) gateway.QueuedRequest {
		body := callTool(id, "bills_due", map[string]any{})
		h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: stranger.keyID(), Key: stranger.priv, Now: time.Now().Add(-time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{"host": n.host, "content-type": "application/json", "accept": "application/json, text/event-stream"}
		for k := range h {
			m[strings.ToLower(k)] = h.Get(k)
		}
		return gateway.QueuedRequest{Method: "POST", Path: "/mcp", Headers: m, Body: body}
	}
	rep := n.srv.ServeQueued(ctx, queued(1), ttl)
	if rep.Status != http.StatusUnauthorized || rep.Allowed {
		t.Errorf("a queued request from an agent the node does not know = %d %s, allowed %v; want 401", rep.Status, rep.Body, rep.Allowed)
	}
	if got := fetches.Load(); got != 0 {
		t.Fatalf("the queued request made the node fetch the key document %d times; want never", got)
	}
	if pending, _ := n.approvals.Pending(ctx); len(pending) != 0 {
		t.Errorf("prompts open: %+v; want none", pending)
	}

	// The agent's first live call fetches; then its queued calls verify,
	// also once the node has restarted, without a fetch.
	n.meet(stranger)
	if got := fetches.Load(); got != 1 {
		t.Fatalf("the live call fetched %d times, want 1", got)
	}
	addr := n.addr
	n.stop()
	n = startNode(t, dir, addr, docs)
	rep = n.srv.ServeQueued(ctx, queued(2), ttl)
	if rep.Status != http.StatusOK || rep.Allowed {
		t.Errorf("a known agent's queued call after a restart = %d %s, allowed %v; want 200, the prompt", rep.Status, rep.Body, rep.Allowed)
	}
	if pending, _ := n.approvals.Pending(ctx); len(pending) != 1 {
		t.Errorf("%d prompts open, want 1", len(pending))
	}
	if got := fetches.Load(); got != 1 {
		t.Errorf("%d fetches in all, want the live call's 1", got)
	}
}

// FuzzServeQueued: a queued request is whatever a relay hands over (a
// hostile relay included): the gateway answers it without panicking,
// never reaches the mail store, and never has a reply to post for an
// agent without a grant.
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
		if rep.Allowed {
			t.Fatal("a reply to post for an agent without a grant")
		}
	})
}

// TestQueuedStoreBusy: a queued request the node cannot record because
// its own store fails (here another writer holds the SQLite file past
// the store's 10 s busy timeout) is the node's fault, not the agent's: the
// reply says to leave the envelope for a later delivery (Retry), and its
// nonce is given back, so that the next delivery of the same envelope is
// taken (issue 40, F2), not refused as a replay and lost.
func TestQueuedStoreBusy(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the store's busy timeout")
	}
	ctx := context.Background()
	agent := newAgentKey("agent.example.com")
	dir := t.TempDir()
	n := startNode(t, dir, "", newKeyDocs(t, agent))
	n.meet(agent)
	body := callTool(1, "bills_due", map[string]any{})
	h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: agent.keyID(), Key: agent.priv, Now: time.Now().Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	req := gateway.QueuedRequest{Method: "POST", Path: "/mcp", Body: body,
		Headers: map[string]string{"host": n.host, "content-type": "application/json", "accept": "application/json, text/event-stream"}}
	for k := range h {
		req.Headers[strings.ToLower(k)] = h.Get(k)
	}

	// Another process's writer holds the file.
	other, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "node.db")+"?_pragma=busy_timeout(1000)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Released once the node's write has waited out its 10 s busy
	// timeout, before the nonce's give-back (a write too) waits out its
	// own: halfway through the second wait. At 11.5 s a loaded run under
	// the race detector let the first write through (CI, 2026-11-29).
	release := time.AfterFunc(15*time.Second, func() { tx.Rollback() })
	defer release.Stop()
	rep := n.srv.ServeQueued(ctx, req, 24*time.Hour)
	if !rep.Retry || rep.Allowed {
		t.Errorf("a queued request the node could not record = %d %s, retry %v; want retry", rep.Status, rep.Body, rep.Retry)
	}
	tx.Rollback()

	// The relay delivers it again: taken, the prompt opens.
	rep = n.srv.ServeQueued(ctx, req, 24*time.Hour)
	if rep.Retry || rep.Status != http.StatusOK || !strings.Contains(string(rep.Body), "approval_required") {
		t.Errorf("the same envelope delivered again = %d %s, retry %v; want the prompt", rep.Status, rep.Body, rep.Retry)
	}
	if pending, _ := n.approvals.Pending(ctx); len(pending) != 1 {
		t.Errorf("%d prompts open, want 1", len(pending))
	}
}
