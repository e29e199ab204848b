package approvals_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"mailnode/approvals"
)

func (e *env) callBound(domain, tool string, tier approvals.Tier, args, bind, details string) approvals.Decision {
	e.t.Helper()
	d, err := e.m.Request(context.Background(), approvals.Call{Domain: domain, KeyFP: keyA, Tool: tool,
		Tier: tier, Args: json.RawMessage(args), Bind: bind, Details: details})
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

// TestAnswer covers a phone's decisions: bound to the prompt's hash,
// once, before expiry; deny-and-block blocks.
func TestAnswer(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	send := func(bind string) approvals.Decision {
		return e.callBound("agent.example", "send_draft", approvals.Send, `{"draft_id":"d_1"}`, bind, "To: a@example.org\nSubject: hi\n\nbody "+bind)
	}
	d := send("msg-1")
	if d.Outcome != approvals.ApprovalRequired {
		t.Fatalf("first send: %s", d.Outcome)
	}
	a := *d.Approval
	if !bytes.Equal(a.PromptHash(), d.Approval.PromptHash()) || a.Details == "" {
		t.Fatal("prompt not stable or without details")
	}
	stored, err := e.m.Get(ctx, a.ID)
	if err != nil || !bytes.Equal(stored.Prompt(), a.Prompt()) {
		t.Fatalf("stored prompt differs from the one sent: %v\n%s\n%s", err, stored.Prompt(), a.Prompt())
	}

	// The same draft id with another message is another request, with
	// another prompt: a decision over the first one's prompt is refused.
	other := send("msg-2")
	if other.Approval.ID == a.ID {
		t.Fatal("another message merged into the first request")
	}
	if _, err := e.m.Answer(ctx, other.Approval.ID, approvals.Approve, a.PromptHash()); !errors.Is(err, approvals.ErrPromptMismatch) {
		t.Fatalf("decision over another prompt: %v", err)
	}
	// A match code does not do for a phone: it names the request by id.
	if _, err := e.m.Answer(ctx, a.MatchCode, approvals.Approve, a.PromptHash()); !errors.Is(err, approvals.ErrNotFound) {
		t.Fatalf("answer by match code: %v", err)
	}
	if _, err := e.m.Answer(ctx, a.ID, approvals.Approve, a.PromptHash()); err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.Answer(ctx, a.ID, approvals.Approve, a.PromptHash()); !errors.Is(err, approvals.ErrNotPending) {
		t.Fatalf("replayed decision: %v", err)
	}
	if d := send("msg-1"); d.Outcome != approvals.Allowed {
		t.Fatalf("approved message: %s", d.Outcome)
	}
	if d := send("msg-2"); d.Outcome != approvals.ApprovalRequired {
		t.Fatalf("the other message rode on the approval: %s", d.Outcome)
	}

	// Expiry counts as deny.
	exp := e.callBound("agent.example", "get_excerpt", approvals.RawRead, `{"query":"x"}`, "", "query: x")
	e.clock.add(11 * time.Minute)
	if _, err := e.m.Answer(ctx, exp.Approval.ID, approvals.Approve, exp.Approval.PromptHash()); !errors.Is(err, approvals.ErrNotPending) {
		t.Fatalf("expired approval: %v", err)
	}

	// Deny and block.
	g := e.callBound("pushy.example", "ask", approvals.FreeFormRead, `{"question":"q"}`, "", "short answers")
	if _, err := e.m.Answer(ctx, g.Approval.ID, approvals.DenyAndBlock, g.Approval.PromptHash()); err != nil {
		t.Fatal(err)
	}
	if d := e.callBound("pushy.example", "ask", approvals.FreeFormRead, `{"question":"q"}`, "", ""); d.Outcome != approvals.AgentBlocked {
		t.Fatalf("after deny and block: %s", d.Outcome)
	}
}
