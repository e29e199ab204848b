package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestSaaSReceipts: a subscription's receipt as SaaS senders and their
// payment platforms write it, from names no rule was written for: the
// paid label as a cell over its amount ("Amount Paid", then "€9.00"), a
// line on how the charge shows on the card's statement (which names a
// statement this mail is not), a charge told in a sentence ("We've just
// billed $59.00"), and the display name's desk ("Support", "Accounting")
// left off the issuer; an invoice's notice that prints one amount, alone
// and in the sentence that says it will be charged, is due for it. A
// mail about a statement that asks for nothing stays none, and so does an
// invoice of two amounts neither labelled. A number in parentheses after
// the word "invoice" in running text is the bill's. An invoice's notice
// that prints no amount (it is in the attached PDF or the account's page)
// is a bill all the same when its subject names an invoice and a label
// gives its number; never a mail that names no bill in its subject, nor a
// newsletter's sample invoice.
func TestSaaSReceipts(t *testing.T) {
	for _, c := range []struct {
		name, from, subject, text string
		want                      string // issuer, number, status and amount
	}{
		{"cells, a card statement's descriptor", "Larkspur Forms <receipts@larkspurforms.example>", "Your Larkspur Forms invoice",
			"Invoice for your Team plan subscription\n\nInvoice # 90412233-55120987\n\nAmount Paid\n€24.00\nInvoice Date\n12th March 2027\nPayment Method\nending in 4242\nTeam plan\n€24.00\nVAT (0%)\n€0.00\nAmount Paid\n€24.00\nThe €24.00 payment will appear on your bank/card statement as:\nLARKSPUR* FORMS\n",
			"Larkspur Forms 90412233-55120987 paid 24.00 EUR"},
		{"a charge in a sentence, the desk after the name", "Quokka Uptime Support <support@quokkauptime.example>", "Your Quokka Uptime invoice",
			"Hi,\n\nThanks for using Quokka Uptime! We've just billed $39.00, so you're paid up until April 12th, 2027.\n\nYou can view this invoice at https://pay.quokkauptime.example/i/abc\n\nThe Quokka Uptime Team\n",
			"Quokka Uptime  paid 39.00 USD"},
		{"the accounting desk's invoice", "Brightlane Accounting <billing@brightlane.example>", "Invoice BL-2027-0311 for your Brightlane Pro plan",
			"Invoice number: BL-2027-0311\nAmount due: $120.00\nDue date: April 1, 2027\n",
			"Brightlane BL-2027-0311 due 120.00 USD"},
		{"an invoice ready, its one amount alone under the period and in the charge's sentence", "Fernhill Maps Accounting <billing@fernhillmaps.example>", "Invoice for your Fernhill Maps plan from 01 Mar 2027 to 31 Mar 2027",
			"logo Fernhill Maps\n\nYour Fernhill Maps invoice is ready to view\n\n01 Mar, 2027 - 31 Mar, 2027\n\n29,00 €\n\nInvoice number\t4F2703119921\n\nWe will charge 29,00 € to your card within the next two business days.\n",
			"Fernhill Maps 4F2703119921 due 29.00 EUR"},
		{"the number in parentheses after the word", "Northwind Mail <billing@northwindmail.example>", "Your Northwind Mail invoice",
			"We're writing to let you know that your 03/01/2027 Northwind Mail invoice (INV20455871), for account number 55120, is attached to this message as a PDF file.\n\nAmount due: $45.00\nDue date: March 31, 2027\n",
			"Northwind Mail INV20455871 due 45.00 USD"},
		{"a payment's receipt in a sentence, numbered by the payment, its descriptor quoted", "Tallgrass Hosting <billing@tallgrasshosting.example>", "Tallgrass Hosting: Payment Receipt [55120931]",
			"Payment Number: 55120931\nPayment Date: March 1, 2027\n\nThis is your receipt of payment against your credit card in the amount of $12.40.\n\nPlease note that charges will appear as \"Tallgrass*Host\" on your credit card's statement.\n",
			"Tallgrass Hosting 55120931 paid 12.40 USD"},
		{"an invoice whose terms say it is settled", "Zonehaven <billing@zonehaven.example>", "Zonehaven Invoice 7712044-118: Paid",
			"Invoice Number: 7712044-118\nInvoice Date: 2027-03-05\n\nTerms: PAID\n\nItems\n1 × Extra Zone: $0.50\nPlan Renewal: $6.00\n\nTotal: $6.50\n",
			"Zonehaven 7712044-118 paid 6.50 USD"},
		{"two amounts and no label for either: none", "Fernhill Maps Accounting <billing@fernhillmaps.example>", "Your Fernhill Maps invoice is ready",
			"Invoice number\t4F2703119922\n\nPlan 29,00 €\nExtra seats 5,00 €\n",
			""},
		{"a cloud's invoice available, its ID in the subject", "Northwind Cloud <no-reply@northwindcloud.example>",
			"Northwind Cloud Invoice Available [Account: 950826473621] [Invoice ID: NWC27-913708]",
			"Greetings from Northwind Cloud,\n\nWe are writing to notify you that your account has electronic invoice(s) available for the billing period March 1 - March 31, 2027.\n\nWe will automatically charge the total amount due to your default payment method.\n",
			"Northwind Cloud NWC27-913708 due"},
		{"a subscription's invoice attached, its number labelled", "Fjord Analytics <billing@fjordanalytics.example>", "Your invoice from Fjord Analytics",
			"Hello,\n\nInvoice number: FA-2027-0412\n\nYour invoice is attached as a PDF. Thank you for your business.\n",
			"Fjord Analytics FA-2027-0412 due"},
		{"an order's mail that names its invoice number: none", "Harbor Goods <orders@harborgoods.example>", "Your order has shipped",
			"Order #55120 has shipped.\nInvoice number: HG-5512\n",
			""},
		{"a newsletter's sample invoice: none", "Ledgerly <news@ledgerly.example>", "5 invoice templates that get you paid faster",
			"Our templates, tried by thousands of freelancers.\n\nInvoice #1001\nBill to: Your Client\n",
			""},
		{"a statement that asks for nothing: none", "Harbor Savings <alerts@harborsavings.example>", "Your March statement is ready",
			"Your statement for March is ready to view online.\nClosing balance: $2,310.55\n",
			""},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2027, 3, 12, 9, 0, 0, 0, time.UTC)) {
			if b := f.Bill; f.Kind == extract.KindBill && b != nil {
				got = b.Issuer + " " + b.Number + " " + b.Status
				if b.Amount != nil {
					got += " " + b.Amount.Amount + " " + b.Amount.Currency
				}
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
