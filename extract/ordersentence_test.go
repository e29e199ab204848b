package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestOrderNumberInSentence: an order's number that a sentence gives after
// the order's word, a short verb's words and the word for a number
// ("Twoje zamówienie otrzymało numer: 37943"), or after a German compound
// of the order's word and "Nummer" ("Bestellungsreferenznummer 456629"), is
// the order's, and so is a code of letters and digits right after the
// order's word with its verb after it ("Twoje zamówienie kT7qW2xa
// zostało potwierdzone"), unless it is a parcel's number; a mail with no
// display name is the shop's as it prints its name where that spells the
// domain ("PEJO GRAVUREN"), and a role's name still leaves the domain.
func TestOrderNumberInSentence(t *testing.T) {
	for _, tt := range []struct {
		name, from, subject, body string
		number, merchant, status  string
	}{
		{"pl", "<nie-odpowiadaj@sklep-lipa.pl>", "Złożone zamówienie",
			"Dziękujemy za złożenie zamówienia.\nTwoje zamówienie otrzymało numer: 52018.\nPozdrawiamy\nZespół Sklep-Lipa.pl\n",
			"52018", "Sklep-Lipa.pl", extract.StatusOrdered},
		{"en", "<orders@bramblecraft.co.uk>", "Bramblecraft order confirmation",
			"Thank you for your order.\nYour order has been given the number 40117.\n",
			"40117", "Bramblecraft", extract.StatusOrdered},
		{"de compound", "shop@holzwerk-alpen.ch", "HOLZWERK ALPEN - Ihre Bestellung wurde versendet",
			"Guten Tag\n\nwir haben Ihre Bestellung mit der\nBestellungsreferenznummer 456629\nheute versendet.\n",
			"456629", "HOLZWERK ALPEN", extract.StatusShipped},
		// A role's name is no shop's: the shop as it prints its name,
		// where the name spells the domain (printedDomainName).
		{"a role's name, the shop as it prints it", "Customer Service <orders@bramblecraft.co.uk>", "Bramblecraft order confirmation",
			"Thank you for your order.\nYour order has been given the number 40117.\n",
			"40117", "Bramblecraft", extract.StatusOrdered},
		{"a role's name, no name printed", "Customer Service <orders@bramblecraft.co.uk>", "Order confirmation",
			"Thank you for your order.\nYour order has been given the number 40117.\n",
			"40117", "bramblecraft.co.uk", extract.StatusOrdered},
		// A code of letters and digits right after the order's word, its
		// verb after it (foreign-20); a parcel's number there is none.
		{"pl, a code in both cases", "Sklep Lipa <sklep@sklep-lipa.example.pl>", "Potwierdzenie płatności",
			"Witaj,\nTwoje zamówienie kT7qW2xa zostało potwierdzone.\nOtrzymaliśmy płatność.\n",
			"kT7qW2xa", "Sklep Lipa", extract.StatusOrdered},
		{"en, a code in capitals", "Driftwood Goods <orders@driftwood.example.com>", "Payment confirmed",
			"Hi Sam,\nYour order KT7QW2XA has been confirmed and is being prepared.\n",
			"KT7QW2XA", "Driftwood Goods", extract.StatusOrdered},
		{"pt, a parcel's number", "CTT <notificacoes@ctt.example.pt>", "A sua encomenda",
			"Olá,\nA encomenda RB551207731PT enviada por Worten será entregue hoje.\n",
			"", "", ""},
		{"a count is no number", "<orders@bramblecraft.co.uk>", "Bramblecraft order confirmation",
			"Thank you for your order.\nYour order has the number of items: 3\nOrder placed 2027-05-01.\n",
			"", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got *extract.Order
			for _, f := range mailFacts(tt.from, tt.subject, tt.body, time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC)) {
				if f.Kind == extract.KindOrder {
					got = f.Order
				}
			}
			if tt.number == "" {
				if got != nil && got.Number != "" {
					t.Fatalf("order number %q, want none", got.Number)
				}
				return
			}
			if got == nil {
				t.Fatal("no order")
			}
			merchant := got.Merchant
			if merchant == "" {
				merchant = got.Domain
			}
			if got.Number != tt.number || merchant != tt.merchant || got.Status != tt.status {
				t.Errorf("order = %q by %q (%s), want %q by %q (%s)", got.Number, merchant, got.Status, tt.number, tt.merchant, tt.status)
			}
		})
	}
}
