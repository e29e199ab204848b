package app

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// TestToolsOneClock: a tool call sees one now. Whether a fact's sender is
// trusted is decided by the clock the tools run by, as a message's is, not
// by the wall clock: Vattenfall's domain was first seen on 13 November
// 2026 (the demo's bill), so on 22 November it is new and its bill and
// its mail are both untrusted, and on 20 December both trusted.
func TestToolsOneClock(t *testing.T) {
	n := demoNode(t)
	for _, tc := range []struct {
		now     time.Time
		trusted bool
	}{
		{time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), false},
		{time.Date(2026, 12, 20, 12, 0, 0, 0, time.UTC), true},
	} {
		ts, err := n.ReadTools(func() time.Time { return tc.now })
		if err != nil {
			t.Fatal(err)
		}
		run := func(name, args string, out any) {
			t.Helper()
			for _, tl := range ts {
				if tl.Name != name {
					continue
				}
				res, err := tl.Run(context.Background(), json.RawMessage(args))
				if err != nil {
					t.Fatalf("%s(%s): %v", name, args, err)
				}
				b, _ := json.Marshal(res)
				if err := json.Unmarshal(b, out); err != nil {
					t.Fatal(err)
				}
				return
			}
			t.Fatalf("no tool %s", name)
		}
		type bill struct {
			Number  string `json:"number"`
			Trusted bool   `json:"trusted_sender"`
		}
		var due struct {
			Bills, Unverified []bill
		}
		run("bills_due", `{"before":"2027-06-01T00:00:00Z"}`, &due)
		var ex struct {
			SenderDomain string `json:"sender_domain"`
			Trusted      bool   `json:"trusted_sender"`
		}
		run("get_excerpt", `{"query":"Stromrechnung Oktober 2026 Rechnungsnummer"}`, &ex)
		if ex.SenderDomain != "vattenfall.de" || ex.Trusted != tc.trusted {
			t.Errorf("%s: get_excerpt = %+v, want vattenfall.de's mail, trusted %v", tc.now.Format(time.DateOnly), ex, tc.trusted)
		}
		found := false
		for _, b := range append(due.Bills, due.Unverified...) {
			if b.Number == "INV-2026-11-7730219" {
				found = true
				if b.Trusted != tc.trusted {
					t.Errorf("%s: the bill's trusted_sender = %v, the mail's %v: two clocks", tc.now.Format(time.DateOnly), b.Trusted, ex.Trusted)
				}
			}
		}
		if !found {
			t.Errorf("%s: bills_due has no Vattenfall bill: %+v", tc.now.Format(time.DateOnly), due)
		}
	}
}
