package approvals_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/approvals/site"
	"mailnode/mail/store"
)

type clock struct{ t atomic.Int64 }

func (c *clock) now() time.Time      { return time.Unix(c.t.Load(), 0) }
func (c *clock) add(d time.Duration) { c.t.Add(int64(d / time.Second)) }

type env struct {
	t     *testing.T
	path  string
	clock *clock
	cfg   approvals.Config
	st    *store.Store
	m     *approvals.Manager
}

func newEnv(t *testing.T) *env { return newEnvWith(t, approvals.Config{}) }

// newEnvWith is newEnv with cfg (its clock is the env's).
func newEnvWith(t *testing.T, cfg approvals.Config) *env {
	e := &env{t: t, path: filepath.Join(t.TempDir(), "node.db"), clock: &clock{}, cfg: cfg}
	e.cfg.Now = e.clock.now
	e.clock.t.Store(1_800_000_000)
	e.open()
	t.Cleanup(e.close)
	return e
}

func (e *env) open() {
	ctx := context.Background()
	st, err := store.Open(ctx, e.path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	db, err := st.Attach(ctx, "approvals", approvals.Migrations)
	if err != nil {
		e.t.Fatal(err)
	}
	m, err := approvals.New(ctx, db, e.cfg, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	e.st, e.m = st, m
}

func (e *env) close() {
	if e.m != nil {
		e.m.Close()
		e.st.Close()
		e.m = nil
	}
}

func (e *env) restart() { e.close(); e.open() }

const (
	keyA = "sha256:AAAA"
	keyB = "sha256:BBBB"
)

func (e *env) call(domain, key, tool string, tier approvals.Tier, args string) approvals.Decision {
	e.t.Helper()
	d, err := e.m.Request(context.Background(), approvals.Call{Domain: domain, KeyFP: key, Tool: tool, Tier: tier, Args: json.RawMessage(args)})
	if err != nil {
		e.t.Fatalf("Request(%s, %s): %v", domain, tool, err)
	}
	return d
}

func (e *env) want(d approvals.Decision, want approvals.Outcome) approvals.Decision {
	e.t.Helper()
	if d.Outcome != want {
		e.t.Fatalf("outcome = %s, want %s", d.Outcome, want)
	}
	if want == approvals.ApprovalRequired {
		if d.Approval == nil || !strings.HasPrefix(d.Approval.ID, "apr_") || !matchCode.MatchString(d.Approval.MatchCode) {
			e.t.Fatalf("approval_required without a proper approval: %+v", d.Approval)
		}
	}
	return d
}

// decide answers a pending request as the user does: a grant tier or a
// denial on the node (Decide), a raw_read or send approval on the phone
// (Answer, over the prompt the node built).
func (e *env) decide(idOrCode string, approve bool) approvals.Approval {
	e.t.Helper()
	ctx := context.Background()
	a, err := e.m.Decide(ctx, idOrCode, approve)
	if errors.Is(err, approvals.ErrPhoneOnly) {
		var p approvals.Approval
		if p, err = e.m.Get(ctx, idOrCode); err == nil {
			a, err = e.m.Answer(ctx, idOrCode, approvals.Approve, p.PromptHash())
		}
	}
	if err != nil {
		e.t.Fatalf("Decide(%s, %v): %v", idOrCode, approve, err)
	}
	return a
}

var matchCode = regexp.MustCompile(`^[ACDEFHJKMNPQRTUVWXY34679]{3}-[ACDEFHJKMNPQRTUVWXY34679]{3}$`)

func TestTierGrant(t *testing.T) {
	e := newEnv(t)
	const ag = "agent.example.com"
	d := e.want(e.call(ag, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
	// A retry while pending, even of another tool of the tier, is the same
	// request: the user sees one prompt.
	d2 := e.want(e.call(ag, keyA, "order_status", approvals.StructuredRead, `{"merchant":"x"}`), approvals.ApprovalRequired)
	if d2.Approval.ID != d.Approval.ID || d2.Approval.MatchCode != d.Approval.MatchCode {
		t.Fatalf("duplicate request got a new approval: %s/%s vs %s/%s", d2.Approval.ID, d2.Approval.MatchCode, d.Approval.ID, d.Approval.MatchCode)
	}
	if p, _ := e.m.Pending(context.Background()); len(p) != 1 {
		t.Fatalf("Pending() = %d requests, want 1", len(p))
	}

	// The match code decides, written as the user might type it.
	e.decide(strings.ToLower(strings.ReplaceAll(d.Approval.MatchCode, "-", "")), true)
	e.want(e.call(ag, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.Allowed)
	e.want(e.call(ag, keyA, "order_status", approvals.StructuredRead, `{}`), approvals.Allowed)
	// The grant covers one tier and one agent.
	e.want(e.call(ag, keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)
	e.want(e.call("other.example.org", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)

	if _, err := e.m.Decide(context.Background(), d.Approval.ID, true); !errors.Is(err, approvals.ErrNotPending) {
		t.Errorf("deciding twice: err = %v, want ErrNotPending", err)
	}
	gs := e.m.Grants()
	if len(gs) != 1 || gs[0].Domain != ag || gs[0].KeyFP != keyA || gs[0].Tier != approvals.StructuredRead {
		t.Fatalf("Grants() = %+v", gs)
	}
	if got := gs[0].ExpiresAt.Sub(gs[0].GrantedAt); got != 90*24*time.Hour {
		t.Errorf("grant lasts %v, want 90 days", got)
	}

	// Grants survive a restart of the node.
	e.restart()
	e.want(e.call(ag, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.Allowed)

	// ... and lapse after their time.
	e.clock.add(90*24*time.Hour + time.Second)
	e.want(e.call(ag, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
}

func TestKeyChangeNeedsApproval(t *testing.T) {
	e := newEnv(t)
	const ag = "agent.example.com"
	d := e.want(e.call(ag, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
	e.decide(d.Approval.ID, true)
	e.want(e.call(ag, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.Allowed)

	d = e.want(e.call(ag, keyB, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
	if d.Approval.KeyFP != keyB {
		t.Fatalf("approval for key %s, want %s", d.Approval.KeyFP, keyB)
	}
	// The old key keeps working until the new one is approved...
	e.want(e.call(ag, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.Allowed)
	e.decide(d.Approval.ID, true)
	// ... and the grant then moves to the new key.
	e.want(e.call(ag, keyB, "bills_due", approvals.StructuredRead, `{}`), approvals.Allowed)
	e.want(e.call(ag, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
}

func TestPerCallApproval(t *testing.T) {
	for _, tier := range []approvals.Tier{approvals.RawRead, approvals.Send} {
		t.Run(string(tier), func(t *testing.T) {
			e := newEnv(t)
			const ag = "agent.example.com"
			tool := map[approvals.Tier]string{approvals.RawRead: "get_excerpt", approvals.Send: "send_draft"}[tier]
			args := `{"message":"m1","query":"gate number"}`
			d := e.want(e.call(ag, keyA, tool, tier, args), approvals.ApprovalRequired)
			if d.Approval.Args != `{"message":"m1","query":"gate number"}` {
				t.Errorf("approval shows arguments %q", d.Approval.Args)
			}
			e.decide(d.Approval.ID, true)

			// Other arguments are another request.
			e.want(e.call(ag, keyA, tool, tier, `{"message":"m2","query":"gate number"}`), approvals.ApprovalRequired)
			// Another key is another request.
			e.want(e.call(ag, keyB, tool, tier, args), approvals.ApprovalRequired)
			// The same arguments spelled differently are the same call, and
			// run once.
			got := e.want(e.call(ag, keyA, tool, tier, ` { "query" : "gate number", "message":"m1" } `), approvals.Allowed)
			if got.Approval == nil || got.Approval.ID != d.Approval.ID {
				t.Fatalf("allowed call did not spend the approval: %+v", got.Approval)
			}
			d2 := e.want(e.call(ag, keyA, tool, tier, args), approvals.ApprovalRequired)
			if d2.Approval.ID == d.Approval.ID {
				t.Fatal("a spent approval was offered again")
			}
			// No standing grant ever comes of it.
			if gs := e.m.Grants(); len(gs) != 0 {
				t.Fatalf("Grants() = %+v, want none", gs)
			}
		})
	}
}

// An approved send is spent by exactly one of many simultaneous retries.
func TestPerCallApprovalSingleUse(t *testing.T) {
	e := newEnv(t)
	const ag = "agent.example.com"
	d := e.want(e.call(ag, keyA, "send_draft", approvals.Send, `{"draft_id":"d_1"}`), approvals.ApprovalRequired)
	e.decide(d.Approval.ID, true)
	var wg sync.WaitGroup
	var allowed atomic.Int64
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := e.m.Request(context.Background(), approvals.Call{Domain: ag, KeyFP: keyA, Tool: "send_draft", Tier: approvals.Send, Args: json.RawMessage(`{"draft_id":"d_1"}`)})
			if err != nil {
				t.Error(err)
				return
			}
			if d.Outcome == approvals.Allowed {
				allowed.Add(1)
			}
		}()
	}
	wg.Wait()
	if allowed.Load() != 1 {
		t.Fatalf("%d calls ran on one approval, want 1", allowed.Load())
	}
}

// TestQueuedCalls: a call from the relay's offline queue opens the prompt
// like a live one, is never allowed to run (queued_not_run where a live
// call would run), and does not spend an approved send, which the live
// retry then spends.
func TestQueuedCalls(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const ag = "agent.example.com"
	queued := func(tool string, tier approvals.Tier, args string) approvals.Decision {
		t.Helper()
		d, err := e.m.Request(ctx, approvals.Call{Domain: ag, KeyFP: keyA, Tool: tool, Tier: tier, Args: json.RawMessage(args), Queued: true})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := e.want(queued("send_draft", approvals.Send, `{"draft_id":"d_1"}`), approvals.ApprovalRequired)
	if again := e.want(e.call(ag, keyA, "send_draft", approvals.Send, `{"draft_id":"d_1"}`), approvals.ApprovalRequired); again.Approval.ID != d.Approval.ID {
		t.Fatal("the live call opened a second prompt for the queued one's")
	}
	e.decide(d.Approval.ID, true)
	e.want(queued("send_draft", approvals.Send, `{"draft_id":"d_1"}`), approvals.QueuedNotRun)
	e.want(queued("send_draft", approvals.Send, `{"draft_id":"d_1"}`), approvals.QueuedNotRun)
	e.want(e.call(ag, keyA, "send_draft", approvals.Send, `{"draft_id":"d_1"}`), approvals.Allowed)
	e.want(e.call(ag, keyA, "send_draft", approvals.Send, `{"draft_id":"d_1"}`), approvals.ApprovalRequired)

	g := e.want(queued("bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
	e.decide(g.Approval.ID, true)
	e.want(queued("bills_due", approvals.StructuredRead, `{}`), approvals.QueuedNotRun)
	e.want(e.call(ag, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.Allowed)
}

func TestExpiryAndDenial(t *testing.T) {
	e := newEnv(t)
	const ag = "agent.example.com"
	d := e.want(e.call(ag, keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)

	// Unanswered for ten minutes: the request lapses and a new call asks
	// again, with a new code.
	e.clock.add(10*time.Minute + time.Second)
	if _, err := e.m.Decide(context.Background(), d.Approval.ID, true); !errors.Is(err, approvals.ErrNotPending) {
		t.Fatalf("deciding an expired request: err = %v, want ErrNotPending", err)
	}
	d2 := e.want(e.call(ag, keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)
	if d2.Approval.ID == d.Approval.ID {
		t.Fatal("expired request reused")
	}

	// Refused: the same call is answered approval_denied, without a new
	// prompt, for an hour.
	e.decide(d2.Approval.ID, false)
	e.want(e.call(ag, keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalDenied)
	e.clock.add(59 * time.Minute)
	e.want(e.call(ag, keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalDenied)
	if p, _ := e.m.Pending(context.Background()); len(p) != 0 {
		t.Fatalf("a denied request left %d prompts", len(p))
	}
	e.clock.add(2 * time.Minute)
	e.want(e.call(ag, keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)

	// An approved send not retried in time lapses too.
	d = e.want(e.call(ag, keyA, "send_draft", approvals.Send, `{"draft_id":"d_9"}`), approvals.ApprovalRequired)
	e.decide(d.Approval.ID, true)
	e.clock.add(11 * time.Minute)
	e.want(e.call(ag, keyA, "send_draft", approvals.Send, `{"draft_id":"d_9"}`), approvals.ApprovalRequired)
}

func TestRevokeAndBlock(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const ag = "agent.example.com"
	for _, c := range []struct {
		tool string
		tier approvals.Tier
	}{{"bills_due", approvals.StructuredRead}, {"ask", approvals.FreeFormRead}} {
		d := e.want(e.call(ag, keyA, c.tool, c.tier, `{}`), approvals.ApprovalRequired)
		e.decide(d.Approval.ID, true)
	}
	if n, err := e.m.Revoke(ctx, ag, approvals.FreeFormRead); n != 1 || err != nil {
		t.Fatalf("Revoke = %d, %v", n, err)
	}
	e.want(e.call(ag, keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)
	e.want(e.call(ag, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.Allowed)

	if err := e.m.Block(ctx, ag); err != nil {
		t.Fatal(err)
	}
	e.restart()
	for _, tier := range []approvals.Tier{approvals.StructuredRead, approvals.FreeFormRead, approvals.Send} {
		e.want(e.call(ag, keyA, "x", tier, `{}`), approvals.AgentBlocked)
	}
	if p, _ := e.m.Pending(ctx); len(p) != 0 {
		t.Fatalf("blocked agent has %d open requests", len(p))
	}
	if err := e.m.Unblock(ctx, ag); err != nil {
		t.Fatal(err)
	}
	// Unblocking does not bring grants back.
	e.want(e.call(ag, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
}

func TestTooManyPending(t *testing.T) {
	e := newEnv(t)
	const ag = "spammy.example.com"
	for i := range 5 {
		e.want(e.call(ag, keyA, "get_excerpt", approvals.RawRead, `{"n":`+string(rune('0'+i))+`}`), approvals.ApprovalRequired)
	}
	e.want(e.call(ag, keyA, "get_excerpt", approvals.RawRead, `{"n":9}`), approvals.TooManyPending)
	// Other agents, under other registrable domains, are not affected.
	e.want(e.call("polite.example.org", keyA, "get_excerpt", approvals.RawRead, `{}`), approvals.ApprovalRequired)
}

// An agent whose prompts the user refuses or lets lapse may open only so
// many in an hour, MaxPending at a time or not; merged retries are free.
func TestTooManyPrompts(t *testing.T) {
	e := newEnv(t)
	const ag = "pushy.example.com"
	for i := range 30 {
		d := e.want(e.call(ag, keyA, "get_excerpt", approvals.RawRead, fmt.Sprintf(`{"n":%d}`, i)), approvals.ApprovalRequired)
		// A retry of an open request is the same prompt, not a new one.
		e.want(e.call(ag, keyA, "get_excerpt", approvals.RawRead, fmt.Sprintf(`{"n":%d}`, i)), approvals.ApprovalRequired)
		e.decide(d.Approval.ID, false)
		e.clock.add(time.Minute)
	}
	// 30 prompts from minute 0 to 29; now is minute 30.
	d := e.want(e.call(ag, keyA, "get_excerpt", approvals.RawRead, `{"n":99}`), approvals.TooManyPrompts)
	if d.RetryAfter != 30*time.Minute {
		t.Errorf("RetryAfter = %v, want 30m (when the first prompt leaves the hour)", d.RetryAfter)
	}
	e.want(e.call("polite.example.org", keyA, "get_excerpt", approvals.RawRead, `{}`), approvals.ApprovalRequired)
	e.clock.add(d.RetryAfter)
	e.want(e.call(ag, keyA, "get_excerpt", approvals.RawRead, `{"n":99}`), approvals.ApprovalRequired)
	e.want(e.call(ag, keyA, "get_excerpt", approvals.RawRead, `{"n":100}`), approvals.TooManyPrompts)
}

// TestPhoneOnly (hardening item 17): a raw_read or send request is
// approved on a paired phone only; the node's own Decide may deny it.
func TestPhoneOnly(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for _, tier := range []approvals.Tier{approvals.RawRead, approvals.Send} {
		d := e.want(e.call("agent.example.com", keyA, "tool", tier, `{"n":1}`), approvals.ApprovalRequired)
		if _, err := e.m.Decide(ctx, d.Approval.MatchCode, true); !errors.Is(err, approvals.ErrPhoneOnly) {
			t.Errorf("Decide(%s, approve) = %v, want ErrPhoneOnly", tier, err)
		}
		e.want(e.call("agent.example.com", keyA, "tool", tier, `{"n":1}`), approvals.ApprovalRequired)
		if a, err := e.m.Decide(ctx, d.Approval.MatchCode, false); err != nil || a.State != approvals.Denied {
			t.Errorf("Decide(%s, deny) = %+v, %v", tier, a, err)
		}
	}
}

// TestSiteLimits (hardening item 5): blocks, pending caps and prompts per
// hour hold for a registrable domain as for one agent domain, so that
// a.evil.example, b.evil.example, ... do not each start fresh; and the
// pending requests of all agents are capped together.
func TestSiteLimits(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	sub := func(i int) string { return fmt.Sprintf("a%d.evil.example", i) }
	for i := range 5 {
		e.want(e.call(sub(i), keyA, "get_excerpt", approvals.RawRead, `{}`), approvals.ApprovalRequired)
	}
	e.want(e.call(sub(5), keyA, "get_excerpt", approvals.RawRead, `{}`), approvals.TooManyPending)
	e.want(e.call("x.evil.co.uk", keyA, "get_excerpt", approvals.RawRead, `{}`), approvals.ApprovalRequired)

	// Prompts per hour, across subdomains.
	for _, p := range must(e.m.Pending(ctx)) {
		e.decide(p.ID, false)
	}
	for i := 5; i < 29; i++ {
		d := e.want(e.call(sub(i), keyA, "get_excerpt", approvals.RawRead, `{}`), approvals.ApprovalRequired)
		e.decide(d.Approval.ID, false)
	}
	e.want(e.call(sub(29), keyA, "get_excerpt", approvals.RawRead, `{}`), approvals.ApprovalRequired)
	e.want(e.call(sub(30), keyA, "get_excerpt", approvals.RawRead, `{}`), approvals.TooManyPrompts)

	// Blocking the registrable domain blocks every agent under it, new
	// ones too, and withdraws their open requests; others go on.
	e.want(e.call("agent.evil.example", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.TooManyPrompts)
	if err := e.m.Block(ctx, "*.a1.evil.example"); err != nil { // "*." and any name: its site
		t.Fatal(err)
	}
	for _, d := range []string{"a1.evil.example", "evil.example", "brand.new.evil.example"} {
		e.want(e.call(d, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.AgentBlocked)
	}
	for _, p := range must(e.m.Pending(ctx)) {
		if p.Site == "evil.example" {
			t.Errorf("a blocked site's request is still pending: %+v", p)
		}
	}
	e.want(e.call("x.evil.co.uk", keyB, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
	if got := e.m.Blocked(); len(got) != 1 || got[0] != "*.evil.example" {
		t.Errorf("Blocked() = %v", got)
	}
	e.restart()
	e.want(e.call("other.evil.example", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.AgentBlocked)
	if err := e.m.Unblock(ctx, "*.evil.example"); err != nil {
		t.Fatal(err)
	}
	e.clock.add(time.Hour)
	e.want(e.call("other.evil.example", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
}

// TestHostedSites (issue 40 item 7): under a hosting suffix (the relay's
// agents zone, or one the node is told of) each label is a site of its
// own, so one hosted agent's pending requests, prompts per hour and block
// leave another's alone; two subdomains of an ordinary domain still share
// them. Each limit is tried on a fresh node.
func TestHostedSites(t *testing.T) {
	args := func(i int) string { return fmt.Sprintf(`{"n":%d}`, i) }
	limits := []struct {
		name string
		// fill has a reach its site's limit (or be blocked with its
		// site) and returns what b's first request then gets when it
		// shares a's site.
		fill func(e *env, a string) approvals.Outcome
	}{
		{"5 pending requests", func(e *env, a string) approvals.Outcome {
			for i := range 5 {
				e.want(e.call(a, keyA, "get_excerpt", approvals.RawRead, args(i)), approvals.ApprovalRequired)
			}
			e.want(e.call(a, keyA, "get_excerpt", approvals.RawRead, args(5)), approvals.TooManyPending)
			return approvals.TooManyPending
		}},
		{"30 prompts in an hour", func(e *env, a string) approvals.Outcome {
			for i := range 29 { // the hour's first was the bills_due request
				d := e.want(e.call(a, keyA, "get_excerpt", approvals.RawRead, args(i)), approvals.ApprovalRequired)
				e.decide(d.Approval.ID, false)
			}
			e.want(e.call(a, keyA, "get_excerpt", approvals.RawRead, args(29)), approvals.TooManyPrompts)
			return approvals.TooManyPrompts
		}},
		{"block from the phone", func(e *env, a string) approvals.Outcome {
			d := e.want(e.call(a, keyA, "get_excerpt", approvals.RawRead, args(0)), approvals.ApprovalRequired)
			if _, err := e.m.Answer(context.Background(), d.Approval.ID, approvals.DenyAndBlockSite, d.Approval.PromptHash()); err != nil {
				e.t.Fatal(err)
			}
			e.want(e.call(a, keyA, "get_excerpt", approvals.RawRead, args(1)), approvals.AgentBlocked)
			if want := "*." + d.Approval.Site; !slices.Contains(e.m.Blocked(), want) {
				e.t.Errorf("Blocked() = %q, want %s in it", e.m.Blocked(), want)
			}
			return approvals.AgentBlocked
		}},
	}
	for _, pair := range []struct {
		a, b, siteA string
		shared      bool
	}{
		{"k1.agents.relay.example", "k2.agents.relay.example", "k1.agents.relay.example", false},
		{"x.k3.agents.relay.example", "k4.agents.relay.example", "k3.agents.relay.example", false},
		{"a.hosting.example", "b.hosting.example", "a.hosting.example", false},
		{"a.evil.example", "b.evil.example", "evil.example", true},
	} {
		for _, l := range limits {
			t.Run(l.name+" "+pair.a+" "+pair.b, func(t *testing.T) {
				sites, err := site.New("agents.relay.example", "hosting.example")
				if err != nil {
					t.Fatal(err)
				}
				e := newEnvWith(t, approvals.Config{Sites: sites})
				d := e.want(e.call(pair.a, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
				if d.Approval.Site != pair.siteA {
					t.Errorf("request site = %q, want %q", d.Approval.Site, pair.siteA)
				}
				e.decide(d.Approval.ID, true)
				sharedOutcome := l.fill(e, pair.a)
				want := approvals.ApprovalRequired
				if pair.shared {
					want = sharedOutcome
				}
				if got := e.call(pair.b, keyB, "get_excerpt", approvals.RawRead, args(0)).Outcome; got != want {
					t.Errorf("%s after %s's %s: %s, want %s", pair.b, pair.a, l.name, got, want)
				}
			})
		}
	}

	// The relay's zone named with "*." blocks every hosted agent: what
	// the user asks for.
	sites, _ := site.New("agents.relay.example", "hosting.example")
	e := newEnvWith(t, approvals.Config{Sites: sites})
	if err := e.m.Block(context.Background(), "*.agents.relay.example"); err != nil {
		t.Fatal(err)
	}
	e.want(e.call("k9.agents.relay.example", keyB, "bills_due", approvals.StructuredRead, `{}`), approvals.AgentBlocked)
	e.want(e.call("c.hosting.example", keyB, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
}

// TestSiteBlockNeverLoosens: a site block made before the node knew a
// hosting suffix (all of relay.example) still covers the hosted agents
// under it after, and is lifted as it is listed.
func TestSiteBlockNeverLoosens(t *testing.T) {
	sites, _ := site.New()
	e := newEnvWith(t, approvals.Config{Sites: sites})
	ctx := context.Background()
	if err := e.m.Block(ctx, "*.k1.agents.relay.example"); err != nil {
		t.Fatal(err)
	}
	if got := e.m.Blocked(); len(got) != 1 || got[0] != "*.relay.example" {
		t.Fatalf("Blocked() = %q, want [*.relay.example]", got)
	}
	if err := sites.Add("agents.relay.example"); err != nil {
		t.Fatal(err)
	}
	e.restart()
	e.want(e.call("k2.agents.relay.example", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.AgentBlocked)
	e.want(e.call("node.relay.example", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.AgentBlocked)
	if err := e.m.Unblock(ctx, "*.relay.example"); err != nil {
		t.Fatal(err)
	}
	e.want(e.call("k2.agents.relay.example", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)

	// A block of a hosted agent's site, listed as made, is lifted so
	// even after the suffix is forgotten (a node without its relay).
	if err := e.m.Block(ctx, "*.k3.agents.relay.example"); err != nil {
		t.Fatal(err)
	}
	e.cfg.Sites = nil
	e.restart()
	e.want(e.call("k3.agents.relay.example", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.AgentBlocked)
	if err := e.m.Unblock(ctx, "*.k3.agents.relay.example"); err != nil {
		t.Fatal(err)
	}
	if got := e.m.Blocked(); len(got) != 0 {
		t.Fatalf("Blocked() after Unblock = %q", got)
	}
}

// TestPendingTotal: the pending requests of all agents together are
// capped, however many registrable domains they come from.
func TestPendingTotal(t *testing.T) {
	e := newEnv(t)
	for i := range 50 {
		e.want(e.call(fmt.Sprintf("agent.site%d.example", i), keyA, "get_excerpt", approvals.RawRead, `{}`), approvals.ApprovalRequired)
	}
	e.want(e.call("agent.site50.example", keyA, "get_excerpt", approvals.RawRead, `{}`), approvals.TooManyPending)
}

// TestStrangersCannotStarveGrantedAgents (issue 40 F3): ten strangers'
// sites, each at its 5 pending requests, fill what strangers may hold
// (the 50 of MaxPendingTotal; half of it, 25, for hosted names, which a
// relay gives anyone for free). An agent that holds a grant is counted
// apart: it still gets its prompts for raw_read, send and a new tier,
// within its own cap of 5; so does a stranger in its site not take its
// room. A brand-new agent asks among strangers: on a domain of its own
// that asked nothing this hour it is refused only once strangers hold
// all 50 (a site that did ask, from 40: the fresh share), a new hosted
// agent once hosted strangers hold their 25; either asks again once
// their prompts lapse.
func TestStrangersCannotStarveGrantedAgents(t *testing.T) {
	args := func(i int) string { return fmt.Sprintf(`{"query":"hotel %d"}`, i) }
	for _, tc := range []struct {
		name     string
		stranger func(i int) string
		opened   int               // stranger prompts that open, x.example.com's 5 with them
		newcomer approvals.Outcome // a new agent on a domain of its own
	}{
		{"hosted strangers", func(i int) string { return fmt.Sprintf("s%d.agents.relay.example", i) }, 5 + 25, approvals.ApprovalRequired},
		// Past 40 (the fresh share), a domain that asked this hour is
		// refused: evil7..evil9 get their first prompt each, and the
		// newcomer its own.
		{"strangers' domains", func(i int) string { return fmt.Sprintf("agent.evil%d.example", i) }, 43, approvals.ApprovalRequired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sites, err := site.New("agents.relay.example")
			if err != nil {
				t.Fatal(err)
			}
			e := newEnvWith(t, approvals.Config{Sites: sites})
			ctx := context.Background()
			const friend, hostedFriend = "friend.example.com", "k0.agents.relay.example"
			for _, g := range []struct{ domain, key, tool string }{
				{friend, keyA, "bills_due"}, {hostedFriend, keyB, "create_draft"},
			} {
				tier := approvals.StructuredRead
				if g.tool == "create_draft" {
					tier = approvals.Compose
				}
				d := e.want(e.call(g.domain, g.key, g.tool, tier, `{}`), approvals.ApprovalRequired)
				e.decide(d.Approval.ID, true)
			}
			// A stranger in the friend's site fills the site's cap for
			// strangers, not for the friend.
			for i := range 5 {
				e.want(e.call("x.example.com", keyB, "get_excerpt", approvals.RawRead, args(i)), approvals.ApprovalRequired)
			}
			e.want(e.call("y.example.com", keyB, "get_excerpt", approvals.RawRead, args(0)), approvals.TooManyPending)

			opened := 5 // x.example.com's
			for i := range 10 {
				for _, c := range []struct {
					tool string
					tier approvals.Tier
					args string
				}{
					{"bills_due", approvals.StructuredRead, `{}`}, {"ask", approvals.FreeFormRead, `{"question":"when"}`},
					{"create_draft", approvals.Compose, `{}`}, {"get_excerpt", approvals.RawRead, args(1)}, {"get_excerpt", approvals.RawRead, args(2)},
				} {
					switch d := e.call(tc.stranger(i), keyA, c.tool, c.tier, c.args); d.Outcome {
					case approvals.ApprovalRequired:
						opened++
					case approvals.TooManyPending:
					default:
						t.Fatalf("stranger %s's %s = %s", tc.stranger(i), c.tool, d.Outcome)
					}
				}
			}
			t.Logf("strangers opened %d prompts", opened)

			// (a) The agents the person let in still ask, for every tier.
			for _, c := range []struct {
				domain, key, tool string
				tier              approvals.Tier
			}{
				{friend, keyA, "get_excerpt", approvals.RawRead},
				{friend, keyA, "send_draft", approvals.Send},
				{friend, keyA, "ask", approvals.FreeFormRead},
				{hostedFriend, keyB, "get_excerpt", approvals.RawRead},
				{hostedFriend, keyB, "send_draft", approvals.Send},
			} {
				if got := e.call(c.domain, c.key, c.tool, c.tier, args(7)).Outcome; got != approvals.ApprovalRequired {
					t.Errorf("%s (holding a grant) %s with the strangers' prompts open = %s, want approval_required", c.domain, c.tool, got)
				}
			}
			// Within its own cap: 5 open, then too_many_pending.
			e.want(e.call(friend, keyA, "get_excerpt", approvals.RawRead, args(8)), approvals.ApprovalRequired)
			e.want(e.call(friend, keyA, "get_excerpt", approvals.RawRead, args(9)), approvals.ApprovalRequired)
			e.want(e.call(friend, keyA, "get_excerpt", approvals.RawRead, args(10)), approvals.TooManyPending)
			// The friend's domain with a key the person did not grant is
			// a stranger.
			e.want(e.call(hostedFriend, keyA, "get_excerpt", approvals.RawRead, args(11)), approvals.TooManyPending)

			// (b) A brand-new agent asks among the strangers.
			if got := e.call("honest.example.org", keyA, "bills_due", approvals.StructuredRead, `{}`).Outcome; got != tc.newcomer {
				t.Errorf("new agent on its own domain = %s, want %s", got, tc.newcomer)
			}
			e.want(e.call("k99.agents.relay.example", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.TooManyPending)
			if tc.opened == 43 {
				// The reserve holds one prompt per new domain, up to 50
				// strangers in all; the newcomer's second waits.
				e.want(e.call("honest.example.org", keyA, "ask", approvals.FreeFormRead, `{"question":"when"}`), approvals.TooManyPending)
				for i := range 7 {
					want := approvals.ApprovalRequired
					if i == 6 {
						want = approvals.TooManyPending
					}
					e.want(e.call(fmt.Sprintf("agent.fresh%d.example", i), keyA, "bills_due", approvals.StructuredRead, `{}`), want)
				}
			}
			if opened != tc.opened {
				t.Errorf("strangers opened %d prompts, want %d", opened, tc.opened)
			}
			pending := must(e.m.Pending(ctx))
			if max := 50 + 2*5; len(pending) > max {
				t.Errorf("%d pending requests, want at most %d", len(pending), max)
			}
			e.clock.add(10*time.Minute + time.Second)
			e.want(e.call("k99.agents.relay.example", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
		})
	}
}

// TestStrangerInSiteCannotStarveGrantedAgent (issue 40 F3): a stranger
// under the site of an agent that holds a grant (another subdomain, or a
// name under a host the Public Suffix List does not know) spends the
// site's prompts of the hour and its pending cap for strangers; the
// granted agent's own count is apart.
func TestStrangerInSiteCannotStarveGrantedAgent(t *testing.T) {
	e := newEnv(t)
	const friend = "friend.example.com"
	d := e.want(e.call(friend, keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
	e.decide(d.Approval.ID, true)
	for i := range 29 { // the hour's first was the friend's
		d := e.want(e.call("x.example.com", keyB, "get_excerpt", approvals.RawRead, fmt.Sprintf(`{"n":%d}`, i)), approvals.ApprovalRequired)
		e.decide(d.Approval.ID, false)
	}
	e.want(e.call("y.example.com", keyB, "get_excerpt", approvals.RawRead, `{}`), approvals.TooManyPrompts)
	if got := e.call(friend, keyA, "get_excerpt", approvals.RawRead, `{}`).Outcome; got != approvals.ApprovalRequired {
		t.Fatalf("%s (holding a grant) after a stranger spent its site's hour = %s, want approval_required", friend, got)
	}
	// The friend's own hour still holds: 30 of its site's granted agents.
	for i := range 28 {
		d := e.want(e.call(friend, keyA, "get_excerpt", approvals.RawRead, fmt.Sprintf(`{"m":%d}`, i)), approvals.ApprovalRequired)
		e.decide(d.Approval.ID, false)
	}
	e.want(e.call(friend, keyA, "get_excerpt", approvals.RawRead, `{"m":99}`), approvals.TooManyPrompts)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A request made before a restart can be decided after it.
func TestPendingSurvivesRestart(t *testing.T) {
	e := newEnv(t)
	d := e.want(e.call("agent.example.com", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
	e.restart()
	e.decide(d.Approval.MatchCode, true)
	e.want(e.call("agent.example.com", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.Allowed)
}

func TestAudit(t *testing.T) {
	e := newEnv(t)
	const ag = "agent.example.com"
	secret := `{"query":"the wifi password is hunter2"}`
	d := e.want(e.call(ag, keyA, "get_excerpt", approvals.RawRead, secret), approvals.ApprovalRequired)
	e.decide(d.Approval.ID, true)
	e.want(e.call(ag, keyA, "get_excerpt", approvals.RawRead, secret), approvals.Allowed)
	e.restart() // Close flushes what is buffered

	log, err := e.m.Audit(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 2 {
		t.Fatalf("Audit() = %d entries, want 2", len(log))
	}
	if log[0].Decision != approvals.Allowed || log[1].Decision != approvals.ApprovalRequired {
		t.Errorf("decisions newest first = %s, %s", log[0].Decision, log[1].Decision)
	}
	for _, l := range log {
		if l.Domain != ag || l.KeyFP != keyA || l.Tool != "get_excerpt" || l.Tier != approvals.RawRead || l.ApprovalID != d.Approval.ID {
			t.Errorf("entry %+v", l)
		}
	}
	b, _ := json.Marshal(log)
	if strings.Contains(string(b), "hunter2") {
		t.Fatal("audit log holds call arguments")
	}
}

func TestSubscribe(t *testing.T) {
	e := newEnv(t)
	ch, cancel := e.m.Subscribe()
	defer cancel()
	d := e.want(e.call("agent.example.com", keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)
	ev := <-ch
	if ev.Kind != "pending" || ev.Approval.ID != d.Approval.ID {
		t.Fatalf("event %+v", ev)
	}
	e.decide(d.Approval.ID, false)
	if ev := <-ch; ev.Kind != "decided" || ev.Approval.State != approvals.Denied {
		t.Fatalf("event %+v", ev)
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{``, `{}`},
		{`null`, `{}`},
		{` {"b":1, "a":[2, 1.50, "x"]} `, `{"a":[2,1.50,"x"],"b":1}`},
		{`{"a":{"d":1,"c":true}}`, `{"a":{"c":true,"d":1}}`},
		{`{"s":"\u00e9<"}`, `{"s":"é\u003c"}`},
	}
	for _, tt := range tests {
		got, err := approvals.Canonical(json.RawMessage(tt.in))
		if err != nil || string(got) != tt.want {
			t.Errorf("Canonical(%s) = %s, %v, want %s", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`{`, `{} {}`, `{"a":}`} {
		if _, err := approvals.Canonical(json.RawMessage(bad)); err == nil {
			t.Errorf("Canonical(%s) accepted", bad)
		}
	}
}

// slowWrites is a File whose writes, once armed, announce themselves and
// then take a while, as on a busy disk.
type slowWrites struct {
	approvals.File
	armed   atomic.Bool
	started chan struct{}
}

func (f *slowWrites) WriteTx(ctx context.Context, fn func(*sql.Tx) error) error {
	if f.armed.Load() {
		select {
		case f.started <- struct{}{}:
		default:
		}
		time.Sleep(300 * time.Millisecond)
	}
	return f.File.WriteTx(ctx, fn)
}

// TestAuditSeesBatchInFlight: Audit returns a call made just before it
// even while the writer's timed flush is writing that call's batch (the
// desktop app's activity window reads it so, right after the calls).
func TestAuditSeesBatchInFlight(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tables, err := st.Attach(ctx, "approvals", approvals.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	file := &slowWrites{File: tables, started: make(chan struct{}, 1)}
	m, err := approvals.New(ctx, file, approvals.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	const ag = "agent.example.com"
	req := approvals.Call{Domain: ag, KeyFP: keyA, Tool: "bills_due", Tier: approvals.StructuredRead, Args: json.RawMessage(`{}`)}
	d, err := m.Request(ctx, req)
	if err != nil || d.Outcome != approvals.ApprovalRequired {
		t.Fatalf("first call = %+v, %v", d, err)
	}
	if _, err := m.Decide(ctx, d.Approval.ID, true); err != nil {
		t.Fatal(err)
	}
	file.armed.Store(true)
	calls, raced := 1, 0
	// A call's entry may be flushed before Request returns; then no write
	// is in flight to race with, and the next call tries again.
	for try := 0; try < 10 && raced < 3; try++ {
		if d, err := m.Request(ctx, req); err != nil || d.Outcome != approvals.Allowed {
			t.Fatalf("call under the grant = %+v, %v", d, err)
		}
		calls++
		select {
		case <-file.started:
		case <-time.After(3 * time.Second):
			continue
		}
		raced++
		log, err := m.Audit(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != calls {
			t.Fatalf("Audit() during the writer's flush = %d entries, want %d", len(log), calls)
		}
	}
	if raced == 0 {
		t.Fatal("no flush was ever in flight when Audit ran")
	}
}

// TestAlsoTiers covers a request for several grant tiers under one prompt
// (Call.Also, an OAuth client's consent): one match code, and approving it
// grants each tier with the key that asked, and survives a restart.
func TestAlsoTiers(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	const cl = "client.example"
	tests := []struct {
		name string
		call approvals.Call
	}{
		{"per-call tier", approvals.Call{Domain: cl, KeyFP: keyA, Tool: "x", Tier: approvals.RawRead, Also: []approvals.Tier{approvals.Compose}}},
		{"per-call also", approvals.Call{Domain: cl, KeyFP: keyA, Tool: "x", Tier: approvals.StructuredRead, Also: []approvals.Tier{approvals.Send}}},
		{"unknown also", approvals.Call{Domain: cl, KeyFP: keyA, Tool: "x", Tier: approvals.StructuredRead, Also: []approvals.Tier{"root"}}},
	}
	for _, tc := range tests {
		if _, err := e.m.Request(ctx, tc.call); err == nil {
			t.Errorf("%s: Request(%+v) = nil error, want refused", tc.name, tc.call)
		}
	}
	d, err := e.m.Request(ctx, approvals.Call{Domain: cl, KeyFP: keyA, Tool: "oauth_consent", Tier: approvals.StructuredRead,
		Also: []approvals.Tier{approvals.FreeFormRead, approvals.Compose}, Details: "three tiers"})
	if err != nil || d.Outcome != approvals.ApprovalRequired {
		t.Fatalf("Request = %+v, %v", d, err)
	}
	if got, _ := e.m.Get(ctx, d.Approval.ID); !slices.Equal(got.Also, []approvals.Tier{approvals.FreeFormRead, approvals.Compose}) {
		t.Fatalf("Get(%s).Also = %v", d.Approval.ID, got.Also)
	}
	// The phone signs over the tiers it grants; other prompts are as before.
	if p := string(d.Approval.Prompt()); !strings.Contains(p, `"also_tiers":["free_form_read","compose"]`) {
		t.Errorf("prompt %s does not list the tiers", p)
	}
	if p := string(e.want(e.call("plain.example", keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired).Approval.Prompt()); strings.Contains(p, "also_tiers") {
		t.Errorf("another request's prompt %s lists also_tiers", p)
	}
	if e.m.HoldsGrantWith(cl, keyA) {
		t.Fatalf("HoldsGrantWith before approval = true")
	}
	e.decide(d.Approval.MatchCode, true)
	e.restart()
	if !e.m.HoldsGrantWith(cl, keyA) || e.m.HoldsGrantWith(cl, keyB) {
		t.Fatalf("HoldsGrantWith(keyA, keyB) after approval = %v, %v, want true, false", e.m.HoldsGrantWith(cl, keyA), e.m.HoldsGrantWith(cl, keyB))
	}
	for _, tier := range []approvals.Tier{approvals.StructuredRead, approvals.FreeFormRead, approvals.Compose} {
		e.want(e.call(cl, keyA, "any", tier, `{}`), approvals.Allowed)
	}
	// Another key (another consent) asks again.
	e.want(e.call(cl, keyB, "any", approvals.Compose, `{}`), approvals.ApprovalRequired)
}

// TestRegisteredClientsShare (outside attack 43, finding 2): registered
// OAuth clients ("dcr-…", free to make, a site each) that hold no grant
// hold a fifth of the strangers' room together, refused as node-wide; an
// OAuth consent (a new key each time) of a client identity holding a
// grant from an earlier consent is not a stranger's.
func TestRegisteredClientsShare(t *testing.T) {
	e := newEnv(t)
	consent := func(domain string, n int) approvals.Decision {
		t.Helper()
		d, err := e.m.Request(context.Background(), approvals.Call{Domain: domain, KeyFP: fmt.Sprintf("%sconsent%d", approvals.OAuthKeyPrefix, n),
			Tool: "oauth_connect", Tier: approvals.StructuredRead})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	// Connected earlier: a document client and a registered one.
	for i, c := range []string{"claude.ai", "dcr-friend"} {
		e.decide(e.want(consent(c, i), approvals.ApprovalRequired).Approval.ID, true)
	}
	opened := 0
	for i := range 4 {
		for j := range 5 {
			switch d := consent(fmt.Sprintf("dcr-evil%d", i), j); {
			case d.Outcome == approvals.ApprovalRequired:
				opened++
			case d.Outcome != approvals.TooManyPending || !d.NodeWide:
				t.Fatalf("registered stranger's consent = %+v, want too_many_pending, node-wide", d)
			}
		}
	}
	if opened != 10 {
		t.Errorf("registered strangers opened %d prompts, want 10", opened)
	}
	// Strangers on domains of their own fill the rest of the 50.
	for i := range 8 {
		for j := range 5 {
			if d := e.call(fmt.Sprintf("agent.s%d.example", i), keyA, "get_excerpt", approvals.RawRead, fmt.Sprintf(`{"n":%d}`, j)); d.Outcome != approvals.ApprovalRequired {
				if d.Outcome != approvals.TooManyPending || !d.NodeWide {
					t.Fatalf("stranger's prompt = %+v", d)
				}
			}
		}
	}
	tests := []struct {
		name, domain string
		want         approvals.Outcome
		nodeWide     bool
	}{
		{"connected document client asks again", "claude.ai", approvals.ApprovalRequired, false},
		{"connected registered client asks again", "dcr-friend", approvals.ApprovalRequired, false},
		{"new registered client", "dcr-new", approvals.TooManyPending, true},
		// The last fifth is for sites that asked nothing this hour: a
		// few domains asking in a loop, and registrations, cannot keep
		// out a client the person is connecting now.
		{"new document client", "new.example.org", approvals.ApprovalRequired, false},
		{"another document client of a site that asked this hour", "agent.s6.example", approvals.TooManyPending, true},
		{"one registration's own cap", "dcr-evil0", approvals.TooManyPending, false},
	}
	for i, tt := range tests {
		if d := consent(tt.domain, 100+i); d.Outcome != tt.want || d.NodeWide != tt.nodeWide {
			t.Errorf("%s: %s node-wide %v, want %s node-wide %v", tt.name, d.Outcome, d.NodeWide, tt.want, tt.nodeWide)
		}
	}
	// A signed agent's request of a connected client's domain with
	// another key is a stranger's: only consents count the grant.
	if d := e.call("claude.ai", keyA, "get_excerpt", approvals.RawRead, `{}`); d.Outcome != approvals.TooManyPending {
		t.Errorf("signed call of a connected client's domain = %s, want too_many_pending", d.Outcome)
	}
}
