package extract_test

import "testing"

// A bill's amount is what is due (billbalance.go).
func TestBillAmountDue(t *testing.T) {
	for _, c := range []struct{ name, subject, text, want string }{
		{"part payment, German", "Teilzahlung erhalten", "Rechnungsnummer: SM-2030-0771\nBezahlter Betrag: 30,00 €\nRechnungsbetrag: 100,00 €\nRestbetrag: 70,00 €\nFällig am: 28.03.2030\n", "due 70.00 EUR 2030-03-28"},
		{"paid whole: one figure", "Payment received", "Invoice number: RB-4471\nAmount paid: $70.00\nAmount due: $70.00\n", "paid 70.00 USD -"},
		{"paid whole: zero balance", "Payment received", "Invoice number: RB-4471\nAmount paid: $70.00\nBalance due: $0.00\n", "paid 70.00 USD -"},
		{"statement, label over value", "Votre relevé", "Nouveau solde\n642,18 €\nPaiement minimum\n25,00 €\nDate limite de paiement : 27/03/2030\n", "due 642.18 EUR 2030-03-27"},
		{"promotion's minimum, no statement", "Spring offer", "New balance: $20.00 on your gift card\nMinimum order amount: $10.00\n", "no bill"},
	} {
		b := billOf(t, "billing@westshorewater.com", "Westshore Water", c.subject, c.text, true)
		got := billSummary(b)
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
