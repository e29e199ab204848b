package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestTicketReceiptIsNoBill: an airline's itinerary receipt or an
// e-ticket, its fares and fees in columns, is a trip bought, not a bill,
// whether or not a travel reader reads its legs; an invoice that names
// no ticket's document stays a bill, one for flights too.
func TestTicketReceiptIsNoBill(t *testing.T) {
	sent := time.Date(2027, 2, 12, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, subject, text string
		bill                      bool
	}{
		{"itinerary receipt, fees in columns", "Island Air <noreply@islandair.example.ph>", "Itinerary Receipt",
			"Itinerary Receipt\n\nBooking Details\nStatus : Confirmed\n\nBOOKING REFERENCE NUMBER:\n\nXC7TFG\n\nPayment Details\nOther Fees:\nBase Fare:\nTotal Amount:\n\nPHP 0.00\nPHP 19,298.00\nPHP 21,762.20\n\nType:\nAmount:\n\nPE (Approved)\nPHP 21,762.20\n", false},
		{"e-ticket receipt", "Sky Lines <tickets@skylines.example>", "Your e-ticket receipt",
			"E-ticket receipt\nBooking reference: KQ4T2Z\nFare: EUR 120.00\nTaxes: EUR 35.20\nTotal paid: EUR 155.20\n", false},
		{"an agency's invoice for flights", "Wayfarer Travel <accounts@wayfarer.example>", "Invoice for your flights",
			"Invoice for your flights to Rome\nInvoice number: INV-4471\nAmount due: EUR 540.00\nDue date: 28 February 2027\n", true},
		{"an invoice", "Power Co <billing@powerco.example>", "Your invoice",
			"Your invoice is ready.\nInvoice number: INV-20270212\nAmount due: EUR 84.50\nDue date: 28 February 2027\n", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bill := false
			for _, f := range mailFacts(tt.from, tt.subject, tt.text, sent) {
				bill = bill || f.Kind == extract.KindBill
			}
			if bill != tt.bill {
				t.Errorf("bill = %v, want %v", bill, tt.bill)
			}
		})
	}
}
