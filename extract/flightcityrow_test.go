package extract_test

import (
	"strings"
	"testing"
	"time"
)

// TestCityRowPrintouts: an itinerary printed from an airline's site with
// its table flattened to single spaces (issue 46, foreign-21). The two
// cities stand side by side between the number and the clocks, each
// maybe with its terminal ("DELHI / T 1", "HYDERABAD/T1"); a route of two
// cities with their terminals in parentheses may stand over the number,
// the days and clocks under it. What is no airport stays none: a month
// beside a day's number ("24 FEB" is no Sanfebagar), a label in
// parentheses ("(PNR)"), a table's headings alone on their lines ("DEP",
// "ARR"), and the time the booking was made is no departure. A card may
// print each stop as its city, a bar and its code ("DAVAO | DVO"), a row
// of labels over their values ("Status: Booking Date: Booking
// Reference:"), and a sentence of a shuttle's hours times no leg. Two
// legs' cards side by side hold each label twice on a line ("Flight 6E
// 2041 Flight 6E 2042", "Departs 6:10 AM Departs 9:30 PM"), and a route
// may be two labelled lines ("From: Bengaluru", "To: Chennai").
func TestCityRowPrintouts(t *testing.T) {
	sent := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, text string
		want             []flightLeg
		never            []string // codes no flight may have
	}{
		{"cities run together, a terminal after the first", "SpiceJet <itinerary@spicejet.example>",
			"Confirmation Number (PNR): QW7RTA\n\nPassenger Contact Information\nMEERA RAO K-12(MCD NO 441), LAJPAT NAGAR DELHI\n\nBooking Date: Thu, 19 Nov, 2026 Status: Confirmed\n\nTRAVEL DATE FLIGHT NO. FROM / TERMINAL TO / TERMINAL DEP TIME ARR TIME AIRLINE\n\nTUE, 08 DEC, 2026 SG 8137 MUMBAI / T 1 CHENNAI 06:10 08:05 SPICEJET\n",
			[]flightLeg{{"SG 8137", "BOM", "MAA", "2026-12-08 06:10 +0530", "2026-12-08 08:05 +0530"}}, []string{"MCD", "DEC", "PNR"}},
		{"both terminals glued to their cities", "SpiceJet <itinerary@spicejet.example>",
			"TRAVEL DATE FLIGHT NO. FROM/TERMINAL TO/TERMINAL DEP.TIME ARR.TIME AIRLINE\n\nFRI 11 DEC, 2026 SG 916 BENGALURU/T1 KOLKATA/T2 19:20 21:45 SPICEJET\n\nConfirmation Number (PNR):ZX4KQP/SG Booking Date: WED 18 NOV, 2026 Status: Confirmed\n",
			[]flightLeg{{"SG 916", "BLR", "CCU", "2026-12-11 19:20 +0530", "2026-12-11 21:45 +0530"}}, []string{"PNR", "DEC"}},
		{"a route with terminals over the number, the booking's time above", "Travel Desk <tickets@traveldesk.example>",
			"Your flight booking. PNR: HT5RWQ/ SG\n\nEmail: a.rao@example.com Booked on: Thu, Nov. 19, 2026 18:02 Hrs\nStatus: Confirmed\n\nMumbai (T1) Kochi (T1)\n\nSG 142\nMon Dec. 14, 2026 7:05 Hrs Mon Dec. 14, 2026 8:20 Hrs\n\nPassenger Name Flight Fare Type\nSG 142\nMr. A Rao Regular Saver\n",
			[]flightLeg{{"SG 142", "BOM", "COK", "2026-12-14 07:05 +0530", "2026-12-14 08:20 +0530"}}, nil},
		{"a card's stops each a city, a bar and its code; the labels' row over the values'; a shuttle's hours", "Cebu Pacific <itinerary@cebupacificair.example>",
			"ITINERARY RECEIPT\nBooking Details\nStatus: Booking Date: Booking Reference:\nCONFIRMED Wed. 25 Nov. 2026 QK7P2M\nFlight Details\nFlight No./ Airline Departure Arrival\n" +
				"Cebu Pacific Air DAVAO | DVO MANILA | MNL\n5J 592 Francisco Bangoy International Airport\nFri. 11 Dec. 2026, 0715H (07:15AM)\nNinoy Aquino International Airport Terminal 3\nFri. 11 Dec. 2026, 0910H (09:10AM)\n" +
				"Reminders\nPlease proceed to the transit area for the free airport authority shuttle service from 05:30 AM to 01:00 AM of the following day.\n",
			[]flightLeg{{"5J 592", "DVO", "MNL", "2026-12-11 07:15 +0800", "2026-12-11 09:10 +0800"}}, nil},
		{"two cards side by side, each line its label twice", "IndiGo <itinerary@goindigo.example>",
			"Your IndiGo itinerary\n\nBooking Reference: Status:\n\nDate of Booking:\n\nQW4RTY\n\nCONFIRMED\n\n2. Anil Menon Date 09Dec26 Date 13Dec26 From Chennai From Pune\n\nRs Rs Rs Rs Rs\n\n20 November 2026\n\n" +
				"1. Priya Menon\nGoing Out - Chennai to Pune\n\nFlight 6E 2041 Flight 6E 2042\n\nPrice Summary\n\nTo Pune To Chennai\n\nContact Information 9,940.00 100.00 310.00 100.00 310.00\n\n" +
				"Departs 6:10 AM Departs 9:30 PM\n\nArrives 8:05 AM Arrives 11:20 PM\n\nComing Back - Pune to Chennai\n",
			[]flightLeg{{"6E 2041", "MAA", "PNQ", "2026-12-09 06:10 +0530", "2026-12-09 08:05 +0530"}, {"6E 2042", "PNQ", "MAA", "2026-12-13 21:30 +0530", "2026-12-13 23:20 +0530"}}, nil},
		{"a route by two labelled lines under the number", "Air India <itinerary@airindia.example>",
			"Your flight booking. PNR: ZT3QWE\n\nFlight AI 503\nDate: 09 Dec 2026\nFrom: Bengaluru\nTo: Chennai\nDeparts 06:10\nArrives 07:05\n",
			[]flightLeg{{"AI 503", "BLR", "MAA", "2026-12-09 06:10 +0530", "2026-12-09 07:05 +0530"}}, nil},
		{"a table's headings alone on their lines", "Air India Express <itinerary@airindiaexpress.example>",
			"ITINERARY RECEIPT\nPNR:\nIX40012345\n\nITINERARY DETAILS\nFlight No\nDate\nIX 343\n16-Dec-26 Wed\nFROM\nKOZHIKODE(KOZHIKODE INTERNATIONAL AIRPORT)\nDEP\nTO\nARR\n09:05\nMUSCAT(MUSCAT\n11:25\n",
			nil, []string{"DEP", "ARR"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts(tt.from, "Your itinerary", tt.text, sent)
			for _, f := range facts {
				if s := f.Segment; s != nil && s.Type == "flight" {
					for _, code := range tt.never {
						if s.From.Code == code || s.To.Code == code {
							t.Errorf("a flight from %q to %q: %s is no airport here", s.From.Code, s.To.Code, code)
						}
					}
				}
			}
			if tt.want != nil {
				checkLegs(t, flightLegs(facts), tt.want)
			}
			if strings.Contains(tt.text, "QK7P2M") {
				for _, f := range facts {
					if f.Segment != nil && f.Segment.Reservation != "QK7P2M" {
						t.Errorf("reservation %q, want QK7P2M (the last cell under the last label)", f.Segment.Reservation)
					}
				}
			}
		})
	}
}
