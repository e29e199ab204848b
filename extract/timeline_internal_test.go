package extract

import (
	"strings"
	"testing"
)

// TestVehicleLineBetween: between a timeline's two stops, the vehicle's
// word alone on a line makes them a leg of its kind; a change, a train's
// calling points, another clock or day, two vehicles or too many lines
// between them do not.
func TestVehicleLineBetween(t *testing.T) {
	for _, c := range []struct {
		between, want string
	}{
		{"Train\n35m\nCrossCountry\nAny unreserved seat", KindTrain},
		{"Zug\n2 Std. 10 Min.\nDeutsche Bahn\nWagen 7, Platz 42", KindTrain},
		{"Bus\n1 Std. 5 Min.\nFlixBus", KindBus},
		{"Coach\n3h 10m", KindBus},
		{"Short Change\nChange at same station", ""},
		{"14m\nChange at same station", ""},
		{"", ""},                           // calling points, one after another
		{"Train\n10:14\nNürnberg Hbf", ""}, // another stop between
		{"Train\nFri 19 Mar 2027", ""},     // another day
		{"Train\nBus", ""},                 // two vehicles
		{"Train\na\nb\nc\nd\ne\nf", ""},    // too far apart
		{"Trains every 30 minutes", ""},    // a sentence, not the word alone
	} {
		lines := append([]string{"12:39", "Oxford"}, strings.Split(c.between, "\n")...)
		lines = append(lines, "13:14", "Leamington Spa")
		if c.between == "" {
			lines = []string{"12:39", "Oxford", "13:14", "Leamington Spa"}
		}
		if got := vehicleLineBetween(lines, 1, len(lines)-2); got != c.want {
			t.Errorf("between %q: %q, want %q", c.between, got, c.want)
		}
	}
}
