package app_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/approvals"
	"mailnode/gateway"
	"mailnode/gateway/phone/phoneclient"
)

// BenchmarkPhonePrompts is issue 5's figures, in one run on loopback:
//
//   - prompt latency: from an agent starting a get_excerpt call to the
//     prompt arriving, opened, on a paired phone (the reference client on
//     the node's HTTPS event stream), for 1,000 requests from 50 agents;
//   - read tools with those 1,000 requests pending: a granted agent's
//     signed calls of every read tool against that node and against an
//     identical node with nothing pending, in interleaved rounds.
//
// Both nodes serve the demo mailbox.
//
//	go test -run '^$' -bench PhonePrompts -benchtime 1x ./app/
func BenchmarkPhonePrompts(b *testing.B) {
	const agents, perAgent, rounds, callsPerRound = 50, 20, 5, 40
	ctx := context.Background()
	cfg := approvals.Config{MaxPending: perAgent, MaxPendingTotal: agents * perAgent, PendingTTL: time.Hour}
	// The agents' 1,000 requests in a burst are above the default rate
	// limits; what is measured is the prompts' latency.
	unlimited := gateway.RateLimit{PerAgent: 1e6, Burst: 1e6, PerSite: 1e6, SiteBurst: 1e6}
	loaded := newE2ELimited(b, agents, cfg, unlimited)
	idle := newE2ELimited(b, 0, cfg, unlimited)
	for _, e := range []*e2e{loaded, idle} {
		e.grant("ask", map[string]string{"question": "When does my flight to New York leave?"})
		e.grant("bills_due", map[string]any{})
	}
	for _, s := range loaded.extra {
		if err := s.Initialize(ctx); err != nil {
			b.Fatal(err)
		}
	}

	var prompt []time.Duration
	for i := range agents * perAgent {
		t0 := time.Now()
		_, err := loaded.extra[i%agents].Call(ctx, "get_excerpt", map[string]string{"query": fmt.Sprintf("hotel booking %d", i)})
		var ar *agent.ApprovalRequired
		if !errors.As(err, &ar) {
			b.Fatalf("request %d: %v", i, err)
		}
		for {
			a := <-loaded.prompts
			p, err := phoneclient.ReadPrompt(a.text)
			if err != nil {
				b.Fatal(err)
			}
			if p.ApprovalID == ar.ApprovalID {
				prompt = append(prompt, a.at.Sub(t0))
				break
			}
		}
	}
	st, err := loaded.phone.State(ctx)
	if err != nil || len(st.Pending) != agents*perAgent {
		b.Fatalf("the phone lists %d pending requests (%v), want %d", len(st.Pending), err, agents*perAgent)
	}

	reads := []struct {
		tool string
		args any
	}{
		{"get_upcoming_travel", map[string]any{}},
		{"order_status", map[string]string{"merchant": "Amazon"}},
		{"bills_due", map[string]any{}},
		{"ask", map[string]string{"question": "When does my flight to New York leave?"}},
	}
	type stats struct{ p50, p99 []float64 }
	measure := func(e *e2e, tool string, args any) (p50, p99 float64) {
		var d []time.Duration
		for range callsPerRound {
			t0 := time.Now()
			if _, err := e.agent.Call(ctx, tool, args); err != nil {
				b.Fatalf("%s: %v", tool, err)
			}
			d = append(d, time.Since(t0))
		}
		slices.Sort(d)
		return ms(d[len(d)/2]), ms(d[len(d)*99/100])
	}
	res := map[string]map[*e2e]*stats{}
	for _, r := range reads {
		res[r.tool] = map[*e2e]*stats{loaded: {}, idle: {}}
		measure(loaded, r.tool, r.args) // warm
		measure(idle, r.tool, r.args)
	}
	for range rounds {
		for _, r := range reads {
			for _, e := range []*e2e{idle, loaded} {
				p50, p99 := measure(e, r.tool, r.args)
				res[r.tool][e].p50 = append(res[r.tool][e].p50, p50)
				res[r.tool][e].p99 = append(res[r.tool][e].p99, p99)
			}
		}
	}

	slices.Sort(prompt)
	pp50, pp99, pmax := ms(prompt[len(prompt)/2]), ms(prompt[len(prompt)*99/100]), ms(prompt[len(prompt)-1])
	fmt.Printf("\nPrompt latency, agent call to prompt opened on the phone, %d requests from %d agents (ms): p50 %.1f, p99 %.1f, max %.1f\n",
		len(prompt), agents, pp50, pp99, pmax)
	fmt.Printf("Pending on the loaded node at the end: %d\n\n", len(st.Pending))
	fmt.Printf("Read tools, signed calls over HTTPS, medians of %d rounds of %d calls (ms):\n\n", rounds, callsPerRound)
	fmt.Printf("| tool | p50 idle | p50 with %d pending | p99 idle | p99 with %d pending | p50 ratio |\n|---|---:|---:|---:|---:|---:|\n", len(st.Pending), len(st.Pending))
	for _, r := range reads {
		i, l := res[r.tool][idle], res[r.tool][loaded]
		fmt.Printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n", r.tool, median(i.p50), median(l.p50), median(i.p99), median(l.p99), median(l.p50)/median(i.p50))
		b.ReportMetric(median(l.p50)/median(i.p50), r.tool+"-p50-ratio")
	}
	fmt.Println()
	b.ReportMetric(pp99, "prompt-p99-ms")
	b.ReportMetric(pp50, "prompt-p50-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// grant has the user approve tool's tier for the reader agent on the
// phone.
func (e *e2e) grant(tool string, args any) {
	e.t.Helper()
	_, ar := e.call(tool, args)
	if ar == nil {
		return
	}
	text, _ := e.prompt(ar)
	e.decide(text, approvals.Approve)
	if _, ar := e.call(tool, args); ar != nil {
		e.t.Fatalf("%s after approval: %+v", tool, ar)
	}
}
