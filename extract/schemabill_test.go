package extract_test

import (
	"fmt"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestMarkupBillStatus: an Invoice's paymentStatus as the tools show it.
// An automatic payment still to come (PaymentAutomaticallyApplied) is due,
// as a text's direct debit on a day ahead is; only a payment made is paid.
func TestMarkupBillStatus(t *testing.T) {
	for status, want := range map[string]string{
		"http://schema.org/PaymentDue":                  extract.StatusDue,
		"http://schema.org/PaymentAutomaticallyApplied": extract.StatusDue,
		"PaymentAutomaticallyApplied":                   extract.StatusDue,
		"http://schema.org/PaymentComplete":             extract.StatusPaid,
		"":                                              extract.StatusDue,
	} {
		html := fmt.Sprintf(`<div itemscope itemtype="http://schema.org/Invoice">`+
			`<meta itemprop="confirmationNumber" content="AV-30-0117"/>`+
			`<div itemprop="totalPaymentDue" itemscope itemtype="http://schema.org/PriceSpecification">`+
			`<meta itemprop="price" content="48.20"/><meta itemprop="priceCurrency" content="EUR"/></div>`+
			`<meta itemprop="paymentDueDate" content="2030-02-10"/>`+
			`<link itemprop="paymentStatus" href=%q/></div>`, status)
		msg := &mime.Message{From: []mime.Address{{Name: "Aguas del Valle", Address: "facturas@aguasdelvalle.es"}},
			Subject: "Su factura", HTML: []string{html}, Date: time.Date(2030, 1, 20, 8, 0, 0, 0, time.UTC)}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if f.Bill != nil {
				got = append(got, f.Bill.Status)
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("paymentStatus %q: bills %v, want one %s", status, got, want)
		}
	}
}
