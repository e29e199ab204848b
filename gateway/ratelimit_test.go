package gateway_test

import (
	"testing"

	"mailnode/approvals"
	"mailnode/gateway"
)

// TestRateLimits (hardening item 6): a verified agent past its rate gets
// rate_limited with retry_after for a tools/call, 429 for anything else,
// and the tool never runs. (Buckets shared per registrable domain:
// TestSiteBuckets.)
func TestRateLimits(t *testing.T) {
	a := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, a),
		gateway.Limit(gateway.RateLimit{PerAgent: 0.001, Burst: 3, PerSite: 0.001, SiteBurst: 5}))
	n.grant(a, "bills_due", approvals.StructuredRead)
	s := session{t, n, a}
	for i := range 3 {
		if p, isErr := s.tool("bills_due", map[string]any{}); isErr {
			t.Fatalf("call %d within the burst: %v", i, p)
		}
	}
	hits := n.source.hits.Load()
	p, isErr := s.tool("bills_due", map[string]any{})
	if !isErr || p["error"] != "rate_limited" || p["retry_after"].(float64) < 1 || p["message"] == "" {
		t.Fatalf("call past the burst = %v", p)
	}
	if n.source.hits.Load() != hits {
		t.Fatal("a rate-limited call read mail")
	}
	r := s.send(rpc(1, "tools/list", nil))
	if r.status != 429 || r.header.Get("Retry-After") == "" {
		t.Fatalf("tools/list past the burst: %d %s", r.status, r.body)
	}
}
