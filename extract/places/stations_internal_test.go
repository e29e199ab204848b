package places

import (
	"strings"
	"testing"
	"time"
)

// TestStationZone: a station is placed by its whole name, or by its
// town's when its first words name one; unknown names, long lines and
// names of no town are placed nowhere.
func TestStationZone(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"Bielefeld Hbf", "Europe/Berlin"},
		{"Frankfurt(Main)Hbf", "Europe/Berlin"},
		{"Leer (Ostfriesl)", "Europe/Berlin"},
		{"Zürich HB", "Europe/Zurich"},
		{"Bielefeld Hbf Gleis 3", "Europe/Berlin"}, // the town's
		{"Xyzzy Hbf", ""},
		{"Hbf", ""},
		{"", ""},
		{"Your train leaves from Bielefeld Hbf at 09:12 on platform 3 today", ""},
	} {
		if got, _ := StationZone(c.name); got != c.want {
			t.Errorf("StationZone(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestStationsSorted: stations.tsv is sorted and each name is there
// once, as the search by halving needs, and every zone loads.
func TestStationsSorted(t *testing.T) {
	prev := ""
	zones := map[string]bool{}
	for line := range strings.Lines(stationsTSV) {
		name, rest, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		zone, _, _ := strings.Cut(rest, "\t")
		if !ok || name == "" || name <= prev {
			t.Fatalf("line %q after %q", line, prev)
		}
		prev = name
		zones[zone] = true
		if got, _, _ := stationLine(name); got != zone {
			t.Fatalf("stationLine(%q) = %q, want %q", name, got, zone)
		}
	}
	for z := range zones {
		if _, err := time.LoadLocation(z); err != nil {
			t.Errorf("zone %q: %v", z, err)
		}
	}
}
