package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// Classes found by the held-out set foreign-8 (issue 46, xf8c,
// 2026-11-29), proved here with other vendors than the mails that
// showed them.

// TestPaymentTermsDue: a payment term with several days, one earning an
// early payment's discount (Skonto, escompte, descuento, sconto,
// korting, discount) and one without: the bill is due by the day
// without; a discount's day alone is no due day; "Payable until" alone
// is the due day.
func TestPaymentTermsDue(t *testing.T) {
	day := time.Date(2026, 9, 2, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct{ from, subject, body, want string }{
		{"Eisenwaren Brandl GmbH <rechnung@eisenwaren-brandl.example>", "Rechnung RE-88120",
			"Rechnungsnummer: RE-88120\nRechnungsbetrag: 1.204,50 EUR\n\nZahlbar bis 12.09.2026 abzüglich 2 % Skonto = 1.180,41 EUR\nZahlbar bis 02.10.2026 ohne Abzug\n",
			"2026-10-02"},
		{"Harlow Fasteners Ltd <accounts@harlow-fasteners.example>", "Invoice HF-30417",
			"Invoice No: HF-30417\nInvoice total: GBP 2,310.00\n\nPayable until 12.09.2026 2.00% discount = 2,263.80\nPayable until 02.10.2026 without deduction\n",
			"2026-10-02"},
		{"Menuiserie Aubert <compta@menuiserie-aubert.example>", "Facture F-2026-0912",
			"Facture n° F-2026-0912\nMontant TTC : 3 480,00 EUR\n\nÉchéance : 12/09/2026 avec escompte de 1 %\nÉchéance : 02/10/2026 net\n",
			"2026-10-02"},
		{"Suministros Ferrán <facturas@suministros-ferran.example>", "Factura FV-7731",
			"Factura n.º FV-7731\nImporte total: 1.915,20 EUR\n\nVencimiento: 12/09/2026 con 2 % de descuento por pronto pago\nVencimiento: 02/10/2026 neto\n",
			"2026-10-02"},
		{"Ferramenta Lucchesi <fatture@ferramenta-lucchesi.example>", "Fattura 2026/418",
			"Fattura n. 2026/418\nTotale documento: 742,00 EUR\n\nScadenza: 12/09/2026 sconto 2%\nScadenza: 02/10/2026 netto\n",
			"2026-10-02"},
		{"Bouwmaterialen Veenstra <facturen@veenstra-bouw.example>", "Factuur 2026-5530",
			"Factuurnummer: 2026-5530\nTotaal: € 1.288,00\n\nBetalen vóór 12-09-2026 met 2% betalingskorting\nBetalen vóór 02-10-2026 netto\n",
			"2026-10-02"},
		// "2/10 net 30" written out with its days.
		{"Kessler Industrial Supply <ar@kessler-supply.example>", "Invoice KIS-55102",
			"Invoice #: KIS-55102\nAmount due: $8,420.00\nTerms: 2/10 net 30\nPay by 09/12/2026 for 2% discount ($8,251.60)\nDue date: 10/02/2026\n",
			"2026-10-02"},
		// The discount's day alone: the bill's due day is not known.
		{"Werkzeug Haas KG <rechnung@werkzeug-haas.example>", "Rechnung 77104",
			"Rechnungsnummer: 77104\nRechnungsbetrag: 318,00 EUR\n\nZahlbar bis 12.09.2026 mit 3 % Skonto\n",
			""},
		// "Payable until" alone.
		{"Ostrander Tool & Die <billing@ostrander-tool.example>", "Invoice OT-2290",
			"Invoice number: OT-2290\nTotal: EUR 655.00\nPayable until 02.10.2026\n",
			"2026-10-02"},
	} {
		facts := mailFacts(c.from, c.subject, c.body, day)
		if len(facts) != 1 || facts[0].Bill == nil {
			t.Errorf("%s: got %+v, want one bill", c.from, facts)
			continue
		}
		got := ""
		if d := facts[0].Bill.Due; d != nil {
			got = d.Time.Format("2006-01-02")
		}
		if got != c.want {
			t.Errorf("%s: due = %q, want %q", c.from, got, c.want)
		}
	}
}

// TestMalformedSenderNoDomain: a From whose text no parser reads as an
// address gives a bill no domain that is not a domain's shape.
func TestMalformedSenderNoDomain(t *testing.T) {
	msg := &mime.Message{
		From:    []mime.Address{{Address: "=?utf-8?q?Bauhof_Kr=C3=A4mer?= <rechnung@bauhof-kraemer.example> =?utf-8?q?mer=2Eexample=3E?="}},
		Subject: "Rechnung 2026-771", Date: time.Date(2026, 9, 2, 9, 0, 0, 0, time.UTC),
		Text: "Rechnungsnummer: 2026-771\nRechnungsbetrag: 410,00 EUR\nFällig am 02.10.2026\n",
	}
	for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
		if f.Bill != nil && f.Bill.Domain != "" && !mime.IsDomain(f.Bill.Domain) {
			t.Errorf("bill domain = %q, not a domain", f.Bill.Domain)
		}
	}
}

// TestPurchaseOrderShipped: a supplier's shipping notice for a purchase
// order names it by "PO" and its number ("PO 4471", "PO-7781", "PO#
// 20931"); a department's display name ("Despatch", "Versandabteilung",
// "Expéditions") names no merchant, so that the domain shows the sender.
func TestPurchaseOrderShipped(t *testing.T) {
	day := time.Date(2026, 3, 13, 8, 0, 0, 0, time.UTC)
	for _, c := range []struct{ from, subject, body, number string }{
		{"Despatch <despatch@labvantage-supplies.example>", "PO 5120 dispatched",
			"Your order PO 5120 has been dispatched today with UPS.\nTracking number: 1Z999AA10123456784\n", "PO 5120"},
		{"Versandabteilung <versand@druckerei-hollmann.example>", "Ihre Bestellung wurde versandt",
			"Ihr Auftrag PO-88213 wurde heute versandt.\nSendungsnummer: 00340434161094042557\n", "PO-88213"},
		{"Expéditions <expeditions@fournitures-roussel.example>", "Commande expédiée",
			"Votre commande PO# 20931 a été expédiée ce jour.\nNuméro de suivi : 6A21458736920\n", "PO# 20931"},
	} {
		facts := mailFacts(c.from, c.subject, c.body, day)
		if len(facts) != 1 || facts[0].Order == nil {
			t.Errorf("%s: got %+v, want one order", c.from, facts)
			continue
		}
		if o := facts[0].Order; o.Number != c.number || o.Merchant != "" {
			t.Errorf("%s: order %q from %q, want %q from no name", c.from, o.Number, o.Merchant, c.number)
		}
	}
}
