package extract_test

import (
	"testing"
	"time"
)

// TestReceivedPaymentPaid: a bill whose mail says its payment was received
// ("wir haben Ihre Zahlung erhalten", "nous avons bien reçu votre
// paiement", "we've received your payment") is paid, in every language; a
// payment to come ("Sobald wir Ihre Zahlung erhalten haben", "Once we have
// received your payment") leaves it due.
func TestReceivedPaymentPaid(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // number and status
	}{
		{"Webhaus Kranich <rechnung@webhaus-kranich.example.de>", "Ihre Rechnung 2026-118", "Guten Tag,\nwir haben Ihre Zahlung erhalten. Vielen Dank!\nRechnungsnummer: 2026-118\nRechnungsbetrag: 49,90 €\n", "2026-118 paid"},
		{"Atelier Brume <compta@atelierbrume.example.fr>", "Votre facture FA-118", "Bonjour,\nnous avons bien reçu votre paiement. Merci !\nFacture n° FA-118\nMontant : 49,90 €\n", "FA-118 paid"},
		{"Estudio Faro <facturas@estudiofaro.example.es>", "Tu factura F-118", "Hola,\nhemos recibido tu pago. ¡Gracias!\nNúmero de factura: F-118\nImporte: 49,90 €\n", "F-118 paid"},
		{"Studio Vela <fatture@studiovela.example.it>", "La tua fattura F-118", "Ciao,\nabbiamo ricevuto il tuo pagamento. Grazie!\nNumero fattura: F-118\nImporto: 49,90 €\n", "F-118 paid"},
		{"Oficina Mar <faturas@oficinamar.example.pt>", "A sua fatura F-118", "Olá,\nrecebemos o seu pagamento. Obrigado!\nNúmero da fatura: F-118\nValor: 49,90 €\n", "F-118 paid"},
		{"Pinecrest Hosting <billing@pinecresthosting.example.com>", "Your invoice INV-118", "Hi,\nwe've received your payment. Thanks!\nInvoice number: INV-118\nAmount: $49.90\n", "INV-118 paid"},
		// A payment to come.
		{"Webhaus Kranich <rechnung@webhaus-kranich.example.de>", "Ihre Rechnung 2026-119", "Guten Tag,\nsobald wir Ihre Zahlung erhalten haben, versenden wir die Ware.\nRechnungsnummer: 2026-119\nRechnungsbetrag: 49,90 €\nZahlbar bis: 15.10.2026\n", "2026-119 due"},
		{"Pinecrest Hosting <billing@pinecresthosting.example.com>", "Your invoice INV-119", "Hi,\nOnce we have received your payment, your plan renews.\nInvoice number: INV-119\nAmount due: $49.90\nDue date: October 15, 2026\n", "INV-119 due"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 10, 4, 9, 0, 0, 0, time.UTC)) {
			if b := f.Bill; b != nil {
				got = b.Number + " " + b.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
