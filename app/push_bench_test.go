package app_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/approvals"
	"mailnode/approvals/push/pushtest"
	"mailnode/gateway"
	"mailnode/gateway/phone/phoneclient"
)

// pushCalls are calls that each open a first-contact grant prompt of
// their own tier: no tool work before the prompt (get_excerpt's prompt
// takes a fixed 250 ms, excerptPromptTime, which would hide what is
// measured here).
var pushCalls = []struct {
	tool string
	args any
}{
	{"bills_due", map[string]any{}},
	{"ask", map[string]string{"question": "When does my flight to New York leave?"}},
	{"create_draft", map[string]any{"to": []string{"sam@example.org"}, "subject": "Hello", "body": "Hi"}},
}

// BenchmarkPush is issue 44's figures, in one run on loopback:
//
//   - push latency: from an agent starting a tools/call that opens a
//     prompt to the push service stand-in (HTTPS on loopback) taking the
//     node's push of that prompt, for 200 prompts one at a time (50
//     agents, three grant tiers each, then the first again once those
//     prompts were denied), one subscribed phone;
//   - the agents' answer with push on and off: 50 agents each make one
//     call at once (a burst of 50 prompts), against a node whose 3 paired
//     phones are subscribed (150 pushes per burst, and the decided
//     notices of the round before) and against an identical node whose 3
//     phones are not; the approval_required answers' latencies, in
//     interleaved rounds.
//
// Both nodes serve the demo mailbox.
//
//	go test -run '^$' -bench 'Push$' -benchtime 1x ./app/
func BenchmarkPush(b *testing.B) {
	const agents, burstAgents, rounds, sequential = 50, 50, 6, 200
	ctx := context.Background()
	cfg := approvals.Config{MaxPending: 20, MaxPendingTotal: 2000, MaxPromptsPerHour: 1000, PendingTTL: time.Hour,
		DenialHold: time.Millisecond}
	unlimited := gateway.RateLimit{PerAgent: 1e6, Burst: 1e6, PerSite: 1e6, SiteBurst: 1e6}
	stand := pushtest.Start(b)
	on := newE2EPush(b, agents, cfg, unlimited, stand)
	off := newE2EPush(b, agents, cfg, unlimited, nil)
	var more []*phoneclient.Device // the push node's second and third phones
	for _, e := range []*e2e{on, off} {
		for _, name := range []string{"Second phone", "Third phone"} {
			d := e.pair(name, true)
			if e == on {
				more = append(more, d)
			}
		}
		for _, s := range e.extra {
			if err := s.Initialize(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
	subscribe := func(d *phoneclient.Device, path string) {
		sub := pushtest.NewSubscriber(b, path)
		if err := d.Subscribe(ctx, sub.Endpoint, sub.Key.PublicKey().Bytes(), sub.Auth); err != nil {
			b.Fatal(err)
		}
	}
	subscribe(on.phone, "/push/first")

	call := func(s *agent.Session, c int) (*agent.ApprovalRequired, time.Duration) {
		t0 := time.Now()
		_, err := s.Call(ctx, pushCalls[c].tool, pushCalls[c].args)
		var ar *agent.ApprovalRequired
		if !errors.As(err, &ar) {
			b.Fatalf("%s: %v", pushCalls[c].tool, err)
		}
		return ar, time.Since(t0)
	}
	denyAll := func(e *e2e) {
		pending, err := e.node.Pending(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for _, a := range pending {
			if _, err := e.node.Decide(ctx, a.ID, false); err != nil {
				b.Fatal(err)
			}
		}
	}
	// Push latency, one phone subscribed: each agent's three tiers, then
	// once more the first.
	var pushed, answered []time.Duration
	for i := range sequential {
		if i == agents*len(pushCalls) {
			denyAll(on)
			time.Sleep(1100 * time.Millisecond) // DenialHold counts in whole seconds
		}
		t0 := time.Now()
		ar, took := call(on.extra[i%agents], i/agents%len(pushCalls))
		answered = append(answered, took)
		for {
			r := stand.Next(b, 10*time.Second)
			if r.Header.Get("Topic") == ar.ApprovalID {
				pushed = append(pushed, r.At.Sub(t0))
				break
			}
		}
	}
	slices.Sort(pushed)
	slices.Sort(answered)

	// The other two phones subscribe: each prompt is now 3 pushes. Every
	// prompt is denied, so that the next round's calls open new ones.
	subscribe(more[0], "/push/second")
	subscribe(more[1], "/push/third")
	burst := func(e *e2e, round int) []time.Duration {
		d := make([]time.Duration, burstAgents)
		var wg sync.WaitGroup
		for i := range burstAgents {
			wg.Go(func() { _, d[i] = call(e.extra[i], round%len(pushCalls)) })
		}
		wg.Wait()
		return d
	}
	var withPush, without []time.Duration
	for r := range rounds {
		denyAll(on)
		denyAll(off)
		time.Sleep(1100 * time.Millisecond) // DenialHold counts in whole seconds
		before := len(stand.Requests())
		if r%2 == 0 {
			withPush = append(withPush, burst(on, r)...)
			without = append(without, burst(off, r)...)
		} else {
			without = append(without, burst(off, r)...)
			withPush = append(withPush, burst(on, r)...)
		}
		deadline := time.Now().Add(30 * time.Second)
		for len(stand.Requests()) < before+burstAgents*3 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if got := len(stand.Requests()) - before; got < burstAgents*3 {
			b.Fatalf("round %d: the stand-in took %d pushes, want at least %d", r, got, burstAgents*3)
		}
	}
	slices.Sort(withPush)
	slices.Sort(without)
	q := func(d []time.Duration, p int) float64 { return ms(d[len(d)*p/100]) }
	fmt.Printf("\nPush latency, agent call to push taken by the stand-in, %d prompts one at a time (ms): p50 %.1f, p99 %.1f, max %.1f\n",
		len(pushed), q(pushed, 50), q(pushed, 99), ms(pushed[len(pushed)-1]))
	fmt.Printf("The agent's approval_required answer to those calls (ms): p50 %.1f, p99 %.1f\n", q(answered, 50), q(answered, 99))
	fmt.Printf("\napproval_required answers, %d rounds of %d calls at once, 3 paired phones, %d pushes taken in all (ms):\n\n",
		rounds, burstAgents, len(stand.Requests()))
	fmt.Printf("| | p50 | p99 |\n|---|---:|---:|\n")
	fmt.Printf("| push on (3 phones subscribed) | %.1f | %.1f |\n", q(withPush, 50), q(withPush, 99))
	fmt.Printf("| push off | %.1f | %.1f |\n", q(without, 50), q(without, 99))
	fmt.Printf("| ratio on/off | %.2f | %.2f |\n\n", q(withPush, 50)/q(without, 50), q(withPush, 99)/q(without, 99))
	b.ReportMetric(q(pushed, 99), "push-p99-ms")
	b.ReportMetric(q(withPush, 50)/q(without, 50), "answer-p50-ratio")
}
