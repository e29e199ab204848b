package extract_test

import (
	"slices"
	"testing"
	"time"
)

// TestBareFlightNumberAirline: a flight printed by its number alone takes
// the designator of the airline the mail is from when the number heads a
// card with the flight's day after it, and of the airline an airline's
// label names, on its own line or before the number's label; a clock
// before a duration's word on the same line is a stop's. A number whose
// line goes on with no day, or with no airline to take, is no flight.
func TestBareFlightNumberAirline(t *testing.T) {
	sent := time.Date(2026, 9, 21, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, text string
		want             []flightLeg
	}{
		{"en, the number heads the card with its day", "JetBlue <reservations@jetblue.example>",
			"Your trip is confirmed. Confirmation code: QWPLKM\nFlight #617 · Thu, Nov 12, 2026\nBOS 7:15 AM Departs\nMCO 10:29 AM Arrives\n",
			[]flightLeg{{"B6 617", "BOS", "MCO", "2026-11-12 07:15 -0500", "2026-11-12 10:29 -0500"}}},
		{"de, the airline by its label on the line above", "Reisewelt <buchung@reisewelt.example.de>",
			"Ihre Buchung ist bestätigt. Buchungsnummer: 88120044\nFlug\nHamburg (HAM) - Palma de Mallorca (PMI)\n07:40, 3. Okt. 2026 10:15, 3. Okt. 2026\nFluggesellschaft: Eurowings\nFlugnummer: 7580\n",
			[]flightLeg{{"EW 7580", "HAM", "PMI", "2026-10-03 07:40 +0200", "2026-10-03 10:15 +0200"}}},
		{"en, the airline's label and the number's on one line, a duration after the clocks", "Skyfinder <trips@skyfinder.example.com>",
			"Booking number 5521007\nFlight\nBarcelona (BCN) - Amsterdam (AMS)\n06:05, 14 Oct 2026 08:20, 14 Oct 2026\tTravel time: 2h 15min\nAirline: Vueling Flight number: 8470\n",
			[]flightLeg{{"VY 8470", "BCN", "AMS", "2026-10-14 06:05 +0200", "2026-10-14 08:20 +0200"}}},
		{"no day after the number", "JetBlue <reservations@jetblue.example>",
			"Your trip is confirmed. Confirmation code: QWPLKM\nFlight #617 · Mint seats still open\n", nil},
		{"no airline to take", "Skyfinder <trips@skyfinder.example.com>",
			"Booking number 5521007\nFlight\nBarcelona (BCN) - Amsterdam (AMS)\n06:05, 14 Oct 2026 08:20, 14 Oct 2026\nFlight number: 8470\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.DeleteFunc(flightLegs(mailFacts(tt.from, "Your booking", tt.text, sent)), func(l flightLeg) bool { return l.number == "" })
			checkLegs(t, got, tt.want)
		})
	}
}
