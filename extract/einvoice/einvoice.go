// Package einvoice reads the machine-readable invoice that ZUGFeRD and
// Factur-X PDFs carry inside them, or that a mail carries as an XML
// attachment of its own (XRechnung, Peppol): UN/CEFACT Cross Industry
// Invoice XML or UBL 2, the two syntaxes of the EN 16931 data model. It
// gives the exact number, dates, amount due and seller of a bill, where
// printed text would have to be guessed at.
//
// Both generations are read: ZUGFeRD 1 (CrossIndustryDocument,
// HeaderExchangedDocument) and ZUGFeRD 2 / Factur-X / XRechnung CII
// (CrossIndustryInvoice, ExchangedDocument). Elements are matched by
// local name, whatever prefixes a producer chose.
package einvoice

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// MaxSize bounds the XML read: real invoices of hundreds of lines stay
// well under it.
const MaxSize = 2 << 20

// Invoice is what the extractors keep of an e-invoice.
type Invoice struct {
	Number   string
	TypeCode string // UNTDID 1001: 380 invoice, 381 credit note, 384 correction, …
	Issued   time.Time
	Due      time.Time // zero when the invoice gives no due date
	// Amount is the amount due for payment (DuePayableAmount), else the
	// grand total; a decimal string as written.
	Amount   string
	Currency string
	Seller   string
	// Terms is the payment terms' text (BT-20), which may say the
	// invoice is paid already ("Der Rechnungsbetrag wurde bereits
	// beglichen").
	Terms string
}

// CreditNote reports whether the document credits its recipient rather
// than bills them.
func (inv *Invoice) CreditNote() bool {
	switch inv.TypeCode {
	// 389: self-billed, the buyer pays by it.
	case "381", "389", "261", "262", "296", "308", "396", "420", "458", "532":
		return true
	}
	return false
}

// Parse reads a CII invoice.
func Parse(b []byte) (*Invoice, error) {
	if len(b) > MaxSize {
		return nil, fmt.Errorf("einvoice: %d bytes, more than %d", len(b), MaxSize)
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = false
	var path []string
	inv := &Invoice{}
	var grand, duePayable string
	root, ubl := "", false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("einvoice: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = t.Name.Local
				switch {
				case t.Name.Space == ublNamespace+root+"-2" && (root == "Invoice" || root == "CreditNote"):
					ubl = true
					if root == "CreditNote" {
						inv.TypeCode = "381"
					}
				// "Invoice": the ZUGFeRD 1 release candidate's root.
				case root != "CrossIndustryInvoice" && root != "CrossIndustryDocument" && root != "Invoice":
					return nil, fmt.Errorf("einvoice: root element %q is no Cross Industry Invoice or UBL invoice", root)
				}
			}
			if len(path) > 64 {
				return nil, errors.New("einvoice: nested too deep")
			}
			path = append(path, t.Name.Local)
		case xml.EndElement:
			if len(path) > 0 {
				path = path[:len(path)-1]
			}
		case xml.CharData:
			v := strings.TrimSpace(string(t))
			if v == "" || len(path) < 2 {
				continue
			}
			el, parent := path[len(path)-1], path[len(path)-2]
			if ubl {
				ublField(inv, path, v, &duePayable, &grand)
				continue
			}
			doc := parent == "ExchangedDocument" || parent == "HeaderExchangedDocument"
			switch {
			case doc && el == "ID" && inv.Number == "":
				inv.Number = v
			case doc && el == "TypeCode" && inv.TypeCode == "":
				inv.TypeCode = v
			case el == "DateTimeString" && parent == "IssueDateTime" && len(path) >= 3 &&
				(path[len(path)-3] == "ExchangedDocument" || path[len(path)-3] == "HeaderExchangedDocument") && inv.Issued.IsZero():
				inv.Issued = parseDate(v)
			case el == "DateTimeString" && parent == "DueDateDateTime" && inv.Due.IsZero():
				inv.Due = parseDate(v)
			case el == "DuePayableAmount" && duePayable == "":
				duePayable = v
			case el == "GrandTotalAmount" && grand == "":
				grand = v
			case el == "InvoiceCurrencyCode" && inv.Currency == "":
				inv.Currency = v
			case el == "Name" && parent == "SellerTradeParty" && inv.Seller == "":
				inv.Seller = v
			case el == "Description" && parent == "SpecifiedTradePaymentTerms" && inv.Terms == "":
				inv.Terms = v
			}
		}
	}
	if root == "" {
		return nil, errors.New("einvoice: no XML")
	}
	// A name the producer wrapped over lines ("MVM Musterhafter\n
	// Versicherungsverein Musterstadt a.G.") is one name.
	inv.Seller = strings.Join(strings.Fields(inv.Seller), " ")
	inv.Terms = strings.Join(strings.Fields(inv.Terms), " ")
	inv.Amount = duePayable
	if inv.Amount == "" {
		inv.Amount = grand
	}
	if inv.Number == "" || inv.Amount == "" {
		return nil, errors.New("einvoice: no invoice number or amount")
	}
	return inv, nil
}

// ublNamespace begins the namespaces of UBL 2's documents
// (…:Invoice-2, …:CreditNote-2): the other syntax EN 16931 allows, which
// Peppol carries and XRechnung accepts beside CII.
const ublNamespace = "urn:oasis:names:specification:ubl:schema:xsd:"

// ublField keeps v, the text of the element at path, when it is one of
// the invoice's fields in UBL 2 (EN 16931's UBL binding: BT-1 ID, BT-2
// IssueDate, BT-9 DueDate or the payment means' PaymentDueDate, BT-5
// DocumentCurrencyCode, BT-115 PayableAmount, BT-112 TaxInclusiveAmount,
// the supplier's trading or registered name).
func ublField(inv *Invoice, path []string, v string, duePayable, grand *string) {
	el := path[len(path)-1]
	top := len(path) == 2 // a child of the root
	under := func(names ...string) bool {
		if len(path) < len(names)+1 {
			return false
		}
		for i, n := range names {
			if path[len(path)-1-len(names)+i] != n {
				return false
			}
		}
		return true
	}
	switch {
	case top && el == "ID" && inv.Number == "":
		inv.Number = v
	case top && (el == "InvoiceTypeCode" || el == "CreditNoteTypeCode") && (inv.TypeCode == "" || el == "CreditNoteTypeCode"):
		inv.TypeCode = v
	case top && el == "IssueDate" && inv.Issued.IsZero():
		inv.Issued = parseDate(v)
	case (top && el == "DueDate" || el == "PaymentDueDate" && under("PaymentMeans")) && inv.Due.IsZero():
		inv.Due = parseDate(v)
	case top && el == "DocumentCurrencyCode" && inv.Currency == "":
		inv.Currency = v
	case el == "PayableAmount" && under("LegalMonetaryTotal") && *duePayable == "":
		*duePayable = v
	case el == "TaxInclusiveAmount" && under("LegalMonetaryTotal") && *grand == "":
		*grand = v
	case el == "Name" && under("AccountingSupplierParty", "Party", "PartyName") && inv.Seller == "":
		inv.Seller = v
	case el == "RegistrationName" && under("AccountingSupplierParty", "Party", "PartyLegalEntity") && inv.Seller == "":
		inv.Seller = v
	case el == "Note" && under("PaymentTerms") && inv.Terms == "":
		inv.Terms = v
	}
}

// parseDate reads format 102 (20190305), the only one EN 16931 allows,
// and ISO dates some producers write instead.
func parseDate(s string) time.Time {
	for _, layout := range []string{"20060102", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}
