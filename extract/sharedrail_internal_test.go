package extract

import (
	"strings"
	"testing"
)

// TestTrainHeaded: a named train's number that is an airline's
// designator too (FR, RJ, FA, NJ) is a train's when its own line or the
// nearest line above it with a word of travel speaks of trains only; a
// flight's heading, a line of both, or no word of travel within
// trainHeadedLines keeps it an airline's.
func TestTrainHeaded(t *testing.T) {
	for _, tc := range []struct {
		name, text, designator, digits string
		want                           bool
	}{
		{"it heading", "Volo\nAZ 610\nRoma FCO 07:35\n\nTreno\n13.05.2026\nRoma Termini 10:00\nFR 9615\nMilano Centrale 12:59", "FR", "9615", true},
		{"railjet on its line", "Flight OS 123 VIE 10:00\n\nRailjet RJ 62 Wien Hbf 12:30 - Salzburg Hbf 14:52", "RJ", "62", true},
		{"de heading", "Flug\nLH 1234\n\nZug\nab 22:10 Wien Hbf\nNJ 466\nan 08:40 Zürich HB", "NJ", "466", true},
		{"ryanair under flight", "Train to the airport: every 20 minutes.\n\nYour flight\nFR 1234\nDublin 07:00 - Stansted 08:25", "FR", "1234", false},
		{"no word near", "Train\n1\n2\n3\n4\n5\n6\n7\n8\n9\nFR 9615 Roma 10:00", "FR", "9615", false},
		{"not in text", "Train\nFR 9615", "FR", "9616", false},
	} {
		if got := trainHeaded(strings.Split(tc.text, "\n"), tc.designator, tc.digits); got != tc.want {
			t.Errorf("%s: trainHeaded = %v, want %v", tc.name, got, tc.want)
		}
	}
}
