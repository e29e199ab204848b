package app_test

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"mailnode/agent"
	"mailnode/app/apptest"
	"mailnode/gateway"
)

// TestRelayHostedAgentsAreSites (issue 40 item 7): agents the relay hosts
// at <label>.agents.<zone> are not one site. A stranger's free hosted
// agent fills the prompt quota a site may hold, and a third hosted agent,
// honest, can still ask the user; blocking all of the stranger's site
// blocks it alone; the stranger's two agents flood the node until the
// rate limit refuses them, and the honest one is not rate limited. The node learns the
// relay's zone by itself. Real relay, node, SDK agents, through the
// tunnel.
func TestRelayHostedAgentsAreSites(t *testing.T) {
	ctx := t.Context()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	type hosted struct {
		domain string
		key    ed25519.PrivateKey
		s      *agent.Session
	}
	var agents []hosted
	var domains []string
	for range 3 {
		d, k := apptest.HostAgent(t, r)
		domains = append(domains, d)
		agents = append(agents, hosted{domain: d, key: k})
	}
	// Burst 10 an agent and 15 a site, and no refill within the test.
	e := apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentDomains: domains,
		RateLimit: gateway.RateLimit{PerAgent: 0.001, Burst: 10, PerSite: 0.001, SiteBurst: 15}})
	for i := range agents {
		agents[i].s = e.Session(t, agents[i].domain, agents[i].key)
	}
	stranger, stranger2, honest := agents[0], agents[1], agents[2]
	excerpt := func(s *agent.Session, i int) error {
		_, err := s.Call(ctx, "get_excerpt", map[string]string{"query": fmt.Sprintf("hotel address %d", i)})
		return err
	}

	// Prompts: the stranger holds the 5 pending requests a site may.
	for i := range 5 {
		if err := excerpt(stranger.s, i); !isApprovalRequired(err) {
			t.Fatalf("stranger's request %d = %v, want approval_required", i, err)
		}
	}
	if err := excerpt(stranger.s, 5); !isToolErr(err, "too_many_pending") {
		t.Fatalf("stranger's 6th open request = %v, want too_many_pending", err)
	}
	if err := excerpt(honest.s, 0); !isApprovalRequired(err) {
		t.Errorf("honest hosted agent while the stranger holds 5 prompts = %v, want approval_required", err)
	}

	// A block of all of the stranger's site withdraws its requests alone.
	site := e.Node.Site(stranger.domain)
	if site != stranger.domain {
		t.Fatalf("Site(%s) = %s, want the hosted name itself", stranger.domain, site)
	}
	blocked, err := e.Node.Block(ctx, "*."+stranger.domain)
	if err != nil || blocked != "*."+stranger.domain {
		t.Fatalf("Block = %q, %v", blocked, err)
	}
	if _, err := honest.s.Call(ctx, "get_upcoming_travel", map[string]any{}); !isApprovalRequired(err) {
		t.Errorf("honest hosted agent after the stranger's site was blocked = %v, want approval_required", err)
	}
	pending, err := e.Node.Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, p := range pending {
		count[p.Domain]++
		if p.Site != p.Domain {
			t.Errorf("request of %s recorded under site %s", p.Domain, p.Site)
		}
	}
	if count[stranger.domain] != 0 || count[honest.domain] != 2 {
		t.Errorf("pending requests by agent = %v, want %s 0 and %s 2", count, stranger.domain, honest.domain)
	}

	// Rate: the stranger's two agents flood until refused.
	for _, a := range []hosted{stranger, stranger2} {
		for i := 0; ; i++ {
			if i == 30 {
				t.Fatalf("%s was never rate limited", a.domain)
			}
			_, err := a.s.Call(ctx, "get_upcoming_travel", map[string]any{})
			if isRateLimited(err) {
				break
			}
			if !isApprovalRequired(err) && !isToolErr(err, "too_many_pending") && !isToolErr(err, "agent_blocked") {
				t.Fatalf("%s: %v", a.domain, err)
			}
		}
	}
	if _, err := honest.s.Call(ctx, "get_upcoming_travel", map[string]any{}); !isApprovalRequired(err) {
		t.Errorf("honest hosted agent after the flood = %v, want approval_required", err)
	}
}

func isApprovalRequired(err error) bool {
	var ar *agent.ApprovalRequired
	return errors.As(err, &ar)
}

func isToolErr(err error, code string) bool {
	var te *agent.ToolError
	return errors.As(err, &te) && te.Code == code
}

func isRateLimited(err error) bool {
	var he *agent.HTTPError
	return isToolErr(err, "rate_limited") || errors.As(err, &he) && he.Status == http.StatusTooManyRequests
}
