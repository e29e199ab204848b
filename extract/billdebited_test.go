package extract_test

import (
	"testing"
	"time"
)

// TestBillDebitedIsPaid: an invoice that says its amount was taken
// already is paid, though it prints its payment term's date: the seventh
// outside set's hosting invoices ("has been debited", "wurde …
// abgebucht") were read as due. A debit to come, a debit denied and an
// earlier payment's debit beside another amount leave the bill due.
func TestBillDebitedIsPaid(t *testing.T) {
	for _, c := range []struct {
		from, subject, text, want string
	}{
		{"Rackmoss Cloud <accounts@rackmoss.example>", "Your invoice RM-2026-104471",
			"Dear customer,\n\nInvoice number: RM-2026-104471\nInvoice amount: € 41.65\nPayment due: 16 November 2026\n\nThe amount has been debited from your account by SEPA direct debit.\n", "RM-2026-104471 paid"},
		{"Serverkiste <rechnung@serverkiste.example>", "Ihre Rechnung SK-0047718",
			"Rechnungsnummer: SK-0047718\nRechnungsbetrag: 18,57 €\nZahlungsziel: 16.11.2026\n\nDer Rechnungsbetrag wurde per Lastschrift von Ihrem Konto abgebucht. Sie müssen nichts weiter tun.\n", "SK-0047718 paid"},
		{"Nuage Vert <facturation@nuagevert.example>", "Votre facture NV-55121",
			"Facture NV-55121\nMontant : 29,00 €\nDate d'échéance : 16/11/2026\n\nLe montant a été prélevé sur votre carte bancaire le 2 novembre.\n", "NV-55121 paid"},
		{"LineaChiara <fatture@lineachiara.example>", "La tua fattura",
			"Numero fattura: AC26088121\nImporto: 32,99 €\nScadenza: 23/11/2026\n\nL'importo è stato addebitato sul tuo conto.\n", "AC26088121 paid"},
		// A debit to come, or denied, or another payment's.
		{"Serverkiste <rechnung@serverkiste.example>", "Ihre Rechnung SK-0047719",
			"Rechnungsnummer: SK-0047719\nRechnungsbetrag: 18,57 €\nZahlungsziel: 16.11.2026\n\nDer Betrag wird am 16.11.2026 von Ihrem Konto abgebucht.\n", "SK-0047719 due"},
		{"Rackmoss Cloud <accounts@rackmoss.example>", "Your invoice RM-2026-104472",
			"Invoice number: RM-2026-104472\nInvoice amount: € 41.65\nPayment due: 16 November 2026\n\nThe amount will be debited from your account on the due date.\n", "RM-2026-104472 due"},
		{"Rackmoss Cloud <accounts@rackmoss.example>", "Your invoice RM-2026-104473",
			"Invoice number: RM-2026-104473\nInvoice amount: € 41.65\nPayment due: 16 November 2026\n\nThe amount has not been debited yet: please pay by bank transfer.\n", "RM-2026-104473 due"},
		{"Rackmoss Cloud <accounts@rackmoss.example>", "Your invoice RM-2026-104474",
			"Invoice number: RM-2026-104474\nInvoice amount: € 41.65\nPayment due: 16 November 2026\n\nYour last invoice of € 39.10 was debited on 16 October.\n", "RM-2026-104474 due"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 11, 2, 6, 0, 0, 0, time.UTC)) {
			if b := f.Bill; b != nil {
				got = b.Number + " " + b.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
