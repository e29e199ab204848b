package extract_test

import (
	"testing"
	"time"
)

// TestBillNoticeWithoutNumber: an issuer's notice that its bill is there,
// with neither the bill's number nor its due day, is a bill due when its
// subject names a bill and its amount is labelled or in the bill's
// sentence; a shop's order with its invoice, an offer and a notice
// without an amount are none.
func TestBillNoticeWithoutNumber(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // amount and status
	}{
		{"Stadtwerke Auental <rechnung@stadtwerke-auental.example.de>", "Ihre Rechnung Oktober 2027", "Guten Tag,\n\nIhre Rechnung für Oktober 2027 ist da. Rechnungsbetrag: 64,20 €.\n\nIhre Stadtwerke Auental\n",
			"64.20 EUR due"},
		{"Fibrenet <billing@fibrenet.example.co.uk>", "Your October bill is ready", "Hi Sam,\n\nYour bill for October 2027 of £38.50 is ready to view in your account.\n",
			"38.50 GBP due"},
		{"Énergie Verte <factures@energieverte.example.fr>", "Votre facture d'octobre", "Bonjour,\n\nVotre facture d'octobre est disponible. Montant : 52,80 €.\n",
			"52.80 EUR due"},
		// A shop's order and its invoice; an offer; no amount.
		{"Wohnwelt <shop@wohnwelt.example.de>", "Ihre Bestellung und Rechnung", "Vielen Dank für Ihre Bestellung.\nBestellnummer: 4410923\nGesamtbetrag: 59,90 €\n", ""},
		{"Stromvergleich <info@stromvergleich.example.de>", "Sparen Sie bei Ihrer Stromrechnung", "Sparen Sie jetzt: Wechseln Sie den Anbieter.\nGesamtbetrag: 29,90 € im Monat\n", ""},
		{"Fibrenet <billing@fibrenet.example.co.uk>", "Your October bill is ready", "Hi Sam,\n\nYour bill for October 2027 is ready to view in your account.\n", ""},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2027, 11, 2, 7, 0, 0, 0, time.UTC)) {
			if b := f.Bill; b != nil && b.Amount != nil {
				got = b.Amount.Amount + " " + b.Amount.Currency + " " + b.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
