package app_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/app/apptest"
	"mailnode/relay"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// BenchmarkQueueDelivery is the queue's delivery figure with a real node:
// 32 signed calls (each its own request, nonce and envelope) left at the
// relay while the node is away, then the time from the node reporting its
// tunnel up to the relay holding all 32 replies (each envelope opened,
// checked as a live call and answered queued_not_run). The agent holds a
// grant: the node posts no reply for an agent without one.
func BenchmarkQueueDelivery(b *testing.B) {
	ctx := b.Context()
	var log apptest.Buffer
	// The agent polls for the replies faster than the relay's default
	// per-client rate allows.
	// All 32 come from one network (a name's 32 places, not one
	// network's share), and each round's envelopes, taken by the node,
	// hold their places for a day: they are expired between rounds.
	relayDir := b.TempDir()
	r := apptest.StartRelayWith(b, &log, relaylocal.Options{DataDir: relayDir, Limits: relayserver.Limits{
		ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6, QueueShare: relay.MaxQueued}})
	st, err := relaystore.OpenSQLite(ctx, relayDir)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	domain, key := apptest.HostAgent(b, r)
	dir := b.TempDir()
	e := apptest.StartNodeWith(b, r, &log, apptest.NodeOptions{AgentDomains: []string{domain}, DataDir: dir})
	rel := &agent.Relay{BaseURL: r.URL, HTTPClient: r.HTTPClient()}
	res, err := rel.Resolve(ctx, e.Node.Status().Gateway.Relay.Address)
	if err != nil {
		b.Fatal(err)
	}
	_, err = e.Session(b, domain, key).Call(ctx, "bills_due", map[string]any{})
	var ar *agent.ApprovalRequired
	if !errors.As(err, &ar) {
		b.Fatalf("first call = %v, want approval_required", err)
	}
	if _, err := e.Node.Decide(ctx, ar.MatchCode, true); err != nil {
		b.Fatal(err)
	}
	e.Node.Stop()
	signer := &agent.Signer{Domain: domain, Kid: "k1", Key: key}
	var took []time.Duration
	for round := 0; b.Loop(); round++ {
		var ids []string
		for i := range 32 {
			body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
				"params": map[string]any{"name": "bills_due", "arguments": map[string]any{"days": 30 + i}}})
			req, _ := http.NewRequest(http.MethodPost, "https://"+res.Hostname+"/mcp", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if err := signer.Sign(req, body); err != nil {
				b.Fatal(err)
			}
			env, err := agent.Seal(res.BoxPubKey, req, body)
			if err != nil {
				b.Fatal(err)
			}
			q, err := rel.Enqueue(ctx, res.QueueEndpoint, res.Hostname, env, fmt.Sprintf("bench-%d-%02d-%d", round, i, time.Now().UnixNano()))
			if err != nil {
				b.Fatal(err)
			}
			ids = append(ids, q.RequestID)
		}
		back := apptest.StartNodeWith(b, r, &log, apptest.NodeOptions{AgentDomains: []string{domain}, DataDir: dir})
		up := time.Now()
		for _, id := range ids {
			for {
				_, ready, err := rel.Reply(ctx, id)
				if err != nil {
					b.Fatal(err)
				}
				if ready {
					break
				}
				if time.Since(up) > 30*time.Second {
					b.Fatalf("reply %s not ready after 30 s", id)
				}
				time.Sleep(2 * time.Millisecond)
			}
		}
		took = append(took, time.Since(up))
		back.Node.Stop()
		if err := st.Expire(ctx, time.Now().Add(relay.QueueTTL+time.Minute)); err != nil {
			b.Fatal(err)
		}
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.ReportMetric(float64(took[len(took)/2].Milliseconds()), "ms-32-delivered-p50")
	b.ReportMetric(float64(took[len(took)-1].Milliseconds()), "ms-32-delivered-max")
}
