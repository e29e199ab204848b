package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestRideReceipt: a ride's receipt that thanks for the ride and shows
// the payment of its amount, by a wallet's line or a card's with the
// amount after it or on the next line, is a paid bill of that amount; a
// payment's line that says the payment did not go through, a ride's mail
// that shows no payment and a promotion that names a wallet give none.
func TestRideReceipt(t *testing.T) {
	sent := time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, subject, text string
		want                      string // "amount currency status", or "" for no bill
	}{
		{"a wallet's line, a total by its label", "Bolt <receipts@bolt.example.eu>", "Your Tuesday ride",
			"March 2, 2027\nThanks for riding with Bolt, Marta!\nRide fare €11.60\nBooking fee €0.80\nTotal €12.40\nPayment\nGoogle Pay €12.40\nPickup 08:10 Rua Augusta 12\nDrop-off 08:31 Avenida da Liberdade 190\n",
			"12.40 EUR paid"},
		{"cash, no label", "Cabride <no-reply@cabride.example.com>", "Your ride with Jonas on March 2",
			"Thanks for riding with Jonas!\nFare (3.2mi, 11m)\t$7.90\nAirport fee\t$0.30\nCash\t$8.20\nReceipt #55120774310\n",
			"8.20 USD paid"},
		{"a card, the amount on the next line", "Cabride <no-reply@cabride.example.com>", "Your Saturday evening trip",
			"Total $23.15\nMarch 2, 2027\nThanks for riding, PRIYA\nTrip fare $21.40\nBooking Fee $1.75\nPayments\nMastercard ••••4410\n3/2/27 8:10 PM $23.15\nYou rode with Tomasz\n",
			"23.15 USD paid"},
		{"declined on the payment's line", "Cabride <no-reply@cabride.example.com>", "Your ride with Jonas on March 2",
			"Thanks for riding with Jonas!\nFare\t$18.00\nVisa ••••1234\t$18.00\nPayment declined. Please update your payment method.\n", ""},
		{"no payment shown", "Cabride <no-reply@cabride.example.com>", "Your Saturday evening trip",
			"Total $23.15\nThanks for riding, PRIYA\nThis is not a payment receipt. You will receive a receipt when the payment is processed.\n", ""},
		{"a promotion", "Cabride <news@cabride.example.com>", "Thanks for riding with us",
			"Thanks for riding with Cabride this year!\nAdd Apple Pay and get 10% off your next ride\nRides from $5\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			for _, f := range mailFacts(tt.from, tt.subject, tt.text, sent) {
				if f.Kind == extract.KindBill && f.Bill.Amount != nil {
					got = f.Bill.Amount.Amount + " " + f.Bill.Amount.Currency + " " + f.Bill.Status
				}
			}
			if got != tt.want {
				t.Errorf("bill = %q, want %q", got, tt.want)
			}
		})
	}
}
