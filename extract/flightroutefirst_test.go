package extract_test

import (
	"testing"
	"time"
)

// TestRouteFirstDayUnderRoute: a card that prints each leg's route line
// first, its day under it and its number last reads each leg's day from
// its own block, not from the block above; an operating carrier named
// after a number ("operated by …") keeps the number its flight's, while a
// number the line names a codeshare is none.
func TestRouteFirstDayUnderRoute(t *testing.T) {
	sent := time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, text string
		want             []flightLeg
	}{
		{"two legs on different days, the second operated by another airline", "Qantas <bookings@qantas.example>",
			"Booking reference: QF7PLM\nDEPART  SYD 9:05am  ARRIVE  MEL 10:40am\nMon 15 Mar 2027\nQF 419  Economy\nDEPART  MEL 6:15pm  ARRIVE  HBA 7:25pm\nWed 17 Mar 2027\nQF 1511 operated by QantasLink\n",
			[]flightLeg{{"QF 419", "SYD", "MEL", "2027-03-15 09:05 +1100", "2027-03-15 10:40 +1100"},
				{"QF 1511", "MEL", "HBA", "2027-03-17 18:15 +1100", "2027-03-17 19:25 +1100"}}},
		{"one day over both legs", "Qantas <bookings@qantas.example>",
			"Booking reference: QF7PLM\nMon 15 Mar 2027\nDEPART  SYD 9:05am  ARRIVE  MEL 10:40am\nQF 419  Economy\nDEPART  MEL 6:15pm  ARRIVE  HBA 7:25pm\nQF 1511\n",
			[]flightLeg{{"QF 419", "SYD", "MEL", "2027-03-15 09:05 +1100", "2027-03-15 10:40 +1100"},
				{"QF 1511", "MEL", "HBA", "2027-03-15 18:15 +1100", "2027-03-15 19:25 +1100"}}},
		{"a number named a codeshare is no leg of its own", "Qantas <bookings@qantas.example>",
			"Booking reference: QF7PLM\nDEPART  SYD 9:05am  ARRIVE  MEL 10:40am\nMon 15 Mar 2027\nQF 419  Economy\nEK 5019 codeshare\n",
			[]flightLeg{{"QF 419", "SYD", "MEL", "2027-03-15 09:05 +1100", "2027-03-15 10:40 +1100"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkLegs(t, flightLegs(mailFacts(tt.from, "Your booking", tt.text, sent)), tt.want)
		})
	}
}
