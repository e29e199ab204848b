package extract

import "testing"

// TestGdsFlightOnAirlineName: a printout's row may give the flight as its
// airline's printed name and the number ("Delta 5115*", "United 1452",
// "Lufthansa 2045"); a name that a number does not follow gives none.
func TestGdsFlightOnAirlineName(t *testing.T) {
	for ln, want := range map[string]string{
		"Wed 26SEP Delta 5115*          ":   "DL 5115",
		"Fri 05NOV United 1452         ":    "UA 1452",
		"Do  09DEC Lufthansa 2045      ":    "LH 2045",
		"Thu 27SEP                      ":   "",
		"Lufthansa Miles & More 2 ":         "",
		"Delta Sky Club access included   ": "",
	} {
		if got := gdsFlightOn(ln); got != want {
			t.Errorf("gdsFlightOn(%q) = %q, want %q", ln, got, want)
		}
	}
}

// FuzzGdsMarkWords: no text without one of gdsMarkWords holds a match of
// gdsMarkRE, so the words may gate it.
func FuzzGdsMarkWords(f *testing.F) {
	for _, s := range []string{"13JUN", "13 JUN", "  DEPART 10:25A", "LV FRA", "1 DEC.", "13jun", "LEAVE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if gdsMarkRE.MatchString(s) && !gdsMarkWords.Any(s) {
			t.Fatalf("%q: gdsMarkRE finds %q, gdsMarkWords nothing", s, gdsMarkRE.FindString(s))
		}
	})
}
