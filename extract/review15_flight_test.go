package extract_test

// The fifteenth outside review: flights after ea25f33e (routesJustAbove).

import (
	"strings"
	"testing"
)

// ATTACK (HIGH, a real flight's airports changed; new with ea25f33e):
// routesJustAbove takes a card whose every flight number has two airport
// codes just above it to print each route above its number. A card that
// prints the trip's summary codes at its top ("BRU", "FCO") and each
// leg's codes under its clocks qualifies: the first flight's codes
// above are the summary's, each later flight's are the previous leg's.
// So a round trip's return SN 3584 FCO-BRU is read BRU-FCO (its
// outbound's route), and a connection's legs BRU-FRA, FRA-JFK become
// BRU-JFK and BRU-FRA. Before ea25f33e both were read right. The
// airline's own mail, trusted: the agent sends the person to the wrong
// airport.
// SAFE: each leg's route as printed under it: codes above a number are
// its route only when no codes stand under it before the next number
// (or the first flight's codes above are not a summary of the whole
// trip: the same pair as the first's and last's ends).
func TestReview15RouteAboveTakesSummaryAndPreviousLeg(t *testing.T) {
	from := "Brussels Airlines <noreply@brusselsairlines.com>"
	for _, c := range []struct{ body, want string }{
		{"Booking code: QZ7WKP\n\nYour trip\nBRU\nFCO\n\nSN 3583\n14 Mar 2027\n07:10\n08:45\nBRU\nFCO\n\nSN 3584\n21 Mar 2027\n10:00\n12:00\nFCO\nBRU\n",
			"SN 3584 FCO-BRU"},
		{"Booking code: QZ7WKP\n\nYour trip\nBRU\nJFK\n\nSN 2903\n14 Mar 2027\n07:10\n08:20\nBRU\nFRA\n\nLH 400\n14 Mar 2027\n10:00\n12:45\nFRA\nJFK\n",
			"LH 400 FRA-JFK"},
	} {
		legs := review14Legs(from, "Your booking", c.body)
		if !strings.Contains(strings.Join(legs, "\n"), c.want) {
			t.Errorf("want %s, got %v\n%s", c.want, legs, c.body)
		}
	}
}
