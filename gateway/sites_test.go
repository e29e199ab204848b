package gateway_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"mailnode/agent"
	"mailnode/approvals"
	"mailnode/approvals/site"
	"mailnode/gateway"
)

// TestHostedAgentsAreSites (issue 40 item 7): agents hosted under the
// relay's agents zone, or under a hosting suffix the node is told of, are
// sites of their own: a stranger's hosted agents that flood the node until
// they are rate limited leave another hosted agent's bucket alone, while
// agents under one ordinary domain still share theirs. The agents are the
// SDK's, signing real requests to the real gateway over TLS.
func TestHostedAgentsAreSites(t *testing.T) {
	for _, tc := range []struct {
		name            string
		flooders        []string
		honest          string
		honestLimited   bool
		wantFloodServed int // calls that ran before every flooder was refused
	}{
		{"relay's agents zone", []string{"k1.agents.relay.example", "k2.agents.relay.example"}, "k3.agents.relay.example", false, 16},
		{"configured hosting suffix", []string{"a.hosting.example", "b.hosting.example"}, "c.hosting.example", false, 16},
		{"nested under a hosted label", []string{"x.k4.agents.relay.example", "y.k4.agents.relay.example"}, "k5.agents.relay.example", false, 11},
		{"one ordinary domain", []string{"a.evil.example", "b.evil.example"}, "c.evil.example", true, 11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sites, err := site.New("agents.relay.example", "hosting.example")
			if err != nil {
				t.Fatal(err)
			}
			var keys []agentKey
			for _, d := range append(tc.flooders, tc.honest) {
				keys = append(keys, newAgentKey(d))
			}
			// Burst 10 an agent, 15 a site, and no refill within the test.
			n := startNodeSites(t, t.TempDir(), "", newKeyDocsAnyName(t, keys...), sites,
				gateway.Limit(gateway.RateLimit{PerAgent: 0.001, Burst: 10, PerSite: 0.001, SiteBurst: 15}))
			for _, k := range keys {
				n.grant(k, "bills_due", approvals.StructuredRead)
			}
			served := 0
			for _, k := range keys[:len(tc.flooders)] {
				s := sdkSession(t, n, k)
				for i := 0; ; i++ {
					if i == 30 {
						t.Fatalf("%s was never rate limited", k.domain)
					}
					err := sdkCall(s)
					if err == nil {
						served++
						continue
					}
					if !rateLimited(err) {
						t.Fatalf("%s: %v", k.domain, err)
					}
					break
				}
			}
			// Each session's server/discover and tools/list (MCP
			// 2026-07-28) take 2 of its tokens: 8 calls an agent, or
			// 8 + 3 when two share a site's 15.
			if served != tc.wantFloodServed {
				t.Errorf("the flooders got %d requests in, want %d", served, tc.wantFloodServed)
			}
			err = sdkCall(sdkSession(t, n, keys[len(keys)-1]))
			if tc.honestLimited != rateLimited(err) || (!tc.honestLimited && err != nil) {
				t.Errorf("%s after the flood: %v; want rate limited %v", tc.honest, err, tc.honestLimited)
			}
		})
	}
}

// sdkSession is an SDK session of agent k with n.
func sdkSession(t *testing.T, n *testNode, k agentKey) *agent.Session {
	t.Helper()
	s, err := agent.NewSession(agent.Config{Node: n.host, Signer: &agent.Signer{Domain: k.domain, Kid: k.kid, Key: k.priv}, HTTPClient: n.client})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sdkCall(s *agent.Session) error {
	_, err := s.Call(context.Background(), "bills_due", map[string]any{})
	return err
}

// rateLimited: a tools/call past the limit is a rate_limited tool error,
// anything else (the session's initialize) an HTTP 429.
func rateLimited(err error) bool {
	var te *agent.ToolError
	var he *agent.HTTPError
	return errors.As(err, &te) && te.Code == "rate_limited" || errors.As(err, &he) && he.Status == http.StatusTooManyRequests
}
