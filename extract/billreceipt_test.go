package extract_test

import (
	"testing"
	"time"
)

// TestPaymentReceiptWords: a payment's receipt in the words of each
// language ("Paiement reçu", "Zahlungsbestätigung", "Ricevuta di
// pagamento", "Pagamento recebido", "Betaling ontvangen") is a bill paid,
// numbered by its receipt's label ("Reçu n°", "Quittung Nr.", "Ricevuta
// n.", "Recibo n.º", "Recibo #", "Kwitantienummer").
func TestPaymentReceiptWords(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // number, status and amount
	}{
		{"Club Nautique <tresorerie@clubnautique.example.fr>", "Paiement reçu",
			"Bonjour,\n\nReçu n° CN-2026-0412\nMontant payé : 180,00 €\nPayé le 03/10/2026\nObjet : cotisation annuelle\n", "CN-2026-0412 paid 180.00"},
		{"Tanzschule Wirbel <buchhaltung@tanzschule-wirbel.example.de>", "Zahlungsbestätigung",
			"Hallo Frau Kern,\n\nQuittung Nr. TW-88120\nBezahlter Betrag: 96,00 €\nBezahlt am 03.10.2026\n", "TW-88120 paid 96.00"},
		{"Scuola Arcobaleno <segreteria@scuolaarcobaleno.example.it>", "Ricevuta di pagamento",
			"Gentile famiglia,\n\nRicevuta n. SA-5512\nImporto pagato: 120,00 €\nPagato il 03/10/2026\n", "SA-5512 paid 120.00"},
		{"Ginásio Norte <pagamentos@ginasionorte.example.pt>", "Pagamento recebido",
			"Olá,\n\nRecibo n.º GN-3307\nValor pago: 35,00 €\nPago em 03/10/2026\n", "GN-3307 paid 35.00"},
		{"Academia Sol <cobros@academiasol.example.es>", "Pago recibido",
			"Hola:\n\nRecibo #AS-7781\nImporte pagado: 45,00 €\nPagado el 03/10/2026\n", "AS-7781 paid 45.00"},
		{"Sportclub De Hoek <penningmeester@sportclubdehoek.example.nl>", "Betaling ontvangen",
			"Beste Daan,\n\nKwitantienummer: DH-1190\nBetaald bedrag: € 65,00\nBetaald op 03-10-2026\n", "DH-1190 paid 65.00"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 10, 4, 9, 0, 0, 0, time.UTC)) {
			if b := f.Bill; b != nil && b.Amount != nil {
				got = b.Number + " " + b.Status + " " + b.Amount.Amount
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
