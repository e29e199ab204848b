package extract

import "testing"

// TestSeatNamed: a seat named by its number is a booking's sign, with a
// word for "number" between too ("Seat Number: 22A", a travel desk's
// labelled flight that the ninth review's gates would have dropped).
func TestSeatNamed(t *testing.T) {
	for _, c := range []struct {
		l    string
		want bool
	}{
		{"seat 42", true},
		{"- seat number: 22a", true},
		{"sitzplatz nr. 42", true},
		{"siège n° 12c", true},
		{"seat numbers are shown at check-in", false},
		{"seat no longer available", false},
		{"seat selection from 9 eur", false},
	} {
		if got := seatNamed(c.l); got != c.want {
			t.Errorf("seatNamed(%q) = %v, want %v", c.l, got, c.want)
		}
	}
}
