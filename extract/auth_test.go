package extract_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"

	"mailnode/extract"
	"mailnode/mail/mime"
)

func TestAuthenticationResults(t *testing.T) {
	const provider = "mx.provider.example"
	tests := []struct {
		name    string
		from    string
		fields  []string
		want    bool
		method  string
		servIDs []string
	}{
		{"dmarc pass", "bills@vattenfall.de", []string{provider + "; dkim=pass header.d=vattenfall.de; dmarc=pass header.from=vattenfall.de"}, true, "dmarc", nil},
		{"aligned dkim on a subdomain", "info@service-mail.zalando.de", []string{provider + "; dkim=pass header.d=zalando.de"}, true, "dkim", nil},
		{"dkim of another domain", "bills@vattenfall.de", []string{provider + "; dkim=pass header.d=mailer.example"}, false, "", nil},
		{"dmarc fail", "bills@vattenfall.de", []string{provider + "; dkim=fail header.d=vattenfall.de; dmarc=fail header.from=vattenfall.de"}, false, "", nil},
		{"another authserv-id", "bills@vattenfall.de", []string{"mx.attacker.example; dmarc=pass header.from=vattenfall.de"}, false, "", nil},
		// The sender planted a passing field under the provider's name; the
		// provider's own field, on top, says fail. Only the top one counts.
		{"forged field below the provider's", "bills@vattenfall.de", []string{
			provider + "; dmarc=fail header.from=vattenfall.de",
			provider + "; dmarc=pass header.from=vattenfall.de",
		}, false, "", nil},
		{"no provider configured", "bills@vattenfall.de", []string{provider + "; dmarc=pass header.from=vattenfall.de"}, false, "", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ids := []string{provider}
			if tt.servIDs != nil {
				ids = tt.servIDs
			}
			m := &mime.Message{From: []mime.Address{{Address: tt.from}}, AuthResults: tt.fields}
			got := extract.Extract(m, nil, extract.Options{AuthServIDs: ids}).Auth
			if got.Authenticated != tt.want || got.Method != tt.method {
				t.Errorf("Auth = %+v, want authenticated %v by %q", got, tt.want, tt.method)
			}
		})
	}
}

// TestNodeDKIM signs a message with a fresh key and verifies it through a
// LookupTXT that serves the key from a map: the DNS seam that keeps the
// test offline.
func TestNodeDKIM(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	msg := "From: Billing <billing@energy.example>\r\nTo: alex@example.net\r\nSubject: Your invoice\r\nDate: Mon, 16 Nov 2026 09:00:00 +0100\r\n\r\nInvoice number: R-1\r\nAmount due: 10,00 EUR\r\nDue date: 30.11.2026\r\n"
	var signed bytes.Buffer
	if err := dkim.Sign(&signed, strings.NewReader(msg), &dkim.SignOptions{Domain: "energy.example", Selector: "s1", Signer: priv}); err != nil {
		t.Fatal(err)
	}
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	lookup := func(name string) ([]string, error) {
		if name == "s1._domainkey.energy.example" {
			return []string{record}, nil
		}
		return nil, errors.New("no such record")
	}
	raw := signed.Bytes()
	got := extract.Extract(mime.Parse(raw), raw, extract.Options{LookupTXT: lookup}).Auth
	if !got.Authenticated || got.Method != extract.AuthDKIMNode {
		t.Errorf("signed message: Auth = %+v, want authenticated by the node's DKIM check", got)
	}

	tampered := bytes.Replace(raw, []byte("10,00"), []byte("99,00"), 1)
	if got := extract.Extract(mime.Parse(tampered), tampered, extract.Options{LookupTXT: lookup}).Auth; got.Authenticated {
		t.Errorf("tampered message: Auth = %+v, want not authenticated", got)
	}
}

// TestMarkupCannotClaimAnotherSender: an Invoice whose markup names a
// well-known provider, sent from another domain, is the other domain's.
func TestMarkupCannotClaimAnotherSender(t *testing.T) {
	ld := `<script type="application/ld+json">{"@context":"http://schema.org","@type":"Invoice",
		"provider":{"@type":"Organization","name":"Deutsche Telekom"},"paymentDueDate":"2026-11-30",
		"totalPaymentDue":{"@type":"PriceSpecification","price":"899.00","priceCurrency":"EUR"}}</script>`
	m := &mime.Message{From: []mime.Address{{Name: "Telekom Service", Address: "billing@telekom-rechnung.example"}}, HTML: []string{ld}}
	res := extract.Extract(m, nil, extract.Options{AuthServIDs: []string{"mx.provider.example"}})
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
	res := extract.Extract(m, nil, extract.Options{AuthServIDs: []string{"mx.provider.example"}})
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
