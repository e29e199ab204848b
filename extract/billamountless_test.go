package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestAmountlessInvoice: an invoice's notice that prints no amount (the
// amount is in the attached PDF or the account's page) is a bill all the
// same when its subject names an invoice and a label gives its number;
// never a mail that prints an amount no rule read, one whose subject names
// no bill, nor a newsletter's sample invoice.
func TestAmountlessInvoice(t *testing.T) {
	for _, c := range []struct {
		name, from, subject, text string
		want                      string // number and status, "" for no bill
	}{
		{"a cloud's invoice available, its ID in the subject", "Northwind Cloud <no-reply@northwindcloud.example>",
			"Northwind Cloud Invoice Available [Account: 950826473621] [Invoice ID: NWC27-913708]",
			"Greetings from Northwind Cloud,\n\nWe are writing to notify you that your account has electronic invoice(s) available for the billing period March 1 - March 31, 2027.\n\nWe will automatically charge the total amount due to your default payment method.\n",
			"NWC27-913708 due"},
		{"a subscription's invoice attached, its number labelled", "Fjord Analytics <billing@fjordanalytics.example>", "Your invoice from Fjord Analytics",
			"Hello,\n\nInvoice number: FA-2027-0412\n\nYour invoice is attached as a PDF. Thank you for your business.\n",
			"FA-2027-0412 due"},
		{"an order's mail that names its invoice number: none", "Harbor Goods <orders@harborgoods.example>", "Your order has shipped",
			"Order #55120 has shipped.\nInvoice number: HG-5512\n",
			""},
		{"a newsletter's sample invoice: none", "Ledgerly <news@ledgerly.example>", "5 invoice templates that get you paid faster",
			"Our templates, tried by thousands of freelancers.\n\nInvoice #1001\nBill to: Your Client\n",
			""},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2027, 4, 2, 9, 0, 0, 0, time.UTC)) {
			if b := f.Bill; f.Kind == extract.KindBill && b != nil {
				got = b.Number + " " + b.Status
				if b.Amount != nil {
					got += " " + b.Amount.Amount
				}
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
