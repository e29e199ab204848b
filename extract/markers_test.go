package extract

import "testing"

func TestStopMarkers(t *testing.T) {
	for _, tc := range []struct {
		s              string
		end, start     bool
		cut, afterLead string
	}{
		{"Frankfurt(Main)Hbf 15.04. ab ", true, false, "Frankfurt(Main)Hbf 15.04. ", ""},
		{"Odjezd: ", false, true, "Odjezd: ", ": "}, // a colon: the label of a line, not the word before a clock
		{"dep. ", true, true, "", ". "},
		{"ab. ", false, true, "ab. ", ". "}, // "ab" takes no dot
		{"Abbey Road ", false, false, "Abbey Road ", ""},
		{"  Vertrek Amsterdam Centraal ", false, true, "  Vertrek Amsterdam Centraal ", " Amsterdam Centraal "},
		{"Wylot: Warszawa (WAW) ", false, true, "Wylot: Warszawa (WAW) ", ": Warszawa (WAW) "},
		{"Příjezd ", false, false, "Příjezd ", ""}, // an arrival: not a departure
		{"", false, false, "", ""},
	} {
		cut, end := depMarkers.ends(tc.s)
		rest, start := depMarkers.starts(tc.s)
		if end != tc.end || start != tc.start || cut != tc.cut || start && rest != tc.afterLead {
			t.Errorf("%q: ends = %q, %v; starts = %q, %v; want %q, %v; %q, %v", tc.s, cut, end, rest, start, tc.cut, tc.end, tc.afterLead, tc.start)
		}
	}
	if _, ok := arrMarkers.ends("Brno hl.n. příj. "); !ok {
		t.Error(`arrMarkers.ends("… příj. ") = false`)
	}
}
