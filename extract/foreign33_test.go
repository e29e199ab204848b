package extract_test

import (
	"fmt"
	"testing"
	"time"

	"mailnode/extract"
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

// TestCityAirportAsOfDay: a route by cities' names in archived mail names
// the airport its day knew: "Legazpi" before Bicol International opened
// (2021) is Legazpi's old airport, LGP; "Berlin" before BER (2020) was
// Tegel or Schönefeld and names neither alone (the name stays, the code
// goes); "Berlin" since is BER.
func TestCityAirportAsOfDay(t *testing.T) {
	layout := "Itinerary Receipt\nFlight Details\nRoute\nFlight # Departure\n%s to %s\nSkyways %s\n%s, 0945 H (09:45 AM)\nArrival\n%s, 1050 H (10:50 AM)\n"
	for _, tt := range []struct {
		from, to, num, day string
		sent               time.Time
		wantFrom, wantName string
	}{
		{"Legazpi", "Manila", "5J 324", "Sunday 24 January 2016", time.Date(2016, 1, 20, 9, 0, 0, 0, time.UTC), "LGP", ""},
		{"Legazpi", "Manila", "5J 324", "Monday 24 January 2022", time.Date(2022, 1, 20, 9, 0, 0, 0, time.UTC), "DRP", ""},
		{"Berlin", "Munich", "LH 2031", "Thursday 24 January 2019", time.Date(2019, 1, 20, 9, 0, 0, 0, time.UTC), "", "Berlin"},
		{"Berlin", "Munich", "LH 2031", "Tuesday 24 January 2023", time.Date(2023, 1, 20, 9, 0, 0, 0, time.UTC), "BER", ""},
	} {
		t.Run(tt.from+" "+tt.day, func(t *testing.T) {
			text := fmt.Sprintf(layout, tt.from, tt.to, tt.num, tt.day, tt.day)
			var from *extract.Place
			for _, f := range mailFacts("Skyways <itinerary@skyways.example>", "Itinerary Receipt", text, tt.sent) {
				if f.Segment != nil && f.Segment.Type == "flight" {
					from = f.Segment.From
				}
			}
			if from == nil {
				t.Fatalf("no flight's origin")
			}
			if from.Code != tt.wantFrom || tt.wantName != "" && from.Name != tt.wantName {
				t.Errorf("from %+v, want code %q name %q", *from, tt.wantFrom, tt.wantName)
			}
		})
	}
}
