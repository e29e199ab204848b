package extract_test

import (
	"testing"
	"time"
)

// TestPrintedItineraryClocks: an itinerary as an airline's booking page
// prints it (issue 46, foreign-19). The desk's deadline on the flight's
// own line is no departure; the departure's and the arrival's day and
// clock side by side on one line are the leg's times (a class's words
// before them, a day's name between), its airports on the lines above by
// their codes; a stop's airport may stand over its terminal's line, and
// a clock printed again in parentheses ("0740 hrs ( 7:40AM)") is one. A train's class in a railway's ticket
// ("AC 2 TIER") and a fare calculation's basis and amount ("YL 129.00")
// are no flights.
func TestPrintedItineraryClocks(t *testing.T) {
	sent := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, text string
		want             []flightLeg
	}{
		{"the desk's deadline on the number's line", "SpiceJet <itinerary@spicejet.example>",
			"Booking reference: QM7TZA\n\nSG 8169 (B737) | 04 Dec 2026 | Check-in counter closes: 06:35 hrs\n\nChennai  Pune\nMAA - Chennai International Airport 1h 55m\nPNQ - Pune Airport\n\n07:35 hrs, 04 Dec 2026 09:30 hrs, 04 Dec 2026\n",
			[]flightLeg{{"SG 8169", "MAA", "PNQ", "2026-12-04 07:35 +0530", "2026-12-04 09:30 +0530"}}},
		{"an arrival after midnight, four-digit clocks", "Air Horizon <bookings@airhorizon.example>",
			"Your booking is confirmed. PNR: ZK41QP\n\nFlight SG 8702\nDEL - Indira Gandhi International Airport 2h 20m GOI - Manohar International Airport\nFri 11 Dec 2026, 2240 hrs Sat 12 Dec 2026, 0100 hrs\n",
			[]flightLeg{{"SG 8702", "DEL", "GOI", "2026-12-11 22:40 +0530", "2026-12-12 01:00 +0530"}}},
		{"a row over three lines: the codes, the airports, the class before both stamps", "Scoot <itinerary@flyscoot.example>",
			"Travel Itinerary\nBooking Number:\nEmail : m.tan@example.com\nXJ29QM\n\nFlight Details\nFlight Departing Arriving\nTR2287 Penang (PEN) Bangkok (DMK)\nEconomy Penang International Airport Don Mueang International Airport\nLite Thu 10 Dec 2026, 0915 hrs Thu 10 Dec 2026, 1010 hrs\n",
			[]flightLeg{{"TR 2287", "PEN", "DMK", "2026-12-10 09:15 +0800", "2026-12-10 10:10 +0700"}}},
		{"stacked stops, the terminal's line under the airport's, each clock again in parentheses", "Malindo Air <itinerary@malindoair.example>",
			"Travel Itinerary\nBooking Number: XJ29QM\n\nOD 1604\n\nECONOMY\n\nKuala Lumpur (KUL)\n\nKuala Lumpur International Airport (Terminal 1)\n\nSat 12 Dec 2026, 0740 hrs ( 7:40AM)\n\nDenpasar (DPS)\n\nNgurah Rai - International Terminal\n\nSat 12 Dec 2026, 1045 hrs ( 10:45AM)\n",
			[]flightLeg{{"OD 1604", "KUL", "DPS", "2026-12-12 07:40 +0800", "2026-12-12 10:45 +0800"}}},
		{"a railway's class", "Rail Tickets <tickets@railways.example>",
			"Electronic Reservation Slip (ERS)-Normal User\n\nBooked From To\nTHANE - TNA (MUMBAI) THANE (TNA) KARMALI - KRMI (GOA)\nStart Date* 14-Dec-2026 Departure* 21:45 14-Dec-2026 Arrival* 05:10 15-Dec-2026\nPNR Train No./Name Class\n4410299381 10103 / MANDOVI EXP AC 2 TIER (2A)\n\nQuota Distance Booking Date\nGENERAL (GN) 512 KM 19-Nov-2026 18:02:10 HRS\n\nPassenger Details\n# Name Age Gender Booking Status Current Status\n1.Meera Joshi 34 F CNF/A1/22/LOWER CNF/A1/22/LOWER\n",
			nil},
		{"a fare calculation", "Southwest Airlines <southwestairlines@southwest.example>",
			"Receipt and Itinerary\nConfirmation Number: HQZ2RT\nFare Calculation: DENWNPHX YL 129.00 $129.00 ZPDEN\nAll travel must be completed by 03/04/27 at 10:00AM from DENVER (DEN) to PHOENIX (PHX)\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts(tt.from, "Your itinerary", tt.text, sent)
			if tt.want == nil {
				for _, f := range facts {
					if f.Segment != nil && f.Segment.Type == "flight" {
						t.Fatalf("a flight %+v, want none", *f.Segment)
					}
				}
				return
			}
			checkLegs(t, flightLegs(facts), tt.want)
		})
	}
}
