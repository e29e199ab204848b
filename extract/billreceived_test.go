package extract_test

import (
	"testing"
	"time"
)

// TestPaymentReceivedIsNoBill: a payment service's notice that the reader
// was paid ("You received a payment of …" in each language) is money in,
// not a bill, though it prints a total and a payment; a customer's own
// payment that a company received stays a paid bill.
func TestPaymentReceivedIsNoBill(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // amount and status, "" for no bill
	}{
		{"PayFlow <service@payflow.example>", "Notification of payment received",
			"Hello Tidewater Crafts,\nYou received a payment of $42.00 USD from Jamie Ortiz (jamie@example.com)\nYou can now ship the items.\nDescription Unit price Qty Amount\nHand-thrown mug $42.00 USD 1 $42.00 USD\nTotal $42.00 USD\nPayment $42.00 USD\n", ""},
		{"PayFlow <service@payflow.example.de>", "Zahlung erhalten",
			"Hallo Werkstatt Lindner,\nSie haben eine Zahlung über 18,50 € EUR von Paul Weber erhalten.\nGesamtbetrag: 18,50 € EUR\nZahlung: 18,50 € EUR\n", ""},
		{"PayFlow <service@payflow.example.es>", "Notificación de pago recibido",
			"Hola Cerámica Luna,\nHas recibido un pago de 27,00 € EUR de Ana Ruiz.\nTotal: 27,00 € EUR\nPago: 27,00 € EUR\n", ""},
		{"Northwind Energy <billing@northwind-energy.example>", "Payment received",
			"Thank you. We received your payment for invoice 2027-3381.\nAmount paid: $84.10\nPaid on: November 1, 2027\n", "84.10 USD paid"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2027, 11, 2, 7, 0, 0, 0, time.UTC)) {
			if b := f.Bill; b != nil && b.Amount != nil {
				got = b.Amount.Amount + " " + b.Amount.Currency + " " + b.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
