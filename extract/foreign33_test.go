package extract_test

import (
	"testing"
	"time"
)

// Classes the outside set foreign-33 found (issue 46, 2026-12-03),
// proved with other senders and words than its mails.

// TestCheckInColumnRows: an e-ticket's table whose header names a
// check-in's or a boarding's column before the departure's and the
// arrival's, its row wrapped over lines by a PDF: the header's order says
// the row's first clock is the desk's, the second the departure's.
func TestCheckInColumnRows(t *testing.T) {
	sent := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, text string
		want       []flightLeg
	}{
		{"check-in, the day twice",
			"Travel Itinerary\nFlight No. Check-in From To Departure Arrival Terminal Class Status Aircraft\n" +
				"14Mar27 14Mar27 Q400\nVQ921 07:10 Chittagong (CGP) Dhaka (DAC)\n08:10 09:05\nY Economy HK Non stop\n\nBaggage 20 Kg\n",
			[]flightLeg{{"VQ 921", "CGP", "DAC", "2027-03-14 08:10 +0600", "2027-03-14 09:05 +0600"}}},
		{"boarding, the arrival the next day",
			"Flight Boarding From To Departs Arrives Cabin\n" +
				"20Mar27 21Mar27\nBG 388 21:50 Dhaka (DAC) Kuala Lumpur (KUL)\n22:20 04:15\nEconomy Confirmed\n",
			[]flightLeg{{"BG 388", "DAC", "KUL", "2027-03-20 22:20 +0600", "2027-03-21 04:15 +0800"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkLegs(t, flightLegs(mailFacts("Skyways <eticket@skyways.example>", "e-ticket", tt.text, sent)), tt.want)
		})
	}
}

// TestAirportNamesAsPrinted: an itinerary's airports by their full
// names, a terminal in parentheses after the name (cut at the line's
// end), or "airport" misspelt by a letter.
func TestAirportNamesAsPrinted(t *testing.T) {
	sent := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, text string
		want       []flightLeg
	}{
		{"a terminal after the name",
			"Flight Details\nFlight Departing Arriving\nOD1602\nEconomy\nPenang (PEN)\nPenang International Airport (Main\nTerminal)Fri 12 Mar 2027, 0915 hrs ( 9:15AM)\n" +
				"Kuala Lumpur (KUL)\nKuala Lumpur International Airport (T2)\nFri 12 Mar 2027, 1020 hrs (10:20AM)\n",
			[]flightLeg{{"OD 1602", "PEN", "KUL", "2027-03-12 09:15 +0800", "2027-03-12 10:20 +0800"}}},
		{"airport misspelt",
			"Itinerary Receipt\nFlight Details\nCebu to\n\n5J 563\n\nFriday 12 March 2027 , 0640 H\n\nMactan-Cebu International Airprot\n\n" +
				"Friday 12 March 2027 , 0810 H\n\nNinoy Aquino International Airport\n",
			[]flightLeg{{"5J 563", "CEB", "MNL", "2027-03-12 06:40 +0800", "2027-03-12 08:10 +0800"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkLegs(t, flightLegs(mailFacts("Skyways <itinerary@skyways.example>", "Itinerary", tt.text, sent)), tt.want)
		})
	}
}
