package extract_test

import (
	"testing"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestMarkupCannotClaimAnotherSender: an Invoice whose markup names a
// well-known provider, sent from another domain, is the other domain's.
func TestMarkupCannotClaimAnotherSender(t *testing.T) {
	ld := `<script type="application/ld+json">{"@context":"http://schema.org","@type":"Invoice",
		"provider":{"@type":"Organization","name":"Deutsche Telekom"},"paymentDueDate":"2026-11-30",
		"totalPaymentDue":{"@type":"PriceSpecification","price":"899.00","priceCurrency":"EUR"}}</script>`
	m := &mime.Message{From: []mime.Address{{Name: "Telekom Service", Address: "billing@telekom-rechnung.example"}}, HTML: []string{ld}}
	res := extract.Extract(m, msgauth.Checker{AuthServIDs: []string{"mx.provider.example"}}.Check(m, nil))
	if len(res.Facts) != 1 || res.Facts[0].Bill == nil {
		t.Fatalf("facts = %s, want one bill", js(res.Facts))
	}
	b := res.Facts[0].Bill
	if b.Domain != "telekom-rechnung.example" || b.Issuer != "Telekom Service" || res.Auth.Authenticated {
		t.Errorf("bill = %s (auth %+v), want the sender's own domain and name, unauthenticated", js(b), res.Auth)
	}
}

// A forwarded mail speaks for its original sender, but only by the
// forwarder's word: its facts are never verified, even when the
// forwarding message itself is authenticated.
func TestForwardedIsNeverVerified(t *testing.T) {
	m := &mime.Message{
		From:        []mime.Address{{Name: "Test User", Address: "me@mail.example"}},
		Subject:     "Fwd: Your Amazon.com order #123-1234567-1234567",
		AuthResults: []string{"mx.provider.example; dmarc=pass header.from=mail.example"},
		Text: "FYI\n\n> Begin forwarded message:\n>\n> From: \"Amazon.com\" <auto-confirm@amazon.com>\n" +
			"> Subject: Your Amazon.com order #123-1234567-1234567\n>\n> Order Confirmation\n> Order #123-1234567-1234567\n> Order Total:\n> $80.61\n",
	}
	res := extract.Extract(m, msgauth.Checker{AuthServIDs: []string{"mx.provider.example"}}.Check(m, nil))
	if !res.Auth.Authenticated {
		t.Fatalf("auth = %+v, want the forwarding message authenticated", res.Auth)
	}
	if len(res.Facts) != 1 || res.Facts[0].Order == nil {
		t.Fatalf("facts = %s, want one order", js(res.Facts))
	}
	f := res.Facts[0]
	if f.From != extract.FromForwarded || f.Order.Domain != "amazon.com" || f.Order.Number != "123-1234567-1234567" {
		t.Errorf("fact = %s, want the forwarded original's order, marked forwarded", js(f))
	}
	merged := extract.Merge([]extract.Record{{Fact: f, Message: 1, Date: m.Date, Authenticated: res.Auth.Authenticated}})
	if len(merged.Orders) != 1 || merged.Orders[0].Verified {
		t.Errorf("merged = %s, want one unverified order", js(merged.Orders))
	}
}
