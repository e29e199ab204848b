package extract_test

import (
	"strings"
	"testing"
	"time"
)

// TestCardCellsALine: an airline's trip confirmation whose HTML cards
// were rendered a cell a line (issue 46, foreign-23's American Airlines
// mail): the day, the two airports' codes over their clocks, each
// clock's "AM" or "PM" on a line of its own, the cities, then the
// flight's number under its leg. A "PM" left apart read 3:02 as 03:02,
// each code took the clock under the other, and each number the next
// leg's stops.
func TestCardCellsALine(t *testing.T) {
	text := strings.Join([]string{
		"Your trip confirmation and receipt", "Check in for your flight 24 hours before departure.", "Record Locator:", "JWXKPD", "Manage your trip",
		"Monday, March 8, 2027", "PHX", "DFW", "6:15", "AM", "10:52", "AM", "Phoenix", "Dallas/Fort Worth", "AA 2210",
		"Seat:", "12C", "Class:", "Economy", "(O)", "Meals:",
		"Monday, March 8, 2027", "DFW", "MIA", "1:05", "PM", "4:48", "PM", "Dallas/Fort Worth", "Miami", "AA 1511",
		"Seat:", "9A", "Class:", "Economy", "(O)", "Meals:", "Your payment", "Credit Card", "Visa", "ending 4411", "$312.40",
	}, "\n")
	facts := mailFacts("American Airlines <no-reply@info.email.aa.example>", "Your trip confirmation (PHX - MIA)", text, time.Date(2027, 2, 1, 9, 0, 0, 0, time.UTC))
	checkLegs(t, flightLegs(facts), []flightLeg{
		{"AA 2210", "PHX", "DFW", "2027-03-08 06:15 -0700", "2027-03-08 10:52 -0600"},
		{"AA 1511", "DFW", "MIA", "2027-03-08 13:05 -0600", "2027-03-08 16:48 -0500"},
	})
}
