package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"mailnode/gateway/tools"
)

// demoNode syncs the demo mailbox into a new node and reads its facts.
func demoNode(t *testing.T) *Node {
	t.Helper()
	ctx := context.Background()
	n, err := New(demoConfig(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	if _, err := n.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := n.ReadFacts(ctx); err != nil {
		t.Fatal(err)
	}
	return n
}

// askDemo returns a function that calls one of n's tools by name, as the
// gateway does once a call is authorised, on 22 November 2026.
func askDemo(t *testing.T, n *Node) func(name string, args map[string]any) map[string]any {
	t.Helper()
	ctx := context.Background()
	c, err := n.comp()
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	byName := map[string]tools.Tool{}
	for _, tl := range tools.Catalog(mailSource{c: c, now: now}, nil, now) {
		byName[tl.Name] = tl
	}
	return func(name string, args map[string]any) map[string]any {
		b, _ := json.Marshal(args)
		out, err := byName[name].Run(ctx, b)
		if err != nil {
			t.Fatalf("%s(%s) = %v", name, b, err)
		}
		var m map[string]any
		j, _ := json.Marshal(out)
		json.Unmarshal(j, &m)
		return m
	}
}

func TestAskDemo(t *testing.T) {
	call := askDemo(t, demoNode(t))
	// Secrets asked for are not given, whatever else the answer says.
	secrets := []string{"482913", "731-055", "731055", "LT12", "1000 0111"}
	for _, q := range []string{"What is the verification code from ING?", "What is my Slack confirmation code?",
		"Bestätigungscode", "What is the IBAN for the overdue payment?", "Slack code 731"} {
		for _, out := range []map[string]any{call("ask", map[string]any{"question": q}), call("get_excerpt", map[string]any{"query": q})} {
			j, _ := json.Marshal(out)
			for _, s := range secrets {
				if strings.Contains(string(j), s) {
					t.Errorf("%q answered with secret %s: %s", q, s, j)
				}
			}
			t.Logf("%q: %s", q, j)
		}
	}
	tests := []struct {
		q    string
		want []string // all in the answer; nil: no answer
	}{
		{"When is the Frankfurt Gophers meetup?", []string{"November 26"}},
		{"What time is dinner with Sam on Friday?", []string{"7:30"}},
		{"How much is the water bill?", []string{"61.22"}},
		{"When is the credit card payment due?", []string{"12/04/2026"}},
		{"Where is the Gophers meetup?", []string{"Platz der Einheit"}},
		{"What is my passport number?", nil},
		{"When does my yoga class start?", nil},
	}
	for _, tt := range tests {
		got := call("ask", map[string]any{"question": tt.q})
		answer, _ := got["answer"].(string)
		if tt.want == nil {
			if answer != "No answer found in the mail." || got["sources"] != 0.0 {
				t.Errorf("ask(%q) = %v, want no answer", tt.q, got)
			}
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(answer, w) {
				t.Errorf("ask(%q) = %q, want it to hold %q", tt.q, answer, w)
			}
		}
		if got["sources"] != 1.0 {
			t.Errorf("ask(%q) sources = %v, want 1", tt.q, got["sources"])
		}
	}
}
