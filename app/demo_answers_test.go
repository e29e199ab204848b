package app

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDemoAnswersItsOwnQuestions (hardening item 15): the questions a
// first-time user asks the demo are answered from the extracted facts when
// they name a merchant, an issuer or a trip, and a meeting invitation is
// no hotel stay.
func TestDemoAnswersItsOwnQuestions(t *testing.T) {
	n := demoNode(t)
	tool := askDemo(t, n)
	for _, tc := range []struct {
		question     string
		want, reject []string
	}{
		{"What is my IKEA order number?", []string{"IKEA"}, []string{"Etsy"}},
		{"How much is my Telekom bill?", []string{"44.95"}, nil},
		{"When does my flight to New York leave?", []string{"LH 400"}, nil},
	} {
		out := tool("ask", map[string]any{"question": tc.question})
		a, _ := out["answer"].(string)
		for _, w := range tc.want {
			// Case apart: a sender the node does not trust yet (the
			// demo's mail is a few weeks old, mail/trust.NewDomainAge) is
			// named by its domain, "ikea.de".
			if !strings.Contains(strings.ToLower(a), strings.ToLower(w)) {
				t.Errorf("ask(%q) = %q, want it to say %q", tc.question, a, w)
			}
		}
		for _, w := range tc.reject {
			if strings.Contains(a, w) {
				t.Errorf("ask(%q) = %q, names %q", tc.question, a, w)
			}
		}
		if s, _ := out["sources"].(float64); s < 1 {
			t.Errorf("ask(%q): sources = %v", tc.question, out["sources"])
		}
		t.Logf("ask(%q) = %q", tc.question, a)
	}
	trips := tool("get_upcoming_travel", map[string]any{"from": "2026-01-01T00:00:00Z"})
	for _, trip := range trips["trips"].([]any) {
		if s := strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(jsonString(trip), "\"", " ")), " ")); strings.Contains(s, "q1 planning") || strings.Contains(s, "room main") {
			t.Errorf("a meeting invitation is listed as a trip: %v", trip)
		}
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
