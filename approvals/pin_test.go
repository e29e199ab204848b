package approvals_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"mailnode/approvals"
)

func (e *env) callPinned(domain, tool string, tier approvals.Tier, args, pin, details string) approvals.Decision {
	e.t.Helper()
	d, err := e.m.Request(context.Background(), approvals.Call{Domain: domain, KeyFP: keyA, Tool: tool,
		Tier: tier, Args: json.RawMessage(args), Pin: pin, Details: details})
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

// TestPinnedFoundByArguments: a pinned value (get_excerpt's excerpt
// hash) is stored with the request it was made with and handed back when
// the approved call runs, but the request is found by the agent, key,
// tool and arguments alone: what the call is answered, and under which
// approval id, is the same whatever the pin is now. A bound value
// (send_draft's message hash) is still part of the request.
func TestPinnedFoundByArguments(t *testing.T) {
	const args = `{"query":"Lufthansa booking confirmation"}`
	for _, tc := range []struct {
		name  string
		state approvals.State // the first request's, before the second call
		bind  bool            // bound (send_draft) rather than pinned
		pin2  string          // the second call's value
		want  approvals.Outcome
		same  bool   // the second call is answered with the first request
		bound string // Approval.Bound of the second answer
	}{
		{"pending, mail unchanged", approvals.Pending, false, "excerpt-sha256:OLD", approvals.ApprovalRequired, true, "excerpt-sha256:OLD"},
		{"pending, mail changed", approvals.Pending, false, "excerpt-sha256:NEW", approvals.ApprovalRequired, true, "excerpt-sha256:OLD"},
		{"denied, mail unchanged", approvals.Denied, false, "excerpt-sha256:OLD", approvals.ApprovalDenied, true, "excerpt-sha256:OLD"},
		{"denied, mail changed", approvals.Denied, false, "excerpt-sha256:NEW", approvals.ApprovalDenied, true, "excerpt-sha256:OLD"},
		{"approved, mail unchanged", approvals.Approved, false, "excerpt-sha256:OLD", approvals.Allowed, true, "excerpt-sha256:OLD"},
		// The tool is handed what the user approved, and finds it differs.
		{"approved, mail changed", approvals.Approved, false, "excerpt-sha256:NEW", approvals.Allowed, true, "excerpt-sha256:OLD"},
		// send_draft: another draft is another request.
		{"bound, pending, draft changed", approvals.Pending, true, "msg-NEW", approvals.ApprovalRequired, false, "msg-NEW"},
		{"bound, denied, draft changed", approvals.Denied, true, "msg-NEW", approvals.ApprovalRequired, false, "msg-NEW"},
		{"bound, approved, draft unchanged", approvals.Approved, true, "msg-OLD", approvals.Allowed, true, "msg-OLD"},
		{"bound, approved, draft changed", approvals.Approved, true, "msg-NEW", approvals.ApprovalRequired, false, "msg-NEW"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			call := func(v string) approvals.Decision {
				if tc.bind {
					return e.callBound("agent.example", "send_draft", approvals.Send, `{"draft_id":"d_1"}`, v, "Send this message:\n\nbody "+v)
				}
				return e.callPinned("agent.example", "get_excerpt", approvals.RawRead, args, v, "query: x\n\nexcerpt "+v)
			}
			first := e.want(call(map[bool]string{false: "excerpt-sha256:OLD", true: "msg-OLD"}[tc.bind]), approvals.ApprovalRequired)
			switch tc.state {
			case approvals.Approved:
				e.decide(first.Approval.ID, true)
			case approvals.Denied:
				e.decide(first.Approval.ID, false)
			}
			// A restart in between: the pin is kept with the request.
			e.restart()
			d := call(tc.pin2)
			if d.Outcome != tc.want {
				t.Fatalf("second call = %s, want %s", d.Outcome, tc.want)
			}
			if got := d.Approval.ID == first.Approval.ID; got != tc.same {
				t.Errorf("second call answered with the first request: %v, want %v", got, tc.same)
			}
			if d.Approval.Bound != tc.bound {
				t.Errorf("Bound = %q, want %q", d.Approval.Bound, tc.bound)
			}
			if tc.same && d.Approval.Details != first.Approval.Details {
				t.Errorf("details = %q, want the first prompt's %q", d.Approval.Details, first.Approval.Details)
			}
		})
	}
}

// TestPinnedExcerptNoOracle (an outside tester's attack, issue 41): a
// stranger agent the user refused polls the same get_excerpt query. Were
// the request found by the excerpt's hash, it would be told
// approval_denied while the mailbox's best excerpt stayed the same, and
// be asked anew (a new prompt, a new approval id) once a matching mail
// arrived: it would learn that the mail came, without any approval. The
// answer must be the same refusal, with no new prompt, until the denial
// lapses, and then a new prompt whether or not the mail changed.
func TestPinnedExcerptNoOracle(t *testing.T) {
	for _, mailChanges := range []bool{false, true} {
		e := newEnv(t)
		events, cancel := e.m.Subscribe()
		args := `{"query":"Lufthansa booking confirmation"}`
		call := func(pin string) approvals.Decision {
			return e.callPinned("stranger.example", "get_excerpt", approvals.RawRead, args, pin, "excerpt "+pin)
		}
		first := e.want(call("excerpt-sha256:OLD"), approvals.ApprovalRequired)
		e.decide(first.Approval.ID, false)
		pin := "excerpt-sha256:OLD"
		for i := range 5 {
			if mailChanges && i == 2 {
				pin = "excerpt-sha256:NEW" // a new mail now answers the query
			}
			d := call(pin)
			if d.Outcome != approvals.ApprovalDenied || d.Approval.ID != first.Approval.ID {
				t.Fatalf("mail changes %v, poll %d: %s %s, want approval_denied %s", mailChanges, i, d.Outcome, d.Approval.ID, first.Approval.ID)
			}
		}
		prompts := 0
		for len(events) > 0 {
			if ev := <-events; ev.Kind == "pending" {
				prompts++
			}
		}
		cancel()
		if prompts != 1 {
			t.Errorf("mail changes %v: %d prompts, want the first alone", mailChanges, prompts)
		}
		if p, err := e.m.Pending(context.Background()); err != nil || len(p) != 0 {
			t.Errorf("mail changes %v: pending %v %v", mailChanges, p, err)
		}
		// Once the denial lapses the same call asks again either way.
		e.clock.add(time.Hour + time.Second)
		d := e.want(call(pin), approvals.ApprovalRequired)
		if d.Approval.Bound != pin {
			t.Errorf("new request pinned to %q, want %q", d.Approval.Bound, pin)
		}
	}
}

// TestBoundAndPinned: a call cannot be both.
func TestBoundAndPinned(t *testing.T) {
	e := newEnv(t)
	_, err := e.m.Request(context.Background(), approvals.Call{Domain: "agent.example", KeyFP: keyA, Tool: "get_excerpt",
		Tier: approvals.RawRead, Args: json.RawMessage(`{}`), Bind: "a", Pin: "b"})
	if err == nil {
		t.Fatal("a call both bound and pinned was decided")
	}
}
