package app

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"mailnode/assets"
)

// TestToolsOneClock: a tool call sees one now. Whether a fact's sender is
// trusted is decided by the clock the tools run by, as a message's is, not
// by the wall clock. A bill arrives now from a domain never seen before:
// a day on by the tools' clock the domain is new, and the bill and its
// mail are both untrusted; a month on, both are trusted.
func TestToolsOneClock(t *testing.T) {
	ctx := context.Background()
	n := demoNode(t)
	arrived := time.Now()
	due := arrived.AddDate(0, 0, 20)
	raw := fmt.Sprintf("Authentication-Results: %s; dkim=pass header.d=quillpower.example; spf=pass smtp.mailfrom=quillpower.example; dmarc=pass header.from=quillpower.example\r\n"+
		"From: Quill Power <billing@quillpower.example>\r\nTo: Alex Morgan <alex.morgan@demo-mail.example>\r\nSubject: Your Quill Power invoice\r\n"+
		"Date: %s\r\nMessage-ID: <qp1@quillpower.example>\r\n\r\nYour Quill Power electricity invoice is ready.\r\n"+
		"Invoice number: QP-55120\r\nAmount due: 64.20 EUR\r\nDue date: %s\r\n",
		assets.DemoAuthServID, arrived.Format(time.RFC1123Z), due.Format("2 January 2006"))
	if err := n.AddMail(ctx, "clock", [][]byte{[]byte(raw)}); err != nil {
		t.Fatal(err)
	}
	if _, err := n.ReadFacts(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		now     time.Time
		trusted bool
	}{
		{arrived.AddDate(0, 0, 1), false},
		{arrived.AddDate(0, 1, 0), true},
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
				res, err := tl.Run(ctx, json.RawMessage(args))
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
		day := tc.now.Sub(arrived).Round(24*time.Hour) / (24 * time.Hour)
		type bill struct {
			Number  string `json:"number"`
			Trusted bool   `json:"trusted_sender"`
		}
		var bills struct {
			Bills, Unverified []bill
		}
		run("bills_due", fmt.Sprintf(`{"before":%q}`, due.AddDate(0, 1, 0).UTC().Format(time.RFC3339)), &bills)
		var ex struct {
			SenderDomain string `json:"sender_domain"`
			Trusted      bool   `json:"trusted_sender"`
		}
		run("get_excerpt", `{"query":"Quill Power electricity invoice"}`, &ex)
		if ex.SenderDomain != "quillpower.example" || ex.Trusted != tc.trusted {
			t.Errorf("day %d: get_excerpt = %+v, want quillpower.example's mail, trusted %v", day, ex, tc.trusted)
		}
		found := false
		for _, b := range append(bills.Bills, bills.Unverified...) {
			if b.Number == "QP-55120" {
				found = true
				if b.Trusted != tc.trusted {
					t.Errorf("day %d: the bill's trusted_sender = %v, the mail's %v: two clocks", day, b.Trusted, ex.Trusted)
				}
			}
		}
		if !found {
			t.Errorf("day %d: bills_due has no Quill Power bill: %+v", day, bills)
		}
	}
}
