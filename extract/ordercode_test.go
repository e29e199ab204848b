package extract_test

import (
	"testing"
	"time"
)

// TestOrderCodeAndLabelCurrency: an order's number after a word for its
// code ("BestellCode", "Order code", "Codice ordine") and a total whose
// currency is in its label ("Total in CHF" over "53,00", "Total in EUR:
// 41,80"), also in an order forwarded under "> " quotes; after the
// confirmation's own title and its number's sign ("Bestellbestätigung
// Nr.", "Order Confirmation #", "Orderbevestiging nr.").
func TestOrderCodeAndLabelCurrency(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // number, total, status
	}{
		{"Sushi Nord <bestellung@sushi-nord.example.ch>", "Neue Bestellung", "Vielen Dank für Ihre Bestellung\nBestellCode\n2207\nLieferung 23.01. 19:00-19:30\n2 x Maki 8 Stk.\nCHF 17,80\nTotal in CHF\n26,30\n",
			"2207 26.30 CHF ordered"},
		{"Pasta Via <orders@pastavia.example.ie>", "Your order", "Thanks for your order!\nOrder code: PV-5521\n1 x Lasagne  12.50\nTotal in EUR: 41,80\n",
			"PV-5521 41.80 EUR ordered"},
		{"Anna <anna@example.com>", "Fwd: Neue Bestellung", "Schau mal:\n\nAnfang der weitergeleiteten E-Mail:\n\n> Von: Sushi Nord <bestellung@sushi-nord.example.ch>\n> Datum: 23. Januar 2027 um 18:38:15 MEZ\n> An: <anna@example.com>\n> Betreff: Neue Bestellung\n>\n> Vielen Dank für Ihre Bestellung\n> BestellCode\n> 2208\n> Total in CHF\n> 31,50\n",
			"2208 31.50 CHF ordered"},
		// The confirmation's own title and its number's sign ("Bestell-
		// bestätigung Nr.", "Order Confirmation #", foreign-20).
		{"Elektrohaus <noreply@elektrohaus.example.de>", "Bestellbestätigung", "Bestellbestätigung Nr. 77120443\nHallo Jana,\n1\tUSB-C Ladegerät 65 W\t39,90 €\nZwischensumme:\t33,53 €\nEndbetrag inkl. MwSt:\t39,90 €\n",
			"77120443 39.90 EUR ordered"},
		{"Driftwood Goods <orders@driftwood.example.com>", "Thanks for your order", "Order Confirmation #DW-44120\nHi Sam,\nCeramic planter x1 $34.00\nOrder total: $34.00\n",
			"DW-44120 34.00 USD ordered"},
		{"Fietsplaats <info@fietsplaats.example.nl>", "Bedankt voor je bestelling", "Orderbevestiging nr. 551204\nBedankt voor je bestelling!\nFietslamp set 1x € 24,95\nTotaal: € 24,95\n",
			"551204 24.95 EUR ordered"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2027, 1, 23, 18, 40, 0, 0, time.UTC)) {
			if o := f.Order; o != nil && o.Total != nil {
				got = o.Number + " " + o.Total.Amount + " " + o.Total.Currency + " " + o.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
