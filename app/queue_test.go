package app_test

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/app/apptest"
)

// TestOfflineQueue: an agent whose node is offline leaves its call in the
// relay's queue; when the node's tunnel comes up the relay delivers it,
// the node opens the approval prompt (and runs nothing), and the reply is
// there to poll. The agent's live call then meets the same prompt, and
// once approved, runs. The same envelope handed over again (a relay
// replaying it) opens nothing more.
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
	sess, err := agent.NewSession(agent.Config{Node: e.Host, Signer: &agent.Signer{Domain: domain, Kid: "k1", Key: key},
		HTTPClient: offline, Queue: &agent.Queue{Relay: rel, Resolution: res}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sess.Call(ctx, "bills_due", map[string]any{})
	var queued *agent.QueuedError
	if !errors.As(err, &queued) {
		t.Fatalf("call while offline = %v, want QueuedError", err)
	}
	if _, ready, err := rel.Reply(ctx, queued.RequestID); err != nil || ready {
		t.Fatalf("reply before the node is back: ready %v, %v", ready, err)
	}

	// The node comes back: the envelope is delivered and answered.
	back := apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentDomains: []string{domain}, DataDir: dir})
	var sealed string
	waitUntil(t, "the queued request's reply", func() bool {
		env, ready, err := rel.Reply(ctx, queued.RequestID)
		sealed = env
		return err == nil && ready
	})
	if sealed == "" {
		t.Fatal("empty reply envelope")
	}
	pending, err := back.Node.Pending(ctx)
	if err != nil || len(pending) != 1 || pending[0].Domain != domain || pending[0].Tool != "bills_due" {
		t.Fatalf("pending after the queued call = %+v, %v; want one prompt for %s", pending, err, domain)
	}

	// The live retry meets the same prompt; approved, it runs.
	live := back.Session(t, domain, key)
	_, err = live.Call(ctx, "bills_due", map[string]any{})
	var ar *agent.ApprovalRequired
	if !errors.As(err, &ar) || ar.ApprovalID != pending[0].ID {
		t.Fatalf("live retry = %v, want approval_required for %s", err, pending[0].ID)
	}
	if _, err := back.Node.Decide(ctx, ar.MatchCode, true); err != nil {
		t.Fatal(err)
	}
	if _, err := live.Call(ctx, "bills_due", map[string]any{}); err != nil {
		t.Fatalf("live call after approval: %v", err)
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
