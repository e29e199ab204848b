package main

import (
	"testing"

	"mailnode/approvals"
)

// TestAuditDecision: a call the agent repeated while it waited shows once,
// with how often it asked.
func TestAuditDecision(t *testing.T) {
	tests := []struct {
		decision approvals.Outcome
		retries  int
		want     string
	}{
		{approvals.ApprovalRequired, 0, "approval_required"},
		{approvals.ApprovalRequired, 29, "approval_required (asked 30 times)"},
		{approvals.Allowed, 0, "allowed"},
	}
	for _, tt := range tests {
		e := approvals.AuditEntry{Decision: tt.decision, Retries: tt.retries}
		if got := auditDecision(e); got != tt.want {
			t.Errorf("auditDecision(%s, retries %d) = %q, want %q", tt.decision, tt.retries, got, tt.want)
		}
	}
}

func TestAgentLabel(t *testing.T) {
	tests := []struct{ domain, key, want string }{
		{"agent.example.com", "sha256:AAAA", "agent.example.com"},
		{"claude.ai", "oauth:oar-abc", "OAuth client claude.ai"},
		{"dcr-xyz", "oauth:oar-def", "OAuth client dcr-xyz"},
	}
	for _, tt := range tests {
		if got := agentLabel(tt.domain, tt.key); got != tt.want {
			t.Errorf("agentLabel(%q, %q) = %q, want %q", tt.domain, tt.key, got, tt.want)
		}
	}
}
