package extract_test

import (
	"testing"
	"time"
)

// TestReview9NoBookingNoTrip: the ninth outside review's PRECISION-1 and
// -4. A flight tracker's alert and a forwarded timetable laid out as two
// columns (pairedFlights), and a friend's train under its "TRAIN 90:" head
// (clockLineLeg), were trips of the person's; each now needs a booking's
// sign, as stacked stops do. The same layouts with a booking's reference
// are read.
func TestReview9NoBookingNoTrip(t *testing.T) {
	day := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	const pair = "Departure\tArrival\nFrankfurt (FRA)\tNew York (JFK)\n12 Dec 2026\t12 Dec 2026\n10:25\t13:25\nFlight LH401\n"
	const train = "TRAIN 90: New York, NY - Moynihan to Washington, DC - Union Station (One-Way)\nDepart 7:00 AM, Monday, December 7, 2026\n"
	for _, c := range []struct {
		from, subject, text string
		want                bool
	}{
		{"FlightTracker <alerts@flighttracker-mail.example>", "Flight status: LH401", "Flight LH401 status update. You are following this flight (shared by Sam).\n\n" + pair, false},
		{"Sam <sam.k@gmail.com>", "Fwd: timetable", "Timetable for next spring:\n\n" + pair, false},
		{"Sam <sam.k@gmail.com>", "my train", "Hi Alex, my train details so you can pick me up:\n\n" + train, false},
		{"Skyways <booking@skyways.example>", "Your eTicket receipt", "Confirmation number: QK4T2M\n\n" + pair, true},
		{"Railways <tickets@railways.example>", "Your trip", "Reservation number: 7C2A91\n\n" + train, true},
	} {
		got := false
		for _, f := range mailFacts(c.from, c.subject, c.text, day) {
			got = got || f.Segment != nil
		}
		if got != c.want {
			t.Errorf("%s %q: a trip = %v, want %v", c.from, c.subject, got, c.want)
		}
	}
}
