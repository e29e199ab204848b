package extract_test

// The fifteenth outside review: what one flight-shaped mail costs after
// ea25f33e (flightWordCell).

import (
	"strings"
	"testing"
	"time"
)

// ATTACK (HIGH, one stranger's mail holds sync and extraction for a
// minute or more; new with ea25f33e): textFlights tries flightWordCell
// on every line, and for each "Flight" over "#12" with an airline known
// (named in the text, "Frontier Airlines", or the sender's domain
// label, "flyfrontier.<any tld>") and no booking reference it asks
// c.bookingSigned(text), which lower-cases and scans the whole text each
// time; no hit is added while it says no, so maxFlightNumbers never
// stops the loop. Quadratic: "Frontier Airlines" and 8,000 "Flight /
// #12" pairs (96 KB) from a Gmail address took 14 s here (126 ms before
// ea25f33e); the 256 KB a text may hold, about a minute and a half.
// The airline-by-name path beside it (older: "Frontier Airlines flight
// #1129" a line, line 184) asks the same way: 3,000 such lines (93 KB)
// took 4.2 s, 5.9 s before ea25f33e.
// SAFE: under a second for either 48 KB or 62 KB: bookingSigned asked once a mail
// (c.langBooked, as its comment says readers should), and the number of
// flight-word cells tried bounded like the hits.
func TestReview15FlightWordCellQuadratic(t *testing.T) {
	for _, text := range []string{
		"Frontier Airlines\n" + strings.Repeat("Flight\n#12\n\n", 4000),
		strings.Repeat("Frontier Airlines flight #1129\n", 2000),
	} {
		start := processCPU()
		mailFacts("Bob <bob.stranger@gmail.com>", "Hello", text, time.Date(2027, 3, 12, 9, 0, 0, 0, time.UTC))
		if d := processCPU() - start; d > time.Second*raceSlowdown {
			t.Errorf("one %d-byte mail (%.30q) took %v", len(text), text, d)
		}
	}
}
