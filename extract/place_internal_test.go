package extract

import (
	"slices"
	"testing"
)

// TestAirportCodesZoneAfterClock: a time zone's abbreviation after a clock
// is no airport, though PST, EST and CET are airports' codes too; before a
// clock, or in a route, a code stays an airport.
func TestAirportCodesZoneAfterClock(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"- Departure Time: 8:00 AM PST", nil},
		{"Lands: 12:52 PM EST", nil},
		{"Departs 18 Sep 2026 at 07:35, arrives 12:50 (CET)", nil},
		{"Abflug um 08:15 (GMT), Ankunft um 13:40 (CET)", nil},
		{"Ankunft 13:40 (CET) Frankfurt (FRA)", []string{"FRA"}},
		{"Route: San Francisco (SFO) to New York (JFK)", []string{"SFO", "JFK"}},
		{"EST 10:05 → CET 12:15", []string{"EST", "CET"}},
		{"Cholet (CET) - Paris (ORY)", []string{"CET", "ORY"}},
	} {
		if got := airportCodes(tc.line); !slices.Equal(got, tc.want) {
			t.Errorf("airportCodes(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}
