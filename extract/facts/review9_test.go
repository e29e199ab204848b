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
		// The ninth review's: invoicing, money requests, merchants of
		// record, shared trip plans.
		{"harvestapp.com", "Mallory LLC <notifications@harvestapp.com>"},
		{"invoiceninja.com", "Mallory LLC <invoices@invoiceninja.com>"},
		{"wise.com", "Mallory via Wise <noreply@wise.com>"},
		{"revolut.com", "Revolut <no-reply@revolut.com>"},
		{"paddle.com", "Mallory Apps via Paddle <help@paddle.com>"},
		{"gumroad.com", "Mallory <noreply@gumroad.com>"},
		{"tripit.com", "TripIt <noreply@tripit.com>"},
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

// review9Shop is a mail of a Shopify store without a domain of its own,
// sent as "Store <store+ID@shopifyemail.com>", authenticated for
// shopifyemail.com.
func review9Shop(from, subject, body string, n int) string {
	return review7Mail(from, "shopifyemail.com", subject, body, n)
}

// The ninth outside review's FORGED-4: every store without a domain of
// its own sends from shopifyemail.com and numbers its orders from #1001,
// so one stranger's store cancelled another store's order #1001, trusted.
// Each store is now its own address (mail/trust/freemail.txt), so its
// confirmation and its shipping notice still make one order.
func TestReview9ShopifyStoresAreApart(t *testing.T) {
	seed := review9Shop("Old Shop <store+10001@shopifyemail.com>", "Order #1003 confirmed", "Thank you for your purchase!\r\n\r\nOrder #1003\r\nTotal: $12.00\r\n", 1)
	real := review9Shop("Kaffee Kontor <store+55501@shopifyemail.com>", "Order #1001 confirmed",
		"Hi Alex, thank you for your purchase!\r\n\r\nOrder #1001\r\nEthiopia Yirgacheffe 1 kg\t$42.00\r\nTotal: $42.00\r\n\r\nWe'll let you know when it ships.\r\n", 2)
	shipped := review9Shop("Kaffee Kontor <store+55501@shopifyemail.com>", "Order #1001 has shipped",
		"Hi Alex,\r\n\r\nYour order #1001 is on its way.\r\nCarrier: DHL\r\nTracking number: 00340434161094042557\r\n", 3)
	attack := review9Shop("Mallory Goods <store+66602@shopifyemail.com>", "Order #1001 has been cancelled",
		"Hi Alex,\r\n\r\nYour order #1001 has been cancelled and refunded.\r\nTotal: $42.00\r\n", 4)
	old := time.Now().AddDate(-1, 0, 0)
	fx := review7Store(t, review7Msg(1, seed, old), review7Msg(2, real, time.Now().AddDate(0, 0, -2)),
		review7Msg(3, shipped, time.Now().AddDate(0, 0, -1)), review7Msg(4, attack, time.Now()))
	// A store without a domain of its own is shown by the platform's
	// (senderName: the name a stranger's store chooses is not checked).
	got := fx.orders(t, "shopifyemail.com")
	t.Logf("order_status(shopifyemail.com) = %s", got)
	if !strings.Contains(got, `"number":"1001","status":"shipped"`) || !strings.Contains(got, `"sources":[2,3]`) {
		t.Errorf("Kaffee Kontor's order #1001 is not its confirmation and its notice, shipped: %s", got)
	}
	if strings.Contains(got, `"sources":[2,3,4]`) || strings.Contains(got, `"sources":[2,4]`) {
		t.Errorf("another store's mail is part of Kaffee Kontor's order #1001: %s", got)
	}
}

// The ninth outside review's FORGED-5: invoicing services number each
// account's invoices from 1 and send them from the service's addresses:
// a stranger's "payment received for invoice 0012" through Harvest paid
// a contractor's real invoice 0012.
func TestReview9InvoicingServiceStrangerPaysNoBill(t *testing.T) {
	seed := review7Mail("Old Client <notifications@harvestapp.com>", "harvestapp.com", "Welcome", "Hello.\r\n", 1)
	real := review7Mail("Jane Design Studio <notifications@harvestapp.com>", "harvestapp.com", "Invoice 0012 from Jane Design Studio",
		"Hi Alex,\r\n\r\nInvoice number: 0012\r\nAmount due: $1,850.00\r\nDue date: December 15, 2026\r\n\r\nThank you!\r\n", 2)
	attack := review7Mail("Mallory Consulting <notifications@harvestapp.com>", "harvestapp.com", "Payment received for invoice 0012",
		"Hi Alex,\r\n\r\nThank you for your payment.\r\nInvoice number: 0012\r\nAmount paid: $1,850.00\r\nStatus: Paid in full\r\n", 3)
	old := time.Now().AddDate(-1, 0, 0)
	fx := review7Store(t, review7Msg(1, seed, old), review7Msg(2, real, time.Now().AddDate(0, 0, -1)), review7Msg(3, attack, time.Now()))
	bills, err := fx.fx.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 11, 22, 0, 0, 0, 0, time.UTC), 20)
	if err != nil {
		t.Fatal(err)
	}
	if got := join(bills); !strings.Contains(got, "1850.00") {
		t.Errorf("a stranger's payment notice through harvestapp.com paid the person's invoice 0012: bills_due = %s", got)
	}
}
