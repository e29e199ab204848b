package extract

import (
	"strings"
	"testing"
)

// TestDepartureLineLabelAbove: a date that starts its line under a
// check-out's label alone on the line above (a blank line between or
// not) ends a stay; under a check-in's label, or under a sentence, it
// does not.
func TestDepartureLineLabelAbove(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Check out\nFri 28 Mar 2025 before 12pm (8 nights)", true},
		{"Check-out:\n\nFri 28 Mar 2025 (8 nights)", true},
		{"Departure\nSat 12 Apr 2025 · 3 nights", true},
		{"Check in\nFri 28 Mar 2025 from 3pm (8 nights)", false},
		{"We look forward to your check out\nFri 28 Mar 2025 (8 nights)", false},
		{"Your stay\nFri 28 Mar 2025 (8 nights)", false},
	} {
		i := strings.Index(tc.text, "Fri")
		if i < 0 {
			i = strings.Index(tc.text, "Sat")
		}
		if got := departureLine(tc.text, i); got != tc.want {
			t.Errorf("departureLine(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestLabelOverLabel: a label that ends its line has no value on the next
// line when that line is a label of its own, ending with a colon.
func TestLabelOverLabel(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Accommodation\n\nReservation made in the name of :\n\nMR Test User\n", nil},
		{"Hébergement\n\nRéservation effectuée au nom de :\n\nM. Paul Girard\n", nil},
		{"Accommodation\n\nHotel Bellevue Lugano\n", []string{"Hotel Bellevue Lugano"}},
	} {
		if got := hotelLabels.after(tc.text); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("hotelLabels.after(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
