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
