package facts_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"time"

	"mailnode/assets"
)

// The eighth outside review's proofs about carriers' notices, kept as
// regression tests (docs/extract.md "Merging").

// review8Notice is a carrier's "delivered" notice for the demo Amazon
// order's UPS parcel, from dom, authenticated for it.
func review8Notice(dom string) string {
	return review7Mail("UPS <mcinfo@"+dom+">", dom, "UPS Update: Package Delivered",
		"Hello,\r\n\r\nyour package 1Z999AA10123456784 has been delivered.\r\nDelivered on: Friday, November 20, 2026\r\n", 2)
}

// A carrier's own authenticated, long-known notice moves the shop's order
// whose parcel it names forward: extraction leaves the notice no domain of
// its own, and Merge knew it by that empty domain, so the carrier
// exception never fired through the store. A look-alike carrier's domain,
// registered and seeded a year ahead, moves nothing.
func TestReview8CarrierNoticeDelivers(t *testing.T) {
	amazon, err := fs.ReadFile(assets.DemoMailbox(), "INBOX/11-amazon-shipped.eml")
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().AddDate(-1, 0, 0)
	for _, c := range []struct {
		dom       string
		delivered bool
	}{
		{"ups.com", true},
		{"ups.express", false},
		{"ups-parcel.help", false},
	} {
		seed := review7Mail("UPS <mcinfo@"+c.dom+">", c.dom, "UPS My Choice", "Welcome to UPS My Choice.\r\n", 1)
		fx := review7Store(t, review7Msg(1, string(amazon), old), review7Msg(2, seed, old), review7Msg(3, review8Notice(c.dom), time.Now()))
		got := fx.orders(t, "amazon")
		t.Logf("%s: order_status(amazon) = %s", c.dom, got)
		// The demo order is the trusted one; a look-alike's notice may be
		// an order of its own, shown by its domain.
		delivered := false
		for _, item := range strings.Split(got, "},{\"id\"") {
			if strings.Contains(item, `"merchant":"Amazon.com"`) {
				delivered = strings.Contains(item, `"status":"delivered"`)
			}
		}
		if delivered != c.delivered {
			t.Errorf("%s's notice: Amazon order delivered = %v, want %v", c.dom, delivered, c.delivered)
		}
	}
}

// A domain whose name is three letters of a brand's name written together
// ("pal" of "PayPal", "maz" of "アマゾン", Amazon in katakana) does not
// agree with that name: seeded a year ahead, its bill is shown by its
// domain, never as a trusted bill of "PayPal". The brand's own domain
// still agrees.
func TestReview8ShortDomainBorrowsNoBrand(t *testing.T) {
	for _, c := range []struct {
		name, dom string
		agrees    bool
	}{{"PayPal", "pal.ltd", false}, {"アマゾン", "maz.shop", false}, {"Deutsche Telekom", "telekom.de", true}, {"アマゾン", "amazon.co.jp", true}} {
		seed := review7Mail(c.name+" <news@"+c.dom+">", c.dom, "Welcome", "Hello Alex, thanks for signing up.\r\n", 1)
		bill := review7Mail(c.name+" <billing@"+c.dom+">", c.dom, "Your invoice INV-88231",
			"Hello Alex,\r\n\r\nInvoice number: INV-88231\r\nAmount due: $349.99\r\nDue date: December 4, 2026\r\n", 2)
		fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, bill, time.Now()))
		bills, err := fx.fx.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 11, 22, 0, 0, 0, 0, time.UTC), 20)
		if err != nil {
			t.Fatal(err)
		}
		got := join(bills)
		t.Logf("%s: bills_due = %s", c.dom, got)
		if shown := strings.Contains(got, `"issuer":"`+c.name+`"`); shown != c.agrees {
			t.Errorf("%s's bill shown as %q: %v, want %v", c.dom, c.name, shown, c.agrees)
		}
	}
}
