package gateway_test

import (
	"encoding/json"
	"strings"
	"testing"

	"mailnode/approvals"
)

// TestExcerptApprovalIgnoresMail: whether a get_excerpt call is pending,
// denied or approved, and under which approval id, depends on the agent's
// call alone, never on the mail its prompt shows; an approved call whose
// mail changed returns excerpt_changed and nothing of the new text.
// Otherwise a refused agent polling a query would learn from its answers
// when mail matching it arrived (issue 41, an outside tester's finding).
func TestExcerptApprovalIgnoresMail(t *testing.T) {
	agent := newAgentKey("stranger.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, agent))
	s := session{t, n, agent}
	const newText = "Your flight to Lisbon departs from gate C3 at 11:15. Reply to change@air.example.com to keep your seat."
	// "gate C3", not "C3": a random approval id may hold those two
	// letters (a CI run's apr_xaeyC3ijX3iPx1uQ did).
	leaks := func(p map[string]any) bool {
		b, _ := json.Marshal(p)
		return strings.Contains(string(b), "gate C3") || strings.Contains(string(b), "11:15") || strings.Contains(string(b), "keep your seat")
	}
	pendingCount := func() int {
		p, err := n.approvals.Pending(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return len(p)
	}

	t.Run("denied", func(t *testing.T) {
		n.source.setText(flightText)
		args := map[string]any{"query": "flight gate Lisbon"}
		p, _ := s.tool("get_excerpt", args)
		if p["error"] != "approval_required" {
			t.Fatalf("first call = %v", p)
		}
		id := p["approval_id"]
		if _, err := n.approvals.Decide(t.Context(), id.(string), false); err != nil {
			t.Fatal(err)
		}
		for i, text := range []string{flightText, flightText, newText, newText} {
			n.source.setText(text)
			p, _ = s.tool("get_excerpt", args)
			if p["error"] != "approval_denied" || p["approval_id"] != id || leaks(p) {
				t.Fatalf("poll %d (mail changed: %v) = %v, want approval_denied %s", i, text == newText, p, id)
			}
		}
		if c := pendingCount(); c != 0 {
			t.Fatalf("%d prompts opened while the call was refused", c)
		}
	})

	t.Run("pending, then approved", func(t *testing.T) {
		n.source.setText(flightText)
		args := map[string]any{"query": "gate Lisbon departs"}
		p, _ := s.tool("get_excerpt", args)
		if p["error"] != "approval_required" {
			t.Fatalf("first call = %v", p)
		}
		id, code := p["approval_id"], p["match_code"]
		n.source.setText(newText)
		p, _ = s.tool("get_excerpt", args)
		if p["error"] != "approval_required" || p["approval_id"] != id || p["match_code"] != code {
			t.Fatalf("retry after the mail changed = %v, want the pending %s", p, id)
		}
		// The phone still shows what it showed first, and the user
		// approves that.
		a, err := n.approvals.Get(t.Context(), id.(string))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(a.Details, "gate B12") || strings.Contains(a.Details, "C3") {
			t.Fatalf("prompt = %q, want the first excerpt", a.Details)
		}
		if _, err := n.approvals.Answer(t.Context(), a.ID, approvals.Approve, a.PromptHash()); err != nil {
			t.Fatal(err)
		}
		p, isErr := s.tool("get_excerpt", args)
		if !isErr || p["error"] != "excerpt_changed" || leaks(p) {
			t.Fatalf("approved call after the mail changed = %v, want excerpt_changed and nothing of the new text", p)
		}
		// The approval is spent; asking again shows the new text.
		p, _ = s.tool("get_excerpt", args)
		if p["error"] != "approval_required" || p["approval_id"] == id || leaks(p) {
			t.Fatalf("call after excerpt_changed = %v", p)
		}
		a, err = n.approvals.Get(t.Context(), p["approval_id"].(string))
		if err != nil || !strings.Contains(a.Details, "gate C3") {
			t.Fatalf("new prompt = %q %v", a.Details, err)
		}
	})

	t.Run("approved, mail unchanged", func(t *testing.T) {
		n.source.setText(flightText)
		args := map[string]any{"query": "Lisbon gate"}
		p, _ := s.tool("get_excerpt", args)
		a, err := n.approvals.Get(t.Context(), p["approval_id"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := n.approvals.Answer(t.Context(), a.ID, approvals.Approve, a.PromptHash()); err != nil {
			t.Fatal(err)
		}
		p, isErr := s.tool("get_excerpt", args)
		if isErr || p["found"] != true || !strings.Contains(p["excerpt"].(string), "gate B12") {
			t.Fatalf("approved call = %v", p)
		}
	})
}
