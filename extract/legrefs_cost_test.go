package extract_test

import (
	"strings"
	"testing"
	"time"
)

// TestLegRefsHostileCost: a text of two legs under tens of thousands of
// booking labels, each with a code and a day, is read in bounded time and
// still gives its legs.
func TestLegRefsHostileCost(t *testing.T) {
	var b strings.Builder
	b.WriteString("Samstag, 12. Juni 2027\nHinfahrt\t08:12\tKöln Hbf\tICE\t512\n10:40\tFrankfurt(Main)Hbf\n" +
		"Sonntag, 13. Juni 2027\nRückfahrt\t17:20\tFrankfurt(Main)Hbf\tICE\t517\n19:48\tKöln Hbf\n")
	for i := range 20000 {
		b.WriteString("KÖLN <> FRANKFURT am 12.06.2027\nAuftragsnummer: QX")
		b.WriteString(strings.Repeat("7", 1+i%5))
		b.WriteString("P7M\n")
	}
	start := time.Now()
	legs := 0
	for _, f := range mailFacts("DB Fernverkehr <buchungsbestaetigung@bahn.example>", "Ihre Buchungsbestätigung", b.String(), time.Date(2027, 5, 3, 9, 0, 0, 0, time.UTC)) {
		if f.Segment != nil && f.Segment.Type == "train" {
			legs++
		}
	}
	// Within 3 s, as the package's other bounded tests, and as many times
	// that under the race detector (raceSlowdown): it ran 3.1 s under
	// -race on a 2-core CI machine, where a quadratic reading takes
	// minutes.
	if d := time.Since(start); d > 3*time.Second*raceSlowdown || legs != 2 {
		t.Errorf("a hostile text: %d legs in %v, want 2 within %v", legs, d, 3*time.Second*raceSlowdown)
	}
}
