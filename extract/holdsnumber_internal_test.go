package extract

import "testing"

// TestHoldsNumber: holdsNumber answers as \bDES ?DIGITS\b does.
func TestHoldsNumber(t *testing.T) {
	for _, tc := range []struct {
		ln   string
		want bool
	}{
		{"Train FR 9615 Roma", true},
		{"FR9615", true},
		{"XFR 9615", false},
		{"FR 96150", false},
		{"FR  9615", false},
		{"FR 9614 then FR 9615.", true},
		{"(FR9615)", true},
		{"FR_9615", false},
		{"", false},
	} {
		if got := holdsNumber(tc.ln, "FR", "9615"); got != tc.want {
			t.Errorf("holdsNumber(%q) = %v, want %v", tc.ln, got, tc.want)
		}
	}
}
