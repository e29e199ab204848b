package gateway_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/gateway/httpsig/httpsigtest"
)

// TestRefusedRequests is the negative suite: each request is wrong in one
// way, is answered 401 signature_invalid as plain HTTP JSON, and reaches
// no tool and no mail. The same call signed correctly does reach the tool,
// so every refusal is the check under test and not a missing grant.
func TestRefusedRequests(t *testing.T) {
	agent := newAgentKey("agent.example.com")
	mismatch := newAgentKey("mismatch.example.com")
	redirect := newAgentKey("redirect.example.com")
	loopback := newAgentKey("loopback.example.com")
	private := newAgentKey("private.example.com")
	docs := newKeyDocs(t, agent, mismatch, redirect)
	docs.docs["mismatch.example.com"] = doc("evil.example.com", "k1", mismatch.pub)
	docs.docs["redirect.example.com"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://agent.example.com/.well-known/svc-agent", http.StatusFound)
	}
	n := startNode(t, t.TempDir(), "", docs)
	for _, a := range []agentKey{agent, mismatch, redirect, loopback, private} {
		n.grant(a, "bills_due", approvals.StructuredRead)
	}
	_, otherKey, _ := ed25519GenerateKey()
	body := callTool(1, "bills_due", map[string]any{})
	otherDigest := sha256.Sum256([]byte("another body"))
	goodDigest := sha256.Sum256(body)
	now := time.Now()

	opts := func(a agentKey) httpsigtest.Options {
		return httpsigtest.Options{Host: n.host, KeyID: a.keyID(), Key: a.priv, Now: now}
	}
	signed := func(mod func(*httpsigtest.Options)) http.Header {
		o := opts(agent)
		if mod != nil {
			mod(&o)
		}
		h, err := httpsigtest.Headers(body, o)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}

	// The control: the call, signed right, runs.
	before := n.source.hits.Load()
	if r := n.post("/mcp", body, signed(nil)); r.status != 200 || !strings.Contains(string(r.body), "bills") {
		t.Fatalf("control call: %d %s", r.status, r.body)
	}
	if n.source.hits.Load() == before {
		t.Fatal("control call did not reach the tool")
	}
	replayed := signed(func(o *httpsigtest.Options) { o.Nonce = "control-nonce" })
	if r := n.post("/mcp", body, replayed); r.status != 200 {
		t.Fatalf("first use of a nonce: %d %s", r.status, r.body)
	}

	tests := []struct {
		name   string
		header http.Header
		detail string // substring of the 401 detail
	}{
		{"no signature", http.Header{}, "Signature-Input"},
		{"wrong label only", signed(func(o *httpsigtest.Options) { o.Label = "sig2" }), "label"},
		{"tag other than svc-agent", signed(func(o *httpsigtest.Options) { o.Tag = "web-bot-auth" }), "no signature tagged"},
		{"alg other than ed25519", signed(func(o *httpsigtest.Options) { o.Alg = "ecdsa-p256-sha256" }), "alg"},
		{"component missing", signed(func(o *httpsigtest.Options) {
			o.Components = []string{"@method", "@target-uri", "@authority"}
		}), "covered components"},
		{"component extra", signed(func(o *httpsigtest.Options) {
			o.Components = []string{"@method", "@target-uri", "@authority", "content-digest", "content-type"}
		}), "covered components"},
		{"components reordered", signed(func(o *httpsigtest.Options) {
			o.Components = []string{"@method", "@authority", "@target-uri", "content-digest"}
		}), "covered components"},
		{"target-uri other host", signed(func(o *httpsigtest.Options) { o.TargetURI = "https://evil.example.org/mcp" }), "does not verify"},
		{"target-uri other scheme", signed(func(o *httpsigtest.Options) { o.TargetURI = "http://" + n.host + "/mcp" }), "does not verify"},
		{"target-uri other path", signed(func(o *httpsigtest.Options) { o.TargetURI = "https://" + n.host + "/mcp/tools" }), "does not verify"},
		{"target-uri other port", signed(func(o *httpsigtest.Options) { o.TargetURI = "https://" + nodeName + ":1/mcp" }), "does not verify"},
		{"authority mismatch", signed(func(o *httpsigtest.Options) { o.Authority = "evil.example.org" }), "does not verify"},
		{"digest of another body", signed(func(o *httpsigtest.Options) {
			o.Digest = "sha-256=:" + base64.StdEncoding.EncodeToString(otherDigest[:]) + ":"
		}), "does not match"},
		{"digest in base64url", signed(func(o *httpsigtest.Options) {
			o.Digest = "sha-256=:" + base64.RawURLEncoding.EncodeToString(goodDigest[:]) + ":"
		}), "Content-Digest"},
		// Well past the 60 s skew: now was read before the node started
		// fetching keys, and a slow machine can spend seconds on that. The
		// exact boundary is tested on a fixed clock in httpsig.
		{"created more than 60 s ahead", signed(func(o *httpsigtest.Options) {
			o.Created, o.Expires = now.Unix()+120, now.Unix()+200
		}), "future"},
		{"expires before now", signed(func(o *httpsigtest.Options) {
			o.Created, o.Expires = now.Unix()-200, now.Unix()-1
		}), "expired"},
		{"expires more than 300 s after created", signed(func(o *httpsigtest.Options) { o.Expires = now.Unix() + 301 }), "at most"},
		{"reused nonce", replayed, "nonce already used"},
		{"unknown kid", signed(func(o *httpsigtest.Options) { o.KeyID = "agent.example.com#k9" }), "unknown key id"},
		{"key document whose domain differs", signed(func(o *httpsigtest.Options) {
			o.KeyID, o.Key = mismatch.keyID(), mismatch.priv
		}), "key document unavailable"},
		{"key document behind a redirect", signed(func(o *httpsigtest.Options) {
			o.KeyID, o.Key = redirect.keyID(), redirect.priv
		}), "key document unavailable"},
		{"agent domain resolving to 127.0.0.1", signed(func(o *httpsigtest.Options) {
			o.KeyID, o.Key = loopback.keyID(), loopback.priv
		}), "key document unavailable"},
		{"agent domain resolving to 10.0.0.1", signed(func(o *httpsigtest.Options) {
			o.KeyID, o.Key = private.keyID(), private.priv
		}), "key document unavailable"},
		{"agent domain equal to the node hostname", signed(func(o *httpsigtest.Options) { o.KeyID = nodeName + "#k1" }), "hostname"},
		{"signature by another key", signed(func(o *httpsigtest.Options) { o.Key = otherKey }), "does not verify"},
		{"two svc-agent signatures", func() http.Header {
			h := signed(nil)
			h2 := signed(func(o *httpsigtest.Options) { o.Label = "sig2" })
			h["Signature-Input"] = append(h["Signature-Input"], h2["Signature-Input"]...)
			h["Signature"] = append(h["Signature"], h2["Signature"]...)
			return h
		}(), "more than one"},
	}
	audit := func() int {
		log, err := n.approvals.Audit(t.Context(), 0)
		if err != nil {
			t.Fatal(err)
		}
		return len(log)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, audited := n.source.hits.Load(), audit()
			r := n.post("/mcp", body, tt.header)
			var got struct{ Error, Detail string }
			if err := json.Unmarshal(r.body, &got); err != nil || r.status != 401 || got.Error != "signature_invalid" {
				t.Fatalf("answer = %d %s, want 401 signature_invalid", r.status, r.body)
			}
			if r.header.Get("Content-Type") != "application/json" {
				t.Errorf("Content-Type = %q", r.header.Get("Content-Type"))
			}
			if !strings.Contains(got.Detail, tt.detail) {
				t.Errorf("detail = %q, want it to mention %q", got.Detail, tt.detail)
			}
			if n.source.hits.Load() != hits {
				t.Error("a refused request reached mail")
			}
			if audit() != audited {
				t.Error("a refused request reached authorisation")
			}
		})
	}
}

// A nonce stays refused after the node restarts on the same data.
func TestNonceRefusedAfterRestart(t *testing.T) {
	agent := newAgentKey("agent.example.com")
	docs := newKeyDocs(t, agent)
	dir := t.TempDir()
	n := startNode(t, dir, "", docs)
	n.grant(agent, "bills_due", approvals.StructuredRead)
	body := callTool(1, "bills_due", map[string]any{})
	h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: agent.keyID(), Key: agent.priv})
	if err != nil {
		t.Fatal(err)
	}
	if r := n.post("/mcp", body, h); r.status != 200 {
		t.Fatalf("first use: %d %s", r.status, r.body)
	}
	n.stop()

	n = startNode(t, dir, n.addr, docs)
	r := n.post("/mcp", body, h)
	if r.status != 401 || !strings.Contains(string(r.body), "nonce already used") {
		t.Fatalf("replay after restart: %d %s, want 401 nonce already used", r.status, r.body)
	}
	if n.source.hits.Load() != 0 {
		t.Fatal("replay after restart reached mail")
	}
	// The grant survived the restart too: a fresh signature runs.
	h, _ = httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: agent.keyID(), Key: agent.priv})
	if r := n.post("/mcp", body, h); r.status != 200 || strings.Contains(string(r.body), "approval_required") {
		t.Fatalf("fresh call after restart: %d %s", r.status, r.body)
	}
}

func TestBodyLimit(t *testing.T) {
	agent := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	big := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","pad":"` + strings.Repeat("x", 256<<10) + `"}`)
	h, _ := httpsigtest.Headers(big, httpsigtest.Options{Host: n.host, KeyID: agent.keyID(), Key: agent.priv})
	r := n.post("/mcp", big, h)
	if r.status != 413 || strings.TrimSpace(string(r.body)) != `{"error":"payload_too_large"}` {
		t.Fatalf("oversized body: %d %s", r.status, r.body)
	}
	// Without a Content-Length the cap holds while reading.
	req, _ := http.NewRequest("POST", n.url, strings.NewReader(string(big)))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	resp, err := n.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Fatalf("oversized chunked body: %d", resp.StatusCode)
	}
}

// TestKeyFetcherBusy: while every key document fetch is taken by
// requests naming hosts that never answer, a request whose agent's
// document must be fetched is the node's overload, not the agent's fault:
// 503 with Retry-After, which a live agent retries (and the offline queue
// would leave for redelivery), not 401 "agent key document unavailable"
// (issue 40, F2).
func TestKeyFetcherBusy(t *testing.T) {
	release := make(chan struct{})
	var slow []agentKey
	for i := range 17 {
		slow = append(slow, newAgentKey(fmt.Sprintf("slow%d.example.com", i)))
	}
	docs := newKeyDocs(t, slow...)
	var fetching atomic.Int32 // fetches that reached the document server
	for _, a := range slow {
		docs.docs[a.domain] = func(http.ResponseWriter, *http.Request) { fetching.Add(1); <-release }
	}
	var held sync.WaitGroup
	t.Cleanup(func() { close(release); held.Wait() })
	n := startNode(t, t.TempDir(), "", docs)
	body := rpc(1, "ping", nil)
	post := func(a agentKey) response {
		h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: n.host, KeyID: a.keyID(), Key: a.priv})
		if err != nil {
			t.Fatal(err)
		}
		return n.post("/mcp", body, h)
	}
	for _, a := range slow[:16] {
		held.Add(1)
		go func() {
			defer held.Done()
			post(a)
		}()
	}
	// Wait for the 16 fetches to be under way at the document server
	// itself: a fixed sleep was too short on a loaded machine, and the
	// 17th then got a fetch of its own.
	for deadline := time.Now().Add(30 * time.Second); fetching.Load() < 16; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of 16 key document fetches began", fetching.Load())
		}
	}
	r := post(slow[16])
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" {
		t.Errorf("a request while the key fetcher is busy = %d %s (Retry-After %q); want 503 with Retry-After",
			r.status, r.body, r.header.Get("Retry-After"))
	}
}
