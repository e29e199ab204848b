package extract_test

import (
	"testing"
	"time"
)

// Classes known from earlier held-out sets (issue 46, xf9c, 2026-11-30):
// a leg's clocks written with an h, as French, Canadian French and
// Portuguese write them ("à 18 h 55", "às 14h"), and an invoice whose due
// day is a day count from its date ("30 Tage netto", "2/10 net 30").
// Every row but the distractors' gave no leg or no due day before.

// TestHClockLegs: a leg whose stops' clocks are h clocks.
func TestHClockLegs(t *testing.T) {
	for _, c := range []struct {
		name, from, subject, body string
		kind, depart, arrive      string // "" kind: no fact
	}{
		{"fr-CA: à 18 h 55", "Rail Océan Canada <billets@railocean.example.ca>", "Votre billet électronique",
			"Numéro de réservation : 6K2P9W\n\nTrain 22\nMontréal → Québec\nDépart : jeudi 22 octobre 2026 à 18 h 55\nArrivée : 22 h 10\nDurée du trajet : 3 h 15\n",
			"train", "2026-10-22 18:55", "2026-10-22 22:10"},
		{"pt: às 14h on a route line", "Expressos Serra Norte <bilhetes@serranorte.example.pt>", "O seu bilhete",
			"Código de reserva: SN-770412\nAutocarro Porto (Terminal de Campanhã) às 14h → Bragança (Terminal Rodoviário) às 17h35\nData: 24/10/2026\nDuração: 3h35\n",
			"bus", "2026-10-24 14:00", "2026-10-24 17:35"},
		{"fr: durations only", "Cars Littoral <infos@carslittoral.example.fr>", "Nouveaux temps de parcours",
			"À compter du 2 novembre 2026, les temps de parcours de la ligne 12 changent :\n\nLa Rochelle - Rochefort : durée 0 h 50\nLa Rochelle - Royan : durée 1 h 45\n",
			"", "", ""},
	} {
		facts := mailFacts(c.from, c.subject, c.body, time.Date(2026, 10, 6, 12, 0, 0, 0, time.UTC))
		if c.kind == "" {
			if len(facts) != 0 {
				t.Errorf("%s: got %+v, want none", c.name, facts)
			}
			continue
		}
		if len(facts) != 1 || facts[0].Kind != c.kind || facts[0].Segment == nil || facts[0].Segment.Depart == nil || facts[0].Segment.Arrive == nil {
			t.Errorf("%s: got %+v, want one %s", c.name, facts, c.kind)
			continue
		}
		s := facts[0].Segment
		if d, a := s.Depart.Format("2006-01-02 15:04"), s.Arrive.In(s.Depart.Location()).Format("2006-01-02 15:04"); d != c.depart || a != c.arrive {
			t.Errorf("%s: %s → %s, want %s → %s", c.name, d, a, c.depart, c.arrive)
		}
	}
}

// TestNetTermDue: the invoice's date plus the net days, never the
// discount's days; a quotation's terms make no bill's due day.
func TestNetTermDue(t *testing.T) {
	for _, c := range []struct {
		name, from, subject, body string
		due                       string // "": no due day
	}{
		{"de: 2 % 10 Tage, 30 Tage netto", "Holzbau Kranich <rechnung@holzbau-kranich.example.de>", "Rechnung RE-2026-0913",
			"Rechnungsnummer: RE-2026-0913\nRechnungsdatum: 03.11.2026\nRechnungsbetrag: 4.284,00 EUR\n\nZahlungsbedingungen: 2 % 10 Tage, 30 Tage netto\n", "2026-12-03"},
		{"en: 2% 10 days, net 30", "Brightline Signs <accounts@brightlinesigns.example.co.uk>", "Invoice BLS-40718",
			"Invoice number: BLS-40718\nInvoice date: 5 November 2026\nAmount: £1,920.00\n\nTerms: 2% 10 days, net 30\n", "2026-12-05"},
		{"en: 2/10 net 30", "Brightline Signs <accounts@brightlinesigns.example.co.uk>", "Invoice BLS-40719",
			"Invoice number: BLS-40719\nInvoice date: 28 November 2026\nAmount: £310.00\n\nTerms: 2/10 net 30\n", "2026-12-28"},
		{"nl: netto 30 dagen", "Schildersbedrijf De Vries <facturen@devrieschilders.example.nl>", "Factuur F2026-1187",
			"Factuurnummer: F2026-1187\nFactuurdatum: 09-11-2026\nTotaal te betalen: € 2.359,50\n\nBetalingsvoorwaarden: netto 30 dagen\n", "2026-12-09"},
		{"fr: 30 jours net", "Imprimerie Garance <compta@imprimerie-garance.example.fr>", "Facture FA-26-0571",
			"Facture n° FA-26-0571\nDate de facture : 04/11/2026\nMontant TTC : 1 476,00 €\n\nConditions de paiement : 30 jours net\n", "2026-12-04"},
		{"de-AT: innerhalb 14 Tagen ohne Abzug", "Elektro Sonnleitner <buero@elektro-sonnleitner.example.at>", "Ihre Rechnung 26-3390",
			"Rechnung Nr. 26-3390\nRechnungsdatum: 6. November 2026\nGesamtbetrag: € 612,40\n\nZahlbar innerhalb 14 Tagen ohne Abzug.\n", "2026-11-20"},
		{"de: a discount's days alone", "Holzbau Kranich <rechnung@holzbau-kranich.example.de>", "Rechnung RE-2026-0914",
			"Rechnungsnummer: RE-2026-0914\nRechnungsdatum: 03.11.2026\nRechnungsbetrag: 980,00 EUR\n\n2 % Skonto innerhalb 10 Tagen\n", ""},
		{"en: a quotation's terms", "Harbourside Joinery <quotes@harboursidejoinery.example.co.uk>", "Quotation Q-2207",
			"Quotation number: Q-2207\nQuotation date: 2 November 2026\nTotal: £3,450.00\n\nTerms: 2% 10 days, net 30 from the date of invoice\n", ""},
	} {
		var due string
		for _, f := range mailFacts(c.from, c.subject, c.body, time.Date(2026, 11, 5, 9, 0, 0, 0, time.UTC)) {
			if f.Bill != nil && f.Bill.Due != nil {
				due = f.Bill.Due.Format("2006-01-02")
			}
		}
		if due != c.due {
			t.Errorf("%s: due %q, want %q", c.name, due, c.due)
		}
	}
}
