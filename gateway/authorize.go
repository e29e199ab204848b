package gateway

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mailnode/approvals"
	"mailnode/gateway/httpsig"
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
func (s *Server) authorize(ctx context.Context, id httpsig.Identity, t tools.Tool, args json.RawMessage) *mcp.CallToolResult {
	d, err := s.cfg.Approvals.Request(ctx, approvals.Call{
		Domain: id.Domain,
		KeyFP:  approvals.Fingerprint(id.Key),
		Tool:   t.Name,
		Tier:   t.Tier,
		Args:   args,
	})
	if err != nil {
		s.log.Error("Cannot decide on a call", "agent", id.Domain, "tool", t.Name, "err", err)
		return toolError(&tools.Error{Code: "internal_error", Message: "the node could not check its grants; try again later"})
	}
	switch d.Outcome {
	case approvals.Allowed:
		return nil
	case approvals.ApprovalRequired:
		a := d.Approval
		return toolError(approvalRequired{
			Error: string(d.Outcome),
			Message: fmt.Sprintf("The user must approve %s for %s on their phone. Show them the agent %s and the code %s, then retry the same call.",
				describe(t), id.Domain, id.Domain, a.MatchCode),
			MatchCode: a.MatchCode, ApprovalID: a.ID, Agent: id.Domain,
			Tier: string(t.Tier), Tool: t.Name, ExpiresAt: a.ExpiresAt.Unix(),
		})
	case approvals.ApprovalDenied:
		return toolError(map[string]string{"error": string(d.Outcome), "message": "The user refused this request.", "approval_id": d.Approval.ID})
	case approvals.AgentBlocked:
		return toolError(map[string]string{"error": string(d.Outcome), "message": "The user has blocked this agent."})
	case approvals.TooManyPending:
		return toolError(map[string]string{"error": string(d.Outcome), "message": "Too many requests are waiting for the user; wait for them to decide."})
	}
	s.log.Error("Unknown approval outcome", "outcome", d.Outcome)
	return toolError(&tools.Error{Code: "internal_error", Message: "the node could not check its grants; try again later"})
}

// approvalRequired is the tool payload of the spec's approval_required,
// with the fields the agent needs to show the user and to wait.
type approvalRequired struct {
	Error      string `json:"error"`
	Message    string `json:"message"`
	MatchCode  string `json:"match_code"`
	ApprovalID string `json:"approval_id"`
	Agent      string `json:"agent"`
	Tier       string `json:"tier"`
	Tool       string `json:"tool"`
	ExpiresAt  int64  `json:"expires_at"`
}

func describe(t tools.Tool) string {
	switch t.Tier {
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
	return string(t.Tier)
}
