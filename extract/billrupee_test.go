package extract_test

import (
	"testing"
	"time"
)

// TestRupeeBillUnsigned: an Indian e-bill printed from its PDF (issue 46,
// foreign-21's Airtel and Idea bills) prints its figures bare, the
// rupee's sign read as a grave accent (the Rupee Foradian font of 2010
// put ₹ on that key: "Total (`)", "` 0.00") or the amount in words
// ("… Rupees and Seventy Seven Paise Only"); from a sender in a rupee
// country the bare total is in rupees. The signature block's "For
// Meghdoot Telecom Limited" names the issuer without its "For". A grave
// accent from anyone else names no currency.
func TestRupeeBillUnsigned(t *testing.T) {
	day := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	body := func(sign string) string {
		return "YOUR ACCOUNT SUMMARY THIS MONTH'S CHARGES\n\nBill number 880812345\nPrevious balance 736.26\nPayments - 740.00\n" +
			"This month's charges + 663.77\nAmount due 660.03\n" + sign + "\n\nFor Meghdoot Telecom Limited\n\nR. Saini, General Manager\n\nMeghdoot number 9557501234 Bill number 880812345\n"
	}
	for _, c := range []struct {
		name, from, body, amount, currency, issuer string
	}{
		{"grave accent for the sign", "ebill@meghdoot.in", body("Security deposit ` 0.00   Total (`) 663.77"), "660.03", "INR", "Meghdoot Telecom Limited"},
		{"amount in words", "ebill@meghdoot.in", body("Total : Six Hundred Sixty Three Rupees and Seventy Seven Paise Only"), "660.03", "INR", "Meghdoot Telecom Limited"},
		{"from Pakistan", "Meghdoot <ebill@meghdoot.pk>", body("Total : Six Hundred Sixty Three Rupees Only"), "660.03", "PKR", ""},
		{"a grave accent from elsewhere", "Meghdoot <ebill@meghdoot.example>", body("Total (`) 663.77"), "", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			facts := mailFacts(c.from, "Your mobile bill 880812345", c.body, day)
			if len(facts) != 1 || facts[0].Bill == nil {
				t.Fatalf("got %+v, want one bill", facts)
			}
			b := facts[0].Bill
			amount, cur := billAmount(b)
			if amount != c.amount || cur != c.currency {
				t.Errorf("amount %q %q, want %q %q", amount, cur, c.amount, c.currency)
			}
			if c.issuer != "" && b.Issuer != c.issuer {
				t.Errorf("issuer %q, want %q", b.Issuer, c.issuer)
			}
		})
	}
}

// TestPayableOverCharges: a postpaid bill lists its charges before tax
// under a total's label and what is payable further down (foreign-21's
// Jazz invoice); the payable figure is the bill's amount. A balance left
// on an account after a purchase is nothing to pay.
func TestPayableOverCharges(t *testing.T) {
	day := time.Date(2026, 11, 10, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct{ name, from, body, amount string }{
		{"payable under the charges", "Jazz <ebill@jazz.com.pk>",
			"Postpaid invoice 200160258858\nDue Date 20/11/2026\n\nTotal Charges Rs. 119.96\nTotal Before Taxes 111.58\nSales Tax Rs. 33.38\n\nTotal Invoice Amount Rs. 153.34\nTotal Payable Rs. 153.34\n",
			"153.34"},
		{"amount due under the total", "Northfield Broadband <billing@northfield.example>",
			"Invoice NB-0093314\nTotal: £44.20\nPayments received: £10.00\nAmount due: £34.20\nDue date: 28/11/2026\n",
			"34.20"},
		{"amount payable, bare, the currency by another figure", "BSNL <ebill@bsnl.example.in>",
			"your bill for landline services\nbill no : 142075882\nsecurity deposit Rs. 500.00\nthis month's charges\n787.92\namount payable : 787.92\n",
			"787.92"},
		{"a balance left after a purchase", "Google Play <googleplay-noreply@google.com>",
			"You've made a purchase from Lumen Games Ltd on Google Play.\nOrder number: GPA.3345-1234-5678-90123\nTotal: €4.99 (includes VAT of €0.83)\nPayment method: Google Play balance\nRemaining balance: €10.01\n",
			""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range mailFacts(c.from, "Your invoice", c.body, day) {
				if f.Bill == nil || f.Bill.Amount == nil {
					continue
				}
				if c.amount == "" {
					if f.Bill.Amount.Amount == "10.01" {
						t.Errorf("bill amount %s: a balance left, not due", f.Bill.Amount.Amount)
					}
					return
				}
				if f.Bill.Amount.Amount != c.amount {
					t.Errorf("bill amount %s, want %s", f.Bill.Amount.Amount, c.amount)
				}
				return
			}
			if c.amount != "" {
				t.Errorf("no bill with an amount, want %s", c.amount)
			}
		})
	}
}
