package extract_test

import (
	"testing"
	"time"
)

// Classes found by a held-out set of other projects' travel mail once it
// was measured (issue 46, xf5s, 2026-11-29), each proved here in other
// words and other brands than the mails that showed them.

// TestRailProductToAirport: a regional train's number ("RB 66", "IC 8")
// on a line that names the airport, in a mail that speaks of trains, is
// no flight; the ride to the airport's station is the train it is, the
// station by its name, never the airport's code.
func TestRailProductToAirport(t *testing.T) {
	day := time.Date(2027, 3, 8, 18, 0, 0, 0, time.UTC)
	for _, c := range []struct{ from, body, to, number string }{
		{"Nordwestbahn <tickets@nwb.example>",
			"Ihre Buchung bei der Bahn, Auftragsnummer 553018774420:\nEinzelfahrt, 2. Klasse\nvon Osnabrück Hbf, 12.03.2027 06:48 Uhr\nnach Münster(Westf) Flughafen, 12.03.2027 07:39 Uhr\n\n-- 1 of 3 --\n\nZum Flughafen fährt auch der RB 66.\n",
			"Münster(Westf) Flughafen", ""},
		{"Alpine Rail <noreply@alpinerail.example>",
			"Booking number: 60417733\nSingle ticket, 2nd class\nDeparture: Bern, 12.03.2027 06:32\nArrival: Zürich Flughafen, 12.03.2027 07:44\nTrain IC 8, platform 6\nFlying today? The IC 8 runs to the airport every 30 minutes.\n",
			"Zürich Flughafen", "IC 8"},
	} {
		facts := mailFacts(c.from, "Booking", c.body, day)
		if len(facts) != 1 || facts[0].Kind != "train" || facts[0].Segment.To == nil {
			t.Errorf("%s: got %d facts, want one train: %+v", c.from, len(facts), facts)
			continue
		}
		s := facts[0].Segment
		if s.To.Name != c.to || s.To.Code != "" || s.Number != c.number {
			t.Errorf("%s: to %q (%q), number %q; want %q, no code, %q", c.from, s.To.Name, s.To.Code, s.Number, c.to, c.number)
		}
	}
	// With no word of trains, Iran Air's IR is a flight still.
	facts := mailFacts("Iran Air <booking@iranair.example>", "Your flight",
		"Booking reference: QX7TRA\nFlight IR 721 Tehran (IKA) 03:10 - Frankfurt (FRA) 06:35, 12 March 2027\n", day)
	if len(facts) != 1 || facts[0].Kind != "flight" || facts[0].Segment.Number != "IR 721" {
		t.Errorf("an airline's IR flight: %+v", facts)
	}
}
