package extract

import (
	"strings"
	"testing"
	"time"
)

// TestLongLineIsNoStop: a stop is read from a line of a few hundred bytes
// at most. A mail of one endless line (250 KB of a budget airline's
// confirmation repeated, TestReview8TextCost) had each of its flights'
// windows read every date and name of the whole line, in placeInLine and
// stackedFlight: 1 s a mail, now 0.1 s. The same stop on a short line is
// still read, and on a long one around its first clock.
func TestLongLineIsNoStop(t *testing.T) {
	c := &msgContext{date: time.Date(2028, 4, 12, 10, 0, 0, 0, time.UTC), dateLoc: time.UTC, ref: time.Date(2028, 4, 12, 10, 0, 0, 0, time.UTC)}
	const stop = "Departs: Sat 20 May 07:05 London Gatwick (LGW)"
	if p := c.placeInLine(stop, findClocks(stop)); p == nil || p.Code != "LGW" {
		t.Fatalf("placeInLine(%q) = %+v, want LGW", stop, p)
	}
	// A long line is read around its first clock (the ninth review: a
	// text part made from HTML without its breaks); one without a clock
	// gives nothing.
	long := strings.Repeat("Fare terms apply. ", maxPlaceLine/18+1) + stop + strings.Repeat(" Seat 14C", maxPlaceLine/9+1)
	if p := c.placeInLine(long, findClocks(long)); p == nil || p.Code != "LGW" {
		t.Errorf("placeInLine of a %d-byte line = %+v, want LGW", len(long), p)
	}
	if p := c.placeInLine(strings.Repeat("London Gatwick (LGW) ", maxPlaceLine/20+1), nil); p != nil {
		t.Errorf("placeInLine of a long line without a clock = %+v, want none", p)
	}
	card := []string{"SN 3583", "Sat 20 May 2028", "07:10", "Brussels", "BRU", "08:45", "Rome Fiumicino", "FCO"}
	if seg := c.stackedFlight(card, 0, 0, len(card)); seg == nil {
		t.Fatal("stackedFlight of a card = nil")
	}
	card[1] += strings.Repeat(" x", maxPlaceLine)
	if seg := c.stackedFlight(card, 0, 0, len(card)); seg != nil {
		t.Errorf("stackedFlight with its day on a %d-byte line = %+v, want none", len(card[1]), seg)
	}
}
