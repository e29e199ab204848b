package extract_test

import (
	"testing"
	"time"
)

// Classes the held-out set foreign-28 found (issue 46, 2026-12-02),
// proved with other senders and words than its mails.

// TestCheckInOutOneLabel: a hotel portal's confirmation labels both days
// at once over a range ("Anreise / Abreise: Mo. 08.03.2027 - Do.
// 11.03.2027"): the stay runs from the first day to the second, not one
// day long.
func TestCheckInOutOneLabel(t *testing.T) {
	facts := mailFacts("Hotelportal <buchung@hotelportal.example.de>", "Ihre Buchung", "Hallo Frau Beispiel,\nvielen Dank für Ihre Buchung.\n"+
		"Ihr ausgewähltes Hotel\nGasthof Lindenhof\nBuchungsnummer: \t\t55501234\t \nAnreise / Abreise: \t\tMo. 08.03.2027 - Do. 11.03.2027\t \n"+
		"Zimmer-Gesamtpreis (inkl. Steuern): \t\t240,00 EUR\n", time.Date(2027, 2, 1, 9, 0, 0, 0, time.UTC))
	if len(facts) != 1 || facts[0].Segment == nil || facts[0].Segment.CheckIn == nil || facts[0].Segment.CheckOut == nil {
		t.Fatalf("facts %+v, want one stay", facts)
	}
	s := facts[0].Segment
	if in, out := s.CheckIn.Format("2006-01-02"), s.CheckOut.Format("2006-01-02"); in != "2027-03-08" || out != "2027-03-11" {
		t.Errorf("stay %s to %s, want 2027-03-08 to 2027-03-11", in, out)
	}
}

// TestForeign28Receipts: bills of foreign-28 that gave nothing or the
// wrong thing.
//   - A store's renewal receipt in HTML shows its total only on the
//     payment's line, the card's name in one cell and the amount in the
//     next, a blank line between ("Apple Card" / "" / "$39.89"), under
//     "Billing and Payment": a paid bill, not an order, numbered by its
//     order id.
//   - An app store's order id with one digit ("MT8WHDGNGH").
//   - A cloud's statement that its total "will be charged" names no due
//     day: a bill due all the same; its letterhead is its logo's words
//     ("Cloudly logo"), the issuer the name without them.
func TestForeign28Receipts(t *testing.T) {
	sent := time.Date(2027, 4, 20, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, subject, text, want string
	}{
		{"a renewal's total on the wallet's line", "Fruitstore <no_reply@email.fruitstore.example>", "Your receipt from Fruitstore.",
			"Fruitstore\nReceipt\nApril 20, 2027\nOrder ID:\nQXD2TWZNN6\nDocument:\n166900000141\nFruit One\nPremier (Monthly)\nRenews May 20, 2027\n$37.95\n" +
				"Billing and Payment\nAlex Example\n1 Main St\nSubtotal\n$37.95\nTax\n$1.94\nApple Card\n\n$39.89\n\nManage Subscriptions\n",
			"QXD2TWZNN6 | 39.89 USD | paid | "},
		{"an order id with one digit", "Fruitstore <no_reply@email.fruitstore.example>", "Your receipt from Fruitstore.",
			"Fruitstore Receipt\nBILLED TO\nVisa •••• 4410\nORDER ID:              KT8WHDGNGQ\nDOCUMENT NO.:        114700000383\nDATE:                Feb 13, 2027\n" +
				"TOTAL:                     $18.00\nMatch Game                       $6.99\nHidden Objects                   $9.99\nSubtotal    $16.98\nTax     $1.02\nTOTAL    $18.00\n",
			"KT8WHDGNGQ | 18.00 USD | paid | "},
		{"a statement to be charged", "Cloudly <invoicing@cloudly.example>", "Cloudly Billing Statement Available [Account: 123]",
			"Cloudly logo\nGreetings from Cloudly,\nThis e-mail confirms that your latest billing statement is available on the Cloudly web site. Your account will be charged the following:\n" +
				"Total: $37.16\nThe credit card ending in 0335 is your default payment method.\n",
			" | 37.16 USD | due | "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts(tt.from, tt.subject, tt.text, sent)
			for _, f := range facts {
				if f.Order != nil {
					t.Errorf("an order: %+v", f.Order)
				}
			}
			b := oneBill(t, facts)
			if got := billLine(b); got != tt.want {
				t.Errorf("bill %q, want %q", got, tt.want)
			}
		})
	}
	b := oneBill(t, mailFacts("Cloudly <invoicing@cloudly.example>", "Cloudly Billing Statement Available",
		"Cloudly logo\nYour account will be charged the following:\nTotal: $37.16\n", sent))
	if b.Issuer != "Cloudly" {
		t.Errorf("issuer %q, want Cloudly", b.Issuer)
	}
}
