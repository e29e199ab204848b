package extract_test

import (
	"testing"
	"time"
)

// TestPrintedBillWithoutSender: a bill's PDF printed to text and kept
// without its mail's From (foreign-11's Bouygues Telecom and SFR
// bills): its summary row names the day between the total's label and
// its figure ("Montant prélevé le 6 décembre 2022   14,99", "Total
// amount due by 28 May 2026   37.80"), its date under the invoice's word
// is no number ("Date de facture : 23/11/2022", a subject's "Facture
// 20221206"), and its issuer is the company its legal line opens with.
// A month's name holds no currency ("mars 2026" is no "Rs 2026").
func TestPrintedBillWithoutSender(t *testing.T) {
	for _, c := range []struct {
		name, subject, body                   string
		issuer, number, amount, currency, due string
	}{
		{"fr prélevé, subject dated", "Facture 20260305",
			"Date de facture : 05/03/2026\nN° de facture : 7729104455\n\n€ HT € TTC\nMontant prélevé le 20 mars 2026 42,99\nVos forfaits 35,83 42,99\n\n" +
				"ORANGE SERVICES - Société anonyme au capital de 1 000 000 € - 380 129 866 RCS Nanterre\n",
			"Orange Services", "7729104455", "42.99", "EUR", "2026-03-20"},
		{"en due by, run-on head", "Your bill",
			"NORTHFIELD BROADBAND Bill date 11/05/2026 Bill number: NB-0093314\nPrevious balance £0.00\nTotal amount due by 28 May 2026 37.80\n\n" +
				"Northfield Broadband Ltd, Registered office: 4 Wharf Street, Leeds LS2 7EQ.\n",
			"Northfield Broadband Ltd", "NB-0093314", "37.80", "GBP", "2026-05-28"},
		{"it entro il", "Bolletta 20260402",
			"Numero fattura: 2026/0048812\nServizio acquedotto 21,40 €\nImporto da pagare entro il 30/04/2026 39,07\n\n" +
				"Acque del Serio S.r.l. - Sede legale: Via Moroni 12, 24122 Bergamo - Capitale sociale 5.000.000,00 € i.v.\n",
			"Acque del Serio S.r.l.", "2026/0048812", "39.07", "EUR", "2026-04-30"},
		{"de fällig am, table", "Rechnung 20260415",
			"Rechnungsnummer: SU-2026-118204\n\nIhre Abrechnung       EUR\nGrundpreis    12,40\nRechnungsbetrag fällig am 29.04.2026   84,13\n\n" +
				"Stadtwerke Uhlingen GmbH | Hauptstraße 1 | 79777 Uhlingen | Amtsgericht Freiburg HRB 700221\n",
			"Stadtwerke Uhlingen GmbH", "SU-2026-118204", "84.13", "EUR", "2026-04-29"},
	} {
		t.Run(c.name, func(t *testing.T) {
			facts := mailFacts("", c.subject, c.body, time.Time{})
			if len(facts) != 1 || facts[0].Bill == nil {
				t.Fatalf("got %+v, want one bill", facts)
			}
			b := facts[0].Bill
			due := ""
			if b.Due != nil {
				due = b.Due.Format("2006-01-02")
			}
			amount, cur := billAmount(b)
			if b.Issuer != c.issuer || b.Number != c.number || amount != c.amount || cur != c.currency || due != c.due {
				t.Errorf("got issuer %q number %q amount %s %s due %s; want %q %q %s %s %s", b.Issuer, b.Number, amount, cur, due, c.issuer, c.number, c.amount, c.currency, c.due)
			}
		})
	}
	// A placeholder's day and a refund's are no bill's summary row.
	for _, body := range []string{
		"MIEUX COMPRENDRE VOTRE FACTURE\n€ HT € TTC\nMontant prélevé le jour/mois/année 155,65\n",
		"Votre facture\nMontant remboursé le 12 mars 2026 15,00\n\nOrange SA - Société anonyme au capital de 10 640 226 396 €\n",
	} {
		if facts := mailFacts("", "Comprendre votre facture", body, time.Time{}); len(facts) != 0 {
			t.Errorf("%q: got %+v, want nothing", body, facts)
		}
	}
}

// TestMonthSlashDayDue: a billing system's day with the month's name
// first and the day and year after slashes or dashes ("Due date:
// May/13/2026", foreign-11's HostPapa invoice) is the bill's due day, as
// "13/May/2026" was.
func TestMonthSlashDayDue(t *testing.T) {
	day := time.Date(2026, 4, 28, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct{ body, due string }{
		{"This is to inform you that invoice number 2026-8841 for your Hostkraft services was generated on Apr/28/2026.\n\nTotal due: $ 46.40\nDue date: May/13/2026\n", "2026-05-13"},
		{"Invoice INV-7731 generated on Apr-28-2026.\nAmount due: $ 19.00\nDue date: Jun-02-2026\n", "2026-06-02"},
	} {
		facts := mailFacts("Hostkraft Billing <billing@hostkraft.example>", "Invoice generated", c.body, day)
		if len(facts) != 1 || facts[0].Bill == nil || facts[0].Bill.Due == nil {
			t.Errorf("%q: got %+v, want a bill with its due day", c.body, facts)
			continue
		}
		if got := facts[0].Bill.Due.Format("2006-01-02"); got != c.due {
			t.Errorf("%q: due %s, want %s", c.body, got, c.due)
		}
	}
}
