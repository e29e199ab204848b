package extract

import (
	"strings"
	"testing"
)

// TestRunOnLabelsBreaks: a long line whose departure's and arrival's
// labels each hold a date or a clock is broken before them and before a
// direction's heading; a ticket's text message whose labels name a
// station first, a short line, and labels without dates are left whole.
func TestRunOnLabelsBreaks(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Total: 38,40 EUR Reizigers: Sanne de Vries Heen Groningen - Leeuwarden Vertrek: za 20 jun 2026 om 10:15 Aankomst: za 20 jun 2026 om 11:06",
			"Total: 38,40 EUR Reizigers: Sanne de Vries\nHeen Groningen - Leeuwarden\nVertrek: za 20 jun 2026 om 10:15\nAankomst: za 20 jun 2026 om 11:06"},
		{"ØRESUND Billetnummer: OR55120K Dato: 270402 Afg: Malmö C 09.12 Ank: København H 09.47 Vogn: 2 Plads: 18 Pris: 120 kr",
			"ØRESUND Billetnummer: OR55120K Dato: 270402 Afg: Malmö C 09.12 Ank: København H 09.47 Vogn: 2 Plads: 18 Pris: 120 kr"},
		{"Departure: 12 Jun 09:00 Arrival: 12 Jun 10:52", "Departure: 12 Jun 09:00 Arrival: 12 Jun 10:52"},
		{"Summer fares from £19 Outward London Kings Cross - Sunderland Departure: any day you like Arrival: in time for lunch. Book now.",
			"Summer fares from £19 Outward London Kings Cross - Sunderland Departure: any day you like Arrival: in time for lunch. Book now."},
	} {
		if got := runOnLabels(tc.in); got != tc.want {
			t.Errorf("runOnLabels(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestRunOnLabelsBounded: a line longer than runOnMaxLine is left whole,
// and no more than runOnMaxLines lines of a mail are broken, however
// many run-on journeys it holds.
func TestRunOnLabelsBounded(t *testing.T) {
	unit := "Outward Bristol Temple Meads - Cardiff Central Departure: Fri 12 Jun 2026 at 09:00 Arrival: Fri 12 Jun 2026 at 09:52"
	long := strings.Repeat(unit+" ", runOnMaxLine/len(unit)+1)
	if got := runOnLabels(long); got != long {
		t.Errorf("a line of %d bytes was broken", len(long))
	}
	many := strings.Repeat(unit+"\n", runOnMaxLines+5)
	got := runOnLabels(many)
	if n := strings.Count(got, "\n") - strings.Count(many, "\n"); n != 2*runOnMaxLines {
		t.Errorf("%d lines of journeys gave %d breaks, want %d", runOnMaxLines+5, n, 2*runOnMaxLines)
	}
}
