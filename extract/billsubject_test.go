package extract_test

import (
	"testing"
	"time"
)

// TestBillNumberInSubject: a receipt or an invoice that prints its number
// only in its subject after "#" is numbered by it, in every language; a
// "#" before the bill's word, or in a subject that names no bill, numbers
// nothing.
func TestBillNumberInSubject(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // number and status
	}{
		{"Kestrel Labs <receipts@kestrellabs.example.com>", "Your receipt from Kestrel Labs #4471-0093",
			"Receipt from Kestrel Labs\nAmount paid $24.00\nDate paid Mar 3, 2026\nPayment method Visa - 1881\n\nKestrel Pro (monthly)  $24.00\n", "4471-0093 paid"},
		{"Atelier Lumen <compta@atelierlumen.example.fr>", "Votre facture #FA-2026-118",
			"Bonjour,\n\nVotre facture a bien été payée. Merci !\nMontant payé : 96,00 €\nPayé le 03/03/2026\n", "FA-2026-118 paid"},
		{"Gimnasio Brisa <cobros@gimnasiobrisa.example.es>", "Tu recibo #R-55120 de marzo",
			"Hola, Nuria:\n\nPago recibido. Importe pagado: 39,90 €\nPagado el 03/03/2026\n", "R-55120 paid"},
		// "#" before the bill's word; a subject with no bill's word.
		{"Kestrel Labs <receipts@kestrellabs.example.com>", "#4471 Your receipt from Kestrel Labs",
			"Receipt from Kestrel Labs\nAmount paid $24.00\nDate paid Mar 3, 2026\n", " paid"},
		{"Kestrel Labs <receipts@kestrellabs.example.com>", "Thanks for being with us #2026",
			"Payment received, thank you.\nAmount paid $24.00\nDate paid Mar 3, 2026\n", " paid"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)) {
			if b := f.Bill; b != nil {
				got = b.Number + " " + b.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
