package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestOrderOfferIsNoOrder: a promotion whose subject offers a discount on
// an order to come is no order, whatever order number its terms quote; a
// confirmation that offers one in its subject beside the order placed
// stays an order.
func TestOrderOfferIsNoOrder(t *testing.T) {
	for _, c := range []struct {
		name, subject, text string
		order               bool
	}{
		{"next order", "Save 20% on your next order", "Use code FALL20. Reference Order #123456789012 for 20% off.\n", false},
		{"German code", "Dein Gutscheincode für die nächste Bestellung", "Mit dem Code HERBST15 sparst du 15 %. Gilt nicht für Bestellung Nr. 88120455.\n", false},
		{"confirmation beside it", "Your order #88120455 — plus 10% off your next order", "Thank you for your order.\nOrder number: 88120455\nTotal: $42.00\n", true},
	} {
		m := &mime.Message{From: []mime.Address{{Name: "Shop", Address: "hello@shop.example"}}, Subject: c.subject, Text: c.text,
			Date: time.Date(2027, 10, 6, 9, 0, 0, 0, time.UTC)}
		got := false
		for _, f := range extract.Extract(m, msgauth.Verdict{}).Facts {
			got = got || f.Order != nil
		}
		if got != c.order {
			t.Errorf("%s: order %v, want %v", c.name, got, c.order)
		}
	}
}
