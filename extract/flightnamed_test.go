package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestAirlineNamedNumber: US and Canadian airlines' own mail names the
// airline in words before the flight's number ("UNITED 1187", "AIR
// CANADA 311", "Frontier Airlines flight #1129") over stops by city name
// ("DENVER, CO", "SEATTLE") with twelve-hour clocks ("9:34am", "7:45a",
// "0934A"); each layout gives its legs, and the same shapes without a
// booking, or from a sender that is no airline, give none.
func TestAirlineNamedNumber(t *testing.T) {
	type leg struct{ num, from, to, dep, arr string }
	for _, tt := range []struct {
		name, from, body string
		want             []leg
	}{
		{"en, one value a line under headings in capitals, a connection", "United Airlines <unitedairlines@united.com>",
			"Confirmation number: Q2WPZT\n\nSat, Feb 6, 2027\n\nUNITED 523\n\nDEPART\nTUCSON, AZ\n6:00 am\n\nARRIVE\nDENVER, CO\n8:35 am\n\nEconomy (K)\nSeat 17A\n\nUNITED 1740\n\nDEPART\nDENVER, CO\n9:50 am\n\nARRIVE\nSPOKANE, WA\n11:44 am\n\nSTRETCH OUT IN ECONOMY PLUS\n",
			[]leg{{"UA 523", "TUS", "DEN", "2027-02-06T06:00:00-07:00", "2027-02-06T08:35:00-07:00"}, {"UA 1740", "DEN", "GEG", "2027-02-06T09:50:00-07:00", "2027-02-06T11:44:00-08:00"}}},
		{"en, a shared trip, clocks with their half's letter", "JetBlue <jetblueairways@email.jetblue.com>",
			"Riley shared a trip with you\n\nConfirmation code: TZQWPR\n\nSat, Mar 13, 2027\nJETBLUE 2161\nHARTFORD, CT\n6:20a\nORLANDO, FL (MCO)\n9:31a\n",
			[]leg{{"B6 2161", "BDL", "MCO", "2027-03-13T06:20:00-05:00", "2027-03-13T09:31:00-05:00"}}},
		{"fr, Air Canada by its name", "Air Canada <confirmation@aircanada.ca>",
			"Numéro de réservation : ZPQ4TW\n\nVol 1 de 1 : samedi 6 mars 2027\nAIR CANADA 8123\nDépart : KELOWNA, BC 07:15\nArrivée : CALGARY, AB 09:31\n",
			[]leg{{"AC 8123", "YLW", "YYC", "2027-03-06T07:15:00-08:00", "2027-03-06T09:31:00-07:00"}}},
		{"en, a forwarded sentence with the flight's word", "Casey <casey@example.com>",
			"Confirmation code: P7WQZT\n\nSunday, March 7, 2027\nFrontier Airlines flight #2207\nDepart: OMAHA, NE 6:45pm\nArrive: DENVER, CO 7:52pm\n",
			[]leg{{"F9 2207", "OMA", "DEN", "2027-03-07T18:45:00-06:00", "2027-03-07T19:52:00-07:00"}}},
		{"en, LV and AR under one date, a change", "Hawaiian Airlines <reservations@hawaiianairlines.com>",
			"Confirmation Code: WQZP2T\n\nSATURDAY, MARCH 6, 2027\n\nHAWAIIAN 27\nLV PORTLAND, OR 1010A\nAR HONOLULU 0205P\nSeat 30C\n\nConnection in Honolulu\n\nHAWAIIAN 394\nLV HONOLULU 0310P\nAR LIHUE 0347P\n",
			[]leg{{"HA 27", "PDX", "HNL", "2027-03-06T10:10:00-08:00", "2027-03-06T14:05:00-10:00"}, {"HA 394", "HNL", "LIH", "2027-03-06T15:10:00-10:00", "2027-03-06T15:47:00-10:00"}}},
		{"en, a receipt's table a cell a line", "American Airlines <no-reply@info.email.aa.com>",
			"Record locator: WZTQPK\n\nFlight\nDate\nFrom\nTo\nDepart\nArrive\n\nAMERICAN 1204\nSat, Mar 6, 2027\nEL PASO, TX\nDALLAS/FORT WORTH, TX\n6:05 AM\n8:58 AM\nSeat: 12A\n\nAMERICAN 2311\nSat, Mar 6, 2027\nDALLAS/FORT WORTH, TX\nPROVIDENCE, RI\n10:20 AM\n2:41 PM\n\nTotal: USD 388.20\n",
			[]leg{{"AA 1204", "ELP", "DFW", "2027-03-06T06:05:00-07:00", "2027-03-06T08:58:00-06:00"}, {"AA 2311", "DFW", "PVD", "2027-03-06T10:20:00-06:00", "2027-03-06T14:41:00-05:00"}}},
		{"en, \"Flight #417\" alone in the airline's mail, legs headed \"Flight 1\" and \"Flight 2\"", "Spirit Airlines <spirit@fly.spirit.com>",
			"Confirmation code: QW7PZK\n\nSun, Feb 7, 2027\nFlight 1\nFlight #417\nDEPART\nFORT MYERS, FL\n9:10am\nARRIVE\nHARTFORD, CT\n12:05pm\n\nSun, Feb 14, 2027\nFlight 2\nFlight #418\nDEPART\nHARTFORD, CT\n1:05pm\nARRIVE\nFORT MYERS, FL\n4:20pm\n",
			[]leg{{"NK 417", "RSW", "BDL", "2027-02-07T09:10:00-05:00", "2027-02-07T12:05:00-05:00"}, {"NK 418", "BDL", "RSW", "2027-02-14T13:05:00-05:00", "2027-02-14T16:20:00-05:00"}}},
		{"en, a stop abroad by its city and its country", "Spirit Airlines <spirit@fly.spirit.com>",
			"Confirmation code: QW7PZK\n\nFri, Apr 9, 2027\nFlight #417\nDEPART\nFORT LAUDERDALE, FL\n9:10am\nARRIVE\nLIMA, PERU\n3:05pm\n",
			[]leg{{"NK 417", "FLL", "LIM", "2027-04-09T09:10:00-04:00", "2027-04-09T15:05:00-05:00"}}},
		{"en, a card of cells, each flight's route above its number, a traveller's table under them", "Sun Country Airlines <noreply@suncountry.com>",
			"Your confirmation code is QZWPTK\n\nMSP\n\nLAS\n\nFlight 403\n\nFri, Apr 9\n\n7:10 AM\n\nTerminal: 2\n\n-\n\nFri, Apr 9\n\n8:55 AM\n\nLAS\n\nMSP\n\nFlight 404\n\nSun, Apr 11\n\n4:20 PM\n\nTerminal: 1\n\n-\n\nSun, Apr 11\n\n9:40 PM\n\nTraveler Details\n\nMinneapolis\n\nMSP\n\nLas Vegas\n\nLAS\n\nFlight #\n\n403\n\nSeat:\n\n12C\n",
			[]leg{{"SY 403", "MSP", "LAS", "2027-04-09T07:10:00-05:00", "2027-04-09T08:55:00-07:00"}, {"SY 404", "LAS", "MSP", "2027-04-11T16:20:00-07:00", "2027-04-11T21:40:00-05:00"}}},
		{"en, the flight's word a cell over its number, the airline named by its domain alone", "noreply@email.allegiantair.com",
			"Booking Confirmation: PQZWTX\n\nDeparting Flight: April 9, 2027\n\nFlight\n\n#1187\n\nDeparts\n\nSFB\n\n6:15 AM\n\nOrlando Sanford\n\nArrives\n\nPVD\n\n8:49 AM\n\nProvidence\n\nReturn Trip: April 11, 2027\n\nFlight\n\n#1188\n\nDeparts\n\nPVD\n\n9:35 AM\n\nProvidence\n\nArrives\n\nSFB\n\n12:20 PM\n\nOrlando Sanford\n",
			[]leg{{"G4 1187", "SFB", "PVD", "2027-04-09T06:15:00-04:00", "2027-04-09T08:49:00-04:00"}, {"G4 1188", "PVD", "SFB", "2027-04-11T09:35:00-04:00", "2027-04-11T12:20:00-04:00"}}},
		{"the same cells from a sender no airline's domain names: none", "noreply@email.parkandfly.example",
			"Booking Confirmation: PQZWTX\n\nDeparting Flight: April 9, 2027\n\nFlight\n\n#1187\n\nDeparts\n\nSFB\n\n6:15 AM\n\nOrlando Sanford\n\nArrives\n\nPVD\n\n8:49 AM\n\nProvidence\n",
			nil},
		{"a status match's sample flight, no booking: none", "WestJet <westjet@email.westjet.com>",
			"Your status, matched.\nRegister by February 28, 2027.\n\nWESTJET 665\nCALGARY, AB\n8:00am\nTORONTO, ON\n1:45pm\n",
			nil},
		{"an airline's name and a number from a sender that is no airline: none", "Harbor Bank <alerts@harborbank.example>",
			"Reference: QW7PZK\n\nSat, Mar 6, 2027\nDELTA 128\nDENVER, CO\n6:05 am\nSEATTLE, WA\n8:10 am\n",
			nil},
		{"a city in a state it is not in: none", "United Airlines <unitedairlines@united.com>",
			"Confirmation number: Q2WPZT\n\nSat, Feb 6, 2027\n\nUNITED 523\n\nDEPART\nBIRMINGHAM, AL\n6:00 am\n\nARRIVE\nCHICAGO, IL\n8:35 am\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			for _, f := range mailFacts(tt.from, "Your trip", tt.body, time.Date(2027, 1, 5, 9, 0, 0, 0, time.UTC)) {
				if (f.Kind == extract.KindTrain || f.Kind == extract.KindHotel) && tt.want != nil {
					t.Errorf("a %s from an airline's mail: %+v", f.Kind, f.Segment)
				}
				if s := f.Segment; f.Kind == extract.KindFlight && s != nil && s.From != nil && s.To != nil && s.Depart != nil && s.Arrive != nil {
					got = append(got, leg{s.Number, s.From.Code, s.To.Code, s.Depart.Format(time.RFC3339), s.Arrive.Format(time.RFC3339)})
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("legs = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("leg %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestAirlineMailIsNoTrain: an airline's mail whose flight no reader
// takes (no number) is no train either, its stops by city name and its
// headings in capitals ("STRETCH YOUR LEGS") no stations; a mail with a
// word of trains still gives its train.
func TestAirlineMailIsNoTrain(t *testing.T) {
	for _, tt := range []struct {
		name, from, body string
		trains           int
	}{
		{"en, cities and clocks a line each", "Delta Air Lines <deltaairlines@t.delta.com>",
			"Your trip confirmation\n\nConfirmation #: GQ7ZPK\n\nThu, Jan 14, 2027\n\nDEPART\nSEATTLE\n9:34am\n\nARRIVE\nLOS ANGELES, CA\n12:10pm\n\nMain Cabin (V)\nSeat 21C\n\nSTRETCH YOUR LEGS\nUpgrade for more legroom.\n", 0},
		{"en, labelled stops", "Frontier Airlines <noreply@flyfrontier.com>",
			"Your trip is booked!\n\nConfirmation code: F7XKQB\n\nSunday, February 7, 2027\nDepart: DENVER, CO 9:34am\nArrive: LAS VEGAS, NV 10:58am\n", 0},
		{"fr, labelled stops", "Air Canada <confirmation@aircanada.ca>",
			"Numéro de réservation : VWXM4Q\n\nVol 1 de 2 : mardi 9 février 2027\nDépart : MONTRÉAL, QC 08:00\nArrivée : VANCOUVER, BC 10:46\nCabine : Économique (L)\n", 0},
		{"an airline's rail ticket keeps its train", "Lufthansa <online@booking-lufthansa.com>",
			"Buchungscode: QW7PZK\n\nIhr Zug zum Flug\nSamstag, 6. März 2027\nAbfahrt: Köln Hbf 08:15\nAnkunft: Frankfurt (Main) Flughafen Fernbahnhof 09:13\nZug ICE 1023\n", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			trains := 0
			for _, f := range mailFacts(tt.from, "Your trip", tt.body, time.Date(2027, 1, 5, 9, 0, 0, 0, time.UTC)) {
				if f.Kind == extract.KindTrain {
					trains++
				}
			}
			if trains != tt.trains {
				t.Errorf("trains = %d, want %d", trains, tt.trains)
			}
		})
	}
}

// TestAirlineIsNoStay: an airline's shared itinerary whose "Check-in" and
// "Check-out" are the trip's days is no stay named after the airline.
func TestAirlineIsNoStay(t *testing.T) {
	body := "Morgan Lee shared a trip with you\n\nTrip details\nConfirmation code: F7XKQB\nCheck-in: Fri, Feb 19, 2027\nCheck-out: Sun, Feb 28, 2027\n\nFrontier Airlines\nDENVER, CO to LAS VEGAS, NV\n"
	for _, f := range mailFacts("Frontier Airlines <noreply@flyfrontier.com>", "Morgan shared a trip", body, time.Date(2027, 1, 5, 9, 0, 0, 0, time.UTC)) {
		if f.Kind == extract.KindHotel {
			t.Errorf("a stay from an airline's shared trip: %+v", f.Segment)
		}
	}
}
