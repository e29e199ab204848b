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

// TestAirportCodesMonthOfDate: a month's abbreviation beside a day's
// number or a year is a date's month, though FEB, MAR and JUL are
// airports' codes; before a clock it is the airport's ("Juliaca JUL
// 07:50"). A printout's labels are no airports either.
func TestAirportCodesMonthOfDate(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"MON, 24 FEB, 2014 SG 104 DELHI - KOLKATA 08:10 10:30", nil},
		{"SAT 05-MAR-22 DEL - BOM 12:40", []string{"DEL", "BOM"}},
		{"MAR 5 2027 LIS → OPO", []string{"LIS", "OPO"}},
		{"JUN 2027 - FRA 10:05", []string{"FRA"}},
		{"LA 2023   Lima LIM 06:15 → Juliaca JUL 07:50", []string{"LIM", "JUL"}},
		{"Juliaca JUL 08:35 → Lima LIM 10:10", []string{"JUL", "LIM"}},
		{"DEP 08:10 ARR 10:30", nil},
		{"ETD 08:10 - STA 10:30", nil},
		{"Cebu Pacific Air ILOILO | ILO MANILA | MNL", []string{"ILO", "MNL"}},
		{"Passenger | PNR | SEA | Seat", nil},
		// A word joined by a hyphen is no code; a city's name before
		// one is (foreign-24's "(NON-STOP)").
		{"Tétouan - 22:35 (NON-STOP)", nil},
		{"Paris-CDG 08:35 - Athens ATH 12:50", []string{"CDG", "ATH"}},
		{"TXL-BRU 10:05", []string{"TXL", "BRU"}},
	} {
		if got := airportCodes(tc.line); !slices.Equal(got, tc.want) {
			t.Errorf("airportCodes(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}
