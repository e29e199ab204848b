package extract_test

import (
	"strings"
	"testing"
	"time"
)

// TestReview9LongLineBookingKept: the ninth outside review's RECALL-1. A
// real booking whose text part is one long line (a text part made from
// HTML without its breaks: the leg, the seat and 2.4 KB of fare terms on
// one line) was dropped by 48aa1942, which skipped every line over 2 KB
// to bound a hostile one-line mail's cost; a long line is now read
// around its first clock instead (aroundClock).
func TestReview9LongLineBookingKept(t *testing.T) {
	tc := "Terms: " + strings.Repeat("Fares are subject to availability and conditions of carriage apply. ", 35)
	leg := "LH 400  Frankfurt (FRA) 14 Dec 2026 10:05  ->  New York JFK (JFK) 14 Dec 2026 13:00"
	for _, text := range []string{
		"Dear Alex, your booking code is XK4R7Q. " + leg + " Seat 32K. " + tc + "\n",
		"Dear Alex, your booking code is XK4R7Q. " + tc + leg + " Seat 32K.\n",
	} {
		found := false
		for _, f := range mailFacts("Lufthansa <booking-confirmation@lufthansa.com>", "Your booking confirmation XK4R7Q", text, time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)) {
			found = found || f.Segment != nil && f.Segment.Number == "LH 400"
		}
		if !found {
			t.Errorf("LH 400 lost from a %d-byte line", len(text))
		}
	}
}
