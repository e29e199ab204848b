package extract

import (
	"testing"
	"time"
)

// TestLegShaped: a leg on one line with no airport is a journey whatever
// the words; a flight's or a sentence's is not.
func TestLegShaped(t *testing.T) {
	for text, want := range map[string]bool{
		"Tuesday 14 September 2027\nLeeds 07:45 -> York 08:12\n":    true,
		"Frankfurt (Main) Hbf ab 10:17 -> Wiesbaden Hbf an 10:58\n": true,
		"London Gatwick (LGW) 07:05 -> Nice (NCE) 10:15\n":          false,
		"The shop is open 09:00 - 18:00 and on Saturdays\n":         false,
		"Opening hours\nMonday to Friday 09:00 – 17:30\n":           false,
	} {
		if got := legShaped(text); got != want {
			t.Errorf("legShaped(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestNoFlightIn: a flight number counts on a line that speaks of
// flights, an airport by its code in parentheses anywhere.
func TestNoFlightIn(t *testing.T) {
	for text, want := range map[string]bool{
		"Order number: NR5517320\nLeeds 07:45 -> York 08:12\n": true,
		"Flight LS 563 departs 06:15\n":                        false,
		"Manchester (MAN) to Palma (PMI)\n":                    false,
		"Coach C, Seat 42\n":                                   true,
	} {
		if got := noFlightIn(text); got != want {
			t.Errorf("noFlightIn(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestRailLegZone: a station named like a town on another continent
// ("York") keeps the departure's zone.
func TestRailLegZone(t *testing.T) {
	c := &msgContext{dateLoc: time.UTC, senderCountry: "GB"}
	d := dateMatch{y: 2027, m: 9, d: 14, hasYear: true}
	seg := c.railLeg("", "Leeds", "York", d, d, &clockMatch{h: 7, m: 45}, &clockMatch{h: 8, m: 12})
	if got := seg.Arrive.Time.Format("15:04 -07:00"); got != "08:12 +01:00" {
		t.Errorf("arrival %s, want 08:12 +01:00", got)
	}
}
