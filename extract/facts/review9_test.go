package facts_test

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Services that mail a stranger's words from their own old, authenticated
// domain (an expense a "friend" adds, a merchant's invoice sent through a
// card reader's platform, a file share's message, a newsletter writer's
// post, an event organiser's note, a form's answer) are shared senders as
// GitHub's notifications are (mail/trust/shared.txt): the eighth outside
// review named them after the seventh's list. A bill in a stranger's words
// sent through one of them is never a trusted bill, however old the
// person's mail from that service is.
func TestReview9StrangerRelaysAreNoTrustedBill(t *testing.T) {
	for _, tc := range []struct{ service, from string }{
		{"splitwise.com", "Splitwise <hello@splitwise.com>"},
		{"sumup.com", "Mallory's Café via SumUp <no-reply@sumup.com>"},
		{"wetransfer.com", "WeTransfer <noreply@wetransfer.com>"},
		{"substack.com", "Mallory's Notes <mallory@substack.com>"},
		{"calendly.com", "Calendly <notifications@calendly.com>"},
		{"eventbrite.com", "Eventbrite <noreply@eventbrite.com>"},
		{"typeform.com", "Typeform <notifications@typeform.com>"},
		{"gofundme.com", "GoFundMe <noreply@gofundme.com>"},
		{"patreon.com", "Patreon <bingo@patreon.com>"},
	} {
		t.Run(tc.service, func(t *testing.T) {
			seed := review7Mail(tc.from, tc.service, "Welcome", "Hi Alex, welcome aboard.\r\n", 1)
			bill := review7Mail(tc.from, tc.service, "Invoice INV-2026-4471",
				"Hi Alex,\r\n\r\nInvoice number: INV-2026-4471\r\nAmount due: $212.50\r\nDue date: December 9, 2026\r\n", 2)
			old := time.Now().AddDate(-1, 0, 0)
			fx := review7Store(t, review7Msg(1, seed, old), review7Msg(2, bill, time.Now()))
			bills, err := fx.fx.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 11, 22, 0, 0, 0, 0, time.UTC), 20)
			if err != nil {
				t.Fatal(err)
			}
			got := join(bills)
			if !strings.Contains(got, "212.50") {
				t.Fatalf("bills_due = %s; want the bill, untrusted", got)
			}
			if strings.Contains(got, `"trusted_sender":true`) {
				t.Errorf("a stranger's invoice through %s is a trusted bill: %s", tc.service, got)
			}
		})
	}
}
