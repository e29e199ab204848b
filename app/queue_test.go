package app_test

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"strings"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/app/apptest"
)

// TestOfflineQueue: an agent whose node is offline leaves its call in the
// relay's queue (the SDK's CallAndWait); when the node's tunnel comes up
// the relay delivers it, and the node takes it, runs nothing and posts no
// reply (issue 40, item 5). This agent never called the node live, so the
// node does not know its key and does not fetch it for a queued call
// (TestQueueStrangerNeverFetched): the agent, trying the node live, finds
// it back, and its live retry opens the prompt, and once approved, runs.
// A known agent's queued call opens the prompt itself (TestQueueKnownAgents).
func TestOfflineQueue(t *testing.T) {
	ctx := t.Context()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	domain, key := apptest.HostAgent(t, r)
	dir := t.TempDir()
	e := apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentDomains: []string{domain}, DataDir: dir})
	address := e.Node.Status().Gateway.Relay.Address
	rel := &agent.Relay{BaseURL: r.URL, HTTPClient: r.HTTPClient()}
	res, err := rel.Resolve(ctx, address)
	if err != nil || res.Hostname != e.Host {
		t.Fatalf("resolve %s = %+v, %v", address, res, err)
	}
	agentCA := e.NodeCA
	e.Node.Stop()
	waitUntil(t, "the tunnel down", func() bool { return r.Server.ConnectedNodes() == 0 })

	// The node is away: TLS never completes, and the call is queued.
	roots := x509.NewCertPool()
	roots.AddCert(agentCA)
	offline := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: r.Dial,
		TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13}, TLSHandshakeTimeout: 500 * time.Millisecond}}
	queued := make(chan *agent.QueuedError, 1)
	sess, err := agent.NewSession(agent.Config{Node: e.Host, Signer: &agent.Signer{Domain: domain, Kid: "k1", Key: key},
		HTTPClient: offline, Queue: &agent.Queue{Relay: rel, Resolution: res},
		OnQueued: func(q *agent.QueuedError) { queued <- q }})
	if err != nil {
		t.Fatal(err)
	}
	asked := make(chan *agent.ApprovalRequired, 4)
	result := make(chan error, 1)
	go func() {
		_, err := sess.CallAndWait(ctx, "bills_due", map[string]any{}, 50*time.Millisecond, func(ar *agent.ApprovalRequired) { asked <- ar })
		result <- err
	}()
	var q *agent.QueuedError
	select {
	case q = <-queued:
	case err := <-result:
		t.Fatalf("call while offline ended: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the call was not queued")
	}
	if _, ready, err := rel.Reply(ctx, q.RequestID); err != nil || ready {
		t.Fatalf("reply before the node is back: ready %v, %v", ready, err)
	}

	// The node comes back: the envelope is delivered, the prompt opens,
	// the agent's live retry meets it, and once approved the call runs.
	back := apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentDomains: []string{domain}, DataDir: dir})
	var ar *agent.ApprovalRequired
	select {
	case ar = <-asked:
	case err := <-result:
		t.Fatalf("call ended before asking: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the live retry did not meet the prompt")
	}
	waitUntil(t, "the node to take the queued request", func() bool {
		return strings.Contains(log.String(), `msg="Took a queued request"`)
	})
	if _, ready, err := rel.Reply(ctx, q.RequestID); err != nil || ready {
		t.Errorf("the reply to a call without a grant: ready %v, %v; want none", ready, err)
	}
	pending, err := back.Node.Pending(ctx)
	if err != nil || len(pending) != 1 || pending[0].ID != ar.ApprovalID || pending[0].Domain != domain {
		t.Fatalf("pending = %+v, %v; want the one prompt %s", pending, err, ar.ApprovalID)
	}
	if _, err := back.Node.Decide(ctx, ar.MatchCode, true); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-result:
		if err != nil {
			t.Fatalf("the call after approval: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call did not run after approval")
	}
	waitUntil(t, "the audit of the queued call", func() bool {
		audit, _ := back.Node.Audit(ctx, 10)
		for _, a := range audit {
			if a.Domain == domain && string(a.Decision) == "approval_required" {
				return true
			}
		}
		return false
	})
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
