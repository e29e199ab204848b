// Package agentproto holds the messages of the agent protocol that the
// node's gateway writes and the agent SDK reads, declared once. Like the
// relay's wire package it imports nothing of either side.
package agentproto

// CodeApprovalRequired is the error code of a tool call that waits for
// the user (docs/protocol.md, "approval_required").
const CodeApprovalRequired = "approval_required"

// ApprovalRequired is the tool payload of approval_required, with the
// fields an agent needs to show the user and to wait.
type ApprovalRequired struct {
	Code       string `json:"error"` // CodeApprovalRequired
	Message    string `json:"message"`
	MatchCode  string `json:"match_code"`
	ApprovalID string `json:"approval_id"`
	Agent      string `json:"agent"` // the domain the signature proved
	Tier       string `json:"tier"`
	Tool       string `json:"tool"`
	ExpiresAt  int64  `json:"expires_at"` // Unix seconds
}
