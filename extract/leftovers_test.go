package extract_test

import (
	"testing"
	"time"
)

// TestCommerceLeftovers: a renewal numbered by its order is a bill paid
// with that number; an order's number may stand only in its subject after
// the words of an order placed; a subject that names a shipping notice
// makes its tracking number's parcel shipped (foreign-commerce2).
func TestCommerceLeftovers(t *testing.T) {
	day := time.Date(2027, 11, 15, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct{ from, subject, text, want string }{
		{"Cartotheque <facturation@cartotheque.example>", "Votre abonnement a été renouvelé",
			"Votre abonnement a été renouvelé.\nMontant : 71,88 €\nCommande n° CT-2027-40918\nLa facture est disponible dans votre espace client.\n",
			"bill CT-2027-40918 paid"},
		{"Zielnik <sklep@zielnik.example>", "Potwierdzenie zamówienia ZK/2027/11/0077",
			"Dziękujemy. Nasiona (3 opak.) wyślemy jutro.\n", "order ZK/2027/11/0077 ordered"},
		{"Paper <hello@paper.example>", "Order confirmation SO-55120", "Thanks! 3 x notebook.\n", "order SO-55120 ordered"},
		// A date after the words is no number.
		{"Paper <hello@paper.example>", "Order confirmation 19/11/2027", "Thanks! 3 x notebook.\n", ""},
		{"Harbor Knits <orders@harborknits.example>", "Shipping confirmation",
			"Order HK-30417\nUPS tracking number: 1Z4X8E736817720452\n", "order HK-30417 shipped"},
		// In a body, a shipping confirmation to come ships nothing.
		{"Harbor Knits <orders@harborknits.example>", "Thanks",
			"We'll send you a shipping confirmation soon.\nUPS tracking number: 1Z4X8E736817720452\n", ""},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, day) {
			switch {
			case f.Bill != nil:
				got = "bill " + f.Bill.Number + " " + f.Bill.Status
			case f.Order != nil:
				got = "order " + f.Order.Number + " " + f.Order.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
