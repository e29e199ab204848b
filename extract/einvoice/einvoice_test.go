package einvoice

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus reads every invoice of the ZUGFeRD corpus's CII set: each
// has a number, an amount, a currency, an issue date and a seller.
func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.xml")
	if len(files) < 20 {
		t.Fatalf("%d files", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inv, err := Parse(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if inv.Number == "" || inv.Amount == "" || inv.Currency == "" || inv.Issued.IsZero() || inv.Seller == "" {
			t.Errorf("%s: %+v", f, inv)
		}
	}
}

func TestValues(t *testing.T) {
	for _, c := range []struct {
		file, want string
		credit     bool
	}{
		{"EN16931_Einfach_DueDate.cii.xml", "471102 380 2018-03-05 2019-03-05 529.87 EUR Lieferant GmbH", false},
		{"EN16931_Gutschrift.cii.xml", "", true},
		// A partial invoice: what is left after the prepayment; a seller's
		// name wrapped over lines is one name; the terms' text kept.
		{"EN16931_1_Teilrechnung.cii.xml", "471102 380 2018-06-05 0001-01-01 147.65 EUR Lieferant GmbH", false},
		{"EN16931_Einfach_negativePaymentDue.cii.xml", "471102 380 2018-03-05 0001-01-01 -529.87 EUR Lieferant GmbH", false},
		{"EN16931_Haftpflichtversicherung_Versicherungssteuer.cii.xml", "01.234.567.8-2018-1 575 2018-12-06 0001-01-01 50.00 EUR MVM Musterhafter Versicherungsverein Musterstadt a.G.", false},
		{"EN16931_OEPNV.cii.xml", "E2018092011804 380 2018-09-20 2018-10-03 9.00 EUR Verkehrsbetriebe GmbH | Zahlungsbedingungen: Der Rechnungsbetrag wurde bereits beglichen.", false},
		{"testout-ZF2PushCreditNote.xml", "", true},
		// UBL 2, written here after the EN 16931 binding: the amount
		// payable (less what was prepaid), the trading name before the
		// registered one.
		{"ubl/invoice.xml", "INV-2027-0042 380 2027-03-01 2027-03-31 99.00 EUR Nordlicht Energie", false},
		{"ubl/creditnote.xml", "", true},
		{"ubl/paymentmeans-due.xml", "2027/118 380 2027-01-10 2027-02-09 12500.00 SEK Fjällbo Bygg AB", false},
	} {
		b, err := os.ReadFile("testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		inv, err := Parse(b)
		if err != nil {
			t.Fatal(c.file, err)
		}
		if inv.CreditNote() != c.credit {
			t.Errorf("%s: credit note %v, want %v", c.file, inv.CreditNote(), c.credit)
		}
		if c.want == "" {
			continue
		}
		got := strings.Join([]string{inv.Number, inv.TypeCode, inv.Issued.Format("2006-01-02"), inv.Due.Format("2006-01-02"), inv.Amount, inv.Currency, inv.Seller}, " ")
		if inv.Terms != "" && strings.Contains(c.want, " | ") {
			got += " | " + inv.Terms
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.file, got, c.want)
		}
	}
}

func TestNotInvoices(t *testing.T) {
	for _, s := range []string{"", "not xml", "<html><body>1</body></html>", "<rsm:CrossIndustryInvoice xmlns:rsm='x'></rsm:CrossIndustryInvoice>",
		strings.Repeat("<a>", 100) + "<CrossIndustryInvoice/>", "<CrossIndustryInvoice>" + strings.Repeat("<a>", 100),
		// UBL without a number or amount; a UBL order is no invoice.
		`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><IssueDate>2027-01-01</IssueDate></Invoice>`,
		`<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"><ID>1</ID><LegalMonetaryTotal><PayableAmount>1</PayableAmount></LegalMonetaryTotal></Order>`} {
		if _, err := Parse([]byte(s)); err == nil {
			t.Errorf("Parse(%.40q) succeeded", s)
		}
	}
}

// FuzzParse: no XML makes Parse panic or run away.
func FuzzParse(f *testing.F) {
	b, _ := os.ReadFile("testdata/EN16931_Einfach_DueDate.cii.xml")
	f.Add(b)
	f.Add([]byte("<CrossIndustryDocument><HeaderExchangedDocument><ID>1</ID></HeaderExchangedDocument><DuePayableAmount>1</DuePayableAmount></CrossIndustryDocument>"))
	b, _ = os.ReadFile("testdata/ubl/invoice.xml")
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) { Parse(b) })
}
