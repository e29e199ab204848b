package gateway

import (
	"mailnode/agent/agentproto"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mailnode/approvals"
	"mailnode/gateway/tools"
)

// authorize decides whether the verified agent id may call tool t with
// args, before the tool or the store is touched. It returns nil to let the
// call run, or the tool payload that refuses it.
//
// The inputs are all the node's own: the identity the signature proved,
// the tier the catalog gives the tool, and the grants and approvals the
// user decided. Nothing in the arguments, and nothing in any mail, takes
// part except as the opaque value a raw_read or send approval is bound to.
// To bind that value, get_excerpt's Subject reads the mail it would quote
// (the phone shows the exact text before the user approves); nothing of
// it reaches the agent before approval, and it takes a fixed time,
// so that its timing says nothing of the mailbox either. Nor does the
// outcome: that value is pinned (tools.Subject.Pin), stored with a new
// request but not used to find one, so that the same call stays pending,
// denied or approved, under the same approval id, whatever the mail.
//
// On success it returns the caller the tool runs for, with the value its
// approval was bound to when it was made; and the decision either way.
func (s *Server) authorize(ctx context.Context, id verified, t tools.Tool, args json.RawMessage) (tools.Caller, *mcp.CallToolResult, approvals.Decision) {
	subject, refusal := s.subject(ctx, id, t, args)
	if refusal != nil {
		return tools.Caller{}, refusal, approvals.Decision{}
	}
	d, err := s.cfg.Approvals.Request(ctx, approvals.Call{
		Domain:  id.Domain,
		KeyFP:   id.KeyFP,
		Tool:    t.Name,
		Tier:    t.Tier,
		Args:    args,
		Bind:    subject.Bind,
		Pin:     subject.Pin,
		Details: subject.Details,
		Queued:  id.Queued,
	})
	refusal = s.refusal(id, t, d, err)
	if err != nil && !errors.Is(err, approvals.ErrPromptTooLarge) {
		markQueuedRetry(ctx, id.Identity) // the node's store, not the agent
	}
	if err == nil && id.Queued && d.Outcome == approvals.QueuedNotRun {
		markQueuedAllowed(ctx)
	}
	if refusal == nil && id.Queued {
		// Approvals never allows a queued call; fail closed if it did.
		s.log.Error("A queued call was allowed to run", "agent", id.Domain, "tool", t.Name)
		refusal = toolError(&tools.Error{Code: "internal_error", Message: "the node could not check its grants; try again later"})
	}
	caller := tools.Caller{Domain: id.Domain}
	if refusal == nil && d.Approval != nil {
		// What the user approved, as stored with the approval: for a
		// pinned call not what subject found now, which the tool
		// compares it with.
		caller.Bound = d.Approval.Bound
	}
	return caller, refusal, d
}

// subject is what the user is asked: for a per-call tier, the tool's
// own account of the call from the arguments as it will decode them
// (send_draft: the exact message); for a grant, the tier and its tools.
func (s *Server) subject(ctx context.Context, id verified, t tools.Tool, args json.RawMessage) (tools.Subject, *mcp.CallToolResult) {
	if !t.Tier.PerCall() {
		return tools.Subject{Details: s.grantText[t.Tier]}, nil
	}
	sub, err := t.Subject(ctx, id.Domain, args)
	if err != nil {
		var te *tools.Error
		if errors.As(err, &te) {
			return sub, toolError(te)
		}
		s.log.Error("Cannot describe a call for approval", "agent", id.Domain, "tool", t.Name, "err", err)
		return sub, toolError(&tools.Error{Code: "internal_error", Message: "the node could not prepare the request; try again later"})
	}
	return sub, nil
}

// grantTexts says, for each grant tier, what approving it allows: made
// once, as every call of a granted tier passes through subject.
func grantTexts(catalog []tools.Tool) map[approvals.Tier]string {
	names := map[approvals.Tier][]string{}
	for _, t := range catalog {
		names[t.Tier] = append(names[t.Tier], t.Name)
	}
	out := map[approvals.Tier]string{}
	for _, t := range catalog {
		if !t.Tier.PerCall() {
			out[t.Tier] = fmt.Sprintf("Use %s (%s) without asking again, until you revoke it.", describe(t), strings.Join(names[t.Tier], ", "))
		}
	}
	return out
}

// refusal turns an approval decision into the tool payload that refuses
// the call, or nil when it may run.
func (s *Server) refusal(id verified, t tools.Tool, d approvals.Decision, err error) *mcp.CallToolResult {
	if errors.Is(err, approvals.ErrPromptTooLarge) {
		return toolError(&tools.Error{Code: "too_large_to_approve",
			Message: "The request is too long for the user to read whole on their phone, so it cannot be approved; make it shorter."})
	}
	if err != nil {
		s.log.Error("Cannot decide on a call", "agent", id.Domain, "tool", t.Name, "err", err)
		return toolError(&tools.Error{Code: "internal_error", Message: "the node could not check its grants; try again later"})
	}
	switch d.Outcome {
	case approvals.Allowed:
		return nil
	case approvals.ApprovalRequired:
		a := d.Approval
		return toolError(agentproto.ApprovalRequired{
			Code: string(d.Outcome),
			Message: fmt.Sprintf("The user must approve %s for %s on their phone. Show them the agent %s and the code %s, then retry the same call.",
				describe(t), id.Domain, id.Domain, a.MatchCode),
			MatchCode: a.MatchCode, ApprovalID: a.ID, Agent: id.Domain,
			Tier: string(t.Tier), Tool: t.Name, ExpiresAt: a.ExpiresAt.Unix(),
		})
	case approvals.QueuedNotRun:
		return toolError(map[string]string{"error": string(d.Outcome),
			"message": "This call came through the relay's offline queue, which never runs a tool. It is allowed now: call the tool again, live."})
	case approvals.ApprovalDenied:
		return toolError(map[string]string{"error": string(d.Outcome), "message": "The user refused this request.", "approval_id": d.Approval.ID})
	case approvals.AgentBlocked:
		return toolError(map[string]string{"error": string(d.Outcome), "message": "The user has blocked this agent."})
	case approvals.TooManyPending:
		return toolError(map[string]string{"error": string(d.Outcome), "message": "Too many requests are waiting for the user; wait for them to decide."})
	case approvals.TooManyPrompts:
		secs := int64(d.RetryAfter.Round(time.Second) / time.Second)
		return toolError(map[string]any{"error": string(d.Outcome), "retry_after": secs,
			"message": fmt.Sprintf("This agent has asked the user too often in the last hour; ask again in %d s.", secs)})
	}
	s.log.Error("Unknown approval outcome", "outcome", d.Outcome)
	return toolError(&tools.Error{Code: "internal_error", Message: "the node could not check its grants; try again later"})
}

func describe(t tools.Tool) string { return DescribeTier(t.Tier) }

// DescribeTier says in a few words what a tier's tools do, as the
// approval prompts and the OAuth consent (gateway/oauth) say it.
func DescribeTier(t approvals.Tier) string {
	switch t {
	case approvals.StructuredRead:
		return "reading travel, orders and bills"
	case approvals.FreeFormRead:
		return "short answers from mail"
	case approvals.RawRead:
		return "this one excerpt"
	case approvals.Compose:
		return "writing drafts"
	case approvals.Send:
		return "sending this draft"
	}
	return string(t)
}

// Tiers lists the tiers of a tool catalogue in the protocol's order: the
// OAuth scopes (gateway/oauth).
func Tiers(catalog []tools.Tool) []approvals.Tier {
	var out []approvals.Tier
	for _, t := range []approvals.Tier{approvals.StructuredRead, approvals.FreeFormRead, approvals.RawRead, approvals.Compose, approvals.Send} {
		for _, c := range catalog {
			if c.Tier == t {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// ScopeText says what an OAuth scope (a tier) allows, for the consent
// page and prompt: DescribeTier for the granted tiers, and in general
// terms for raw_read and send, whose every call is asked for anew.
func ScopeText(t approvals.Tier) string {
	switch t {
	case approvals.RawRead:
		return "quoting exact excerpts of mail"
	case approvals.Send:
		return "sending drafts"
	}
	return DescribeTier(t)
}
