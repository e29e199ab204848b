package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestIssuerAsPrinted: a bill's issuer is the company's name as its
// papers print it, shown for an authenticated sender when it agrees with
// the domain: the display name less its department's words with the
// legal form the text signs with ("Harrowgate Paper Billing" signs
// "Harrowgate Paper Ltd"), a letterhead in bold whose domain leaves out
// its "&", a footer's company data in capitals
// under a salesman's mail, the initials of three words or more as the
// domain's whole name; a salesman's own name never.
func TestIssuerAsPrinted(t *testing.T) {
	day := time.Date(2026, 9, 8, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct{ from, body, fact, shown string }{
		{"Harrowgate Paper Billing <billing@harrowgate-paper.example>",
			"Invoice number: HP-20931\nAmount due: $611.00\nDue date: 2026-10-08\n\nThank you,\nBilling team\nHarrowgate Paper Ltd\n",
			"Harrowgate Paper Ltd", "Harrowgate Paper Ltd"},
		{"Klaus Berger <k.berger@nordwind-elektro.example>",
			"RECHNUNG\nRechnungsnummer: 4410982\nRechnungsbetrag: 1.204,50 EUR\nZahlbar bis 02.10.2026 ohne Abzug\n\nNORDWIND ELEKTRO GMBH GROSSHANDEL | HAFENSTRASSE 3 | 28217 BREMEN | T +49 421 55 01-0\n",
			"Nordwind Elektro GmbH", "Nordwind Elektro GmbH"},
		// A salesman's mail whose footer names a company the domain is
		// not: no name, the domain shows the sender.
		{"Klaus Berger <k.berger@nwe-gruppe.example>",
			"RECHNUNG\nRechnungsnummer: 4410983\nRechnungsbetrag: 1.204,50 EUR\nZahlbar bis 02.10.2026 ohne Abzug\n\nNORDWIND ELEKTRO GMBH GROSSHANDEL | HAFENSTRASSE 3 | 28217 BREMEN | T +49 421 55 01-0\n",
			"", "nwe-gruppe.example"},
		// A letterhead in Markdown's bold over the address block, its
		// "&" left out and its umlaut spelled out in the domain.
		{"Rechnungsstelle <rechnung@baustoffe-fliesen-schaefer.example>",
			"# RECHNUNG\n\n**Baustoffe & Fliesen Schäfer GmbH**\nHauptstraße 4\n79100 Freiburg\n\nRechnungs-Nr.: 2026-B-118\nGesamtbetrag: €1.120,00\nZahlbar bis 02.10.2026 ohne Abzug\n",
			"Baustoffe & Fliesen Schäfer GmbH", "Baustoffe & Fliesen Schäfer GmbH"},
		// Initials agree under an established suffix (.com, a
		// country's), where every short label has long been held.
		{"Northern Lakes Water and Power <billing@nlwp.com>",
			"Your bill is ready\nAccount number: 5520-118\nTotal amount due: $88.20\nDue date: October 8, 2026\n\nNorthern Lakes Water and Power Company\nP.O. Box 400\n",
			"Northern Lakes Water and Power Company", "Northern Lakes Water and Power Company"},
		// A stranger's domain of the initials with more letters, or the
		// initials of a brand's name under a domain not the brand's.
		{"Northern Lakes Water and Power <billing@nlwp-billing.example>",
			"Your bill is ready\nAccount number: 5520-118\nTotal amount due: $88.20\nDue date: October 8, 2026\n",
			"", "nlwp-billing.example"},
		// Under a new suffix anyone buys the initials this week
		// (the eleventh outside review, LOW-8).
		{"Northern Lakes Water and Power <billing@nlwp.help>",
			"Your bill is ready\nAccount number: 5520-118\nTotal amount due: $88.20\nDue date: October 8, 2026\n",
			"", "nlwp.help"},
		// A name agreeing with its domain by one word of many carries no
		// phrase along (MEDIUM-7).
		{"Harrowgate Already Paid No Action Needed <billing@harrowgate-paper.example>",
			"Invoice number: HP-20932\nAmount due: $611.00\nDue date: 2026-10-08\n",
			"", "harrowgate-paper.example"},
		{"Amazon Web Services <billing@aws.example>",
			"Your invoice is ready\nInvoice number: 1188203321\nTotal amount due: $12.40\nDue date: October 8, 2026\n",
			"", "aws.example"},
	} {
		facts := mailFacts(c.from, "Invoice", c.body, day)
		if len(facts) != 1 || facts[0].Bill == nil {
			t.Errorf("%s: got %+v, want one bill", c.from, facts)
			continue
		}
		if got := facts[0].Bill.Issuer; got != c.fact {
			t.Errorf("%s: issuer = %q, want %q", c.from, got, c.fact)
		}
		m := extract.Merge([]extract.Record{{Fact: facts[0], Message: 1, Date: day, Authenticated: true}})
		if len(m.Bills) != 1 || m.Bills[0].Issuer != c.shown {
			t.Errorf("%s: shown as %+v, want %q", c.from, m.Bills, c.shown)
		}
	}
}

// TestIssuerFromFooterLines: a bill whose sender gives no name names its
// company only in a footer printed as lines: the name up to its legal
// form, alone on its line or before a comma or full stop, beside an
// address or a register's line, in several languages. A bank named in
// the bank details and a managing director are never the issuer, even
// where the bank's name agrees with the domain.
func TestIssuerFromFooterLines(t *testing.T) {
	day := time.Date(2026, 9, 8, 9, 0, 0, 0, time.UTC)
	const bill = "Rechnungsnummer: 7731-0925\nRechnungsbetrag: 54,90 EUR\nFällig am: 22.09.2026\n\nMit freundlichen Grüßen\n\n"
	for _, c := range []struct{ from, body, fact, shown string }{
		{"rechnung@telefonica-de.example",
			bill + "Telefónica Germany GmbH & Co. OHG\nGeorg-Brauchle-Ring 50\n80992 München\nRegistergericht München HRA 70343\n",
			"Telefónica Germany GmbH & Co. OHG", "Telefónica Germany GmbH & Co. OHG"},
		{"facture@orange-services.example",
			"Facture n° 4411907722\nMontant : 41,99 €\nÀ payer avant le 22/09/2026\n\nOrange Services SA, société anonyme au capital de 1 000 000 €\nSiège social : 78 rue Olivier de Serres, 75015 Paris\n",
			"Orange Services SA", "Orange Services SA"},
		{"billing@vodafone-uk.example",
			"Invoice number: 8812-4410\nAmount due: £32.50\nDue date: 22 September 2026\n\nVodafone Limited. Registered Office: Vodafone House, The Connection, Newbury RG14 2FN.\n",
			"Vodafone Limited", "Vodafone Limited"},
		{"facturas@endesa-energia.example",
			"Factura n.º PM26091100231\nImporte: 63,12 €\nFecha de cargo: 22/09/2026\n\nEndesa Energía, S.A.U.\nDomicilio social: Ribera del Loira 60, 28042 Madrid\n",
			"Endesa Energía", "Endesa Energía"},
		{"noreply@eneco.example",
			"Factuurnummer: 300118822\nBedrag: € 88,40\nVervaldatum: 22-09-2026\n\nEneco Consumenten B.V.\nKvK 24400333\n",
			"Eneco Consumenten BV", "Eneco Consumenten BV"},
		// The bank of the bank details agrees with the domain by its
		// town; the director is a person: the domain's name is shown.
		{"rechnung@stadtwerke-talheim.example",
			bill + "Bankverbindung\nTalheimer Bank AG\nIBAN DE12 6005 0101 0001 2345 67\nGeschäftsführer: Jan Talheim\n",
			"stadtwerke-talheim", "stadtwerke-talheim"},
		// A footer's company the domain is not (a reseller's name).
		{"rechnung@kabel-nord.example",
			bill + "Telefónica Germany GmbH & Co. OHG\nGeorg-Brauchle-Ring 50\n80992 München\n",
			"kabel-nord", "kabel-nord"},
		// A name with its legal form in a sentence is no footer's.
		{"rechnung@mobilfunk-west.example",
			bill + "Mobilfunk West GmbH bedankt sich für Ihren Auftrag.\nIhre Kundennummer: 881\n",
			"mobilfunk-west", "mobilfunk-west"},
	} {
		facts := mailFacts(c.from, "Rechnung", c.body, day)
		if len(facts) != 1 || facts[0].Bill == nil {
			t.Errorf("%s: got %+v, want one bill", c.from, facts)
			continue
		}
		if got := facts[0].Bill.Issuer; got != c.fact {
			t.Errorf("%s: issuer = %q, want %q", c.from, got, c.fact)
		}
		m := extract.Merge([]extract.Record{{Fact: facts[0], Message: 1, Date: day, Authenticated: true}})
		if len(m.Bills) != 1 || m.Bills[0].Issuer != c.shown {
			t.Errorf("%s: shown as %+v, want %q", c.from, m.Bills, c.shown)
		}
	}
}
