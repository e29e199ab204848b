// Package einvoice reads the machine-readable invoice that ZUGFeRD and
// Factur-X PDFs carry inside them (UN/CEFACT Cross Industry Invoice XML,
// the EN 16931 data model): the exact number, dates, amount due and
// seller of a bill, where the PDF's printed text would have to be guessed
// at.
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
	root := ""
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
				// "Invoice": the ZUGFeRD 1 release candidate's root.
				if root != "CrossIndustryInvoice" && root != "CrossIndustryDocument" && root != "Invoice" {
					return nil, fmt.Errorf("einvoice: root element %q is no Cross Industry Invoice", root)
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
			}
		}
	}
	if root == "" {
		return nil, errors.New("einvoice: no XML")
	}
	inv.Amount = duePayable
	if inv.Amount == "" {
		inv.Amount = grand
	}
	if inv.Number == "" || inv.Amount == "" {
		return nil, errors.New("einvoice: no invoice number or amount")
	}
	return inv, nil
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
