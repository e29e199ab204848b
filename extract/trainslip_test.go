package extract_test

import (
	"testing"
	"time"
)

// TestPrintedSlipRows: a rail slip printed to text loses its columns'
// gaps. Its heading row of a from-label and a to-label over a row of two
// stops with their codes in brackets gives the leg's ends (of three, the
// booked station's, the boarding station's and the destination's, the
// last two: the leg runs from where the passenger boards), a departure's
// and an arrival's label with their days and clocks on one line give its
// times (the journey's day before them apart), and a booking's label that opens a heading row gives the first
// cell of the row under it (its other name after a slash, and headings
// in sentence case, allowed: "PNR/Booking Ref. Payment status").
func TestPrintedSlipRows(t *testing.T) {
	type leg struct{ from, to, depart, arrive, ref string }
	for _, tt := range []struct {
		name, from, text string
		sent             time.Time
		want             []leg
	}{
		{"in, reservation slip", "Rail Tickets <ticketadmin@railtickets.example.in>",
			"Electronic Reservation Slip (ERS)\n\nBoarding From To\nNEW DELHI (NDLS) PRAYAGRAJ JN. (PRYJ)\nDeparture* 22:30 16-Sep-2027 Arrival* 06:20 17-Sep-2027\n\nPNR: Train No./Name Class\n\n\n2201893135 12276/PRYJ HUMSFAR EX AC 3 Tier (3A)\n\nTransaction ID: 100004441804250\n",
			time.Date(2027, 9, 10, 9, 0, 0, 0, time.FixedZone("IST", 19800)),
			[]leg{{"NEW DELHI (NDLS)", "PRAYAGRAJ JN. (PRYJ)", "2027-09-16 22:30 +0530", "2027-09-17 06:20 +0530", "2201893135"}}},
		{"lk, e-ticket", "Island Rail <eticket@islandrail.example.lk>",
			"Railway e-ticket\n\nFrom To\nCOLOMBO FORT (FOT) KANDY (KDT)\nDeparture: 12-Jan-2027 07:00 Arrival: 12-Jan-2027 09:35\nBooking No: Train Class\nSLR4471902 1015 Second\n",
			time.Date(2027, 1, 2, 9, 0, 0, 0, time.FixedZone("LKT", 19800)),
			[]leg{{"COLOMBO FORT (FOT)", "KANDY (KDT)", "2027-01-12 07:00 +0530", "2027-01-12 09:35 +0530", "SLR4471902"}}},
		{"a booking's other name after a slash, sentence-case headings", "Island Rail <eticket@islandrail.example.lk>",
			"Railway e-ticket\n\nFrom To\nCOLOMBO FORT (FOT) KANDY (KDT)\nDeparture: 12-Jan-2027 07:00 Arrival: 12-Jan-2027 09:35\nPNR/Booking Ref. Payment status\n\nQ7RT4K Confirmed Complete\n",
			time.Date(2027, 1, 2, 9, 0, 0, 0, time.FixedZone("LKT", 19800)),
			[]leg{{"COLOMBO FORT (FOT)", "KANDY (KDT)", "2027-01-12 07:00 +0530", "2027-01-12 09:35 +0530", "Q7RT4K"}}},
		{"in, the newer slip: booked, boarding and destination stations, the journey's day before the departure", "IRCTC <ticketadmin@irctc.example.in>",
			"Electronic Reservation Slip (ERS)-Normal User\n\nBooked From To\nTHANE - TNA (MUMBAI) THANE (TNA) KARMALI - KRMI (GOA)\nStart Date* 14-Dec-2027 Departure* 21:45 14-Dec-2027 Arrival* 5:10 15-Dec-2027\nPNR Train No./Name Class\n4410299381 10103 / MANDOVI EXP AC 2 TIER (2A)\nQuota Distance Booking Date\nGENERAL (GN) 512 KM 19-Nov-2027 18:02:10 HRS\n",
			time.Date(2027, 11, 19, 18, 5, 0, 0, time.FixedZone("IST", 19800)),
			[]leg{{"THANE (TNA)", "KARMALI (KRMI)", "2027-12-14 21:45 +0530", "2027-12-15 05:10 +0530", "4410299381"}}},
		{"lk, the journey's day by its colon before the departure's label", "Island Rail <eticket@islandrail.example.lk>",
			"Railway e-ticket\n\nFrom To\nCOLOMBO FORT (FOT) KANDY (KDT)\nJourney Date: 12-Jan-2027 Departure: 07:00 12-Jan-2027 Arrival: 09:35 12-Jan-2027\nBooking No: Train Class\nSLR4471902 1015 Second\n",
			time.Date(2027, 1, 2, 9, 0, 0, 0, time.FixedZone("LKT", 19800)),
			[]leg{{"COLOMBO FORT (FOT)", "KANDY (KDT)", "2027-01-12 07:00 +0530", "2027-01-12 09:35 +0530", "SLR4471902"}}},
		{"names without codes: no row to part", "Island Rail <eticket@islandrail.example.lk>",
			"Railway e-ticket\n\nFrom To\nCOLOMBO FORT KANDY\nDeparture: 12-Jan-2027 07:00 Arrival: 12-Jan-2027 09:35\nBooking No: SLR4471902\n",
			time.Date(2027, 1, 2, 9, 0, 0, 0, time.FixedZone("LKT", 19800)), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			for _, f := range mailFacts(tt.from, "Your ticket", tt.text, tt.sent) {
				s := f.Segment
				if s == nil || s.From == nil || s.To == nil || s.Depart == nil || s.Arrive == nil {
					continue
				}
				got = append(got, leg{s.From.Name, s.To.Name, s.Depart.Format("2006-01-02 15:04 -0700"), s.Arrive.Format("2006-01-02 15:04 -0700"), s.Reservation})
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

// TestPrintedSlipTrainNumber: a rail slip's heading of the train's number
// and name in one column ("Train No./Name") over its row gives the
// train's number, the five digits the name is glued to by a slash
// (foreign-21's Paytm slip, foreign-19's IRCTC slip); a passenger's
// booking status "CNF/D7/24" (coach D7, berth 24) names no D train.
func TestPrintedSlipTrainNumber(t *testing.T) {
	sent := time.Date(2027, 11, 19, 18, 5, 0, 0, time.FixedZone("IST", 19800))
	for _, tt := range []struct{ name, row, want string }{
		{"glued", "4456992546 16581/YPR SMET EXP ( 2A RAC (1S)", "16581"},
		{"spaced", "4410299381 10103 / MANDOVI EXP AC 2 TIER (2A)", "10103"},
		{"no number under the heading", "4410299381 MANDOVI EXP AC 2 TIER (2A)", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := "Electronic Reservation Slip (ERS)\nBoarding From To\nYASHWANTHPUR JN (YPR) SHIVAMOGGA TOWN (SMET)\nDeparture* 23:50 14-Dec-2027 Arrival* 06:00 15-Dec-2027\nPNR: Train No./Name Class\n" +
				tt.row + "\nPassenger Details:\n# Name Age Gender Booking Status Current Status\n1.Abhishek J 29 MALE CNF/D7/24 CNF/D7/24\n"
			n := 0
			for _, f := range mailFacts("Paytm <tickets@paytm.example.in>", "Your train ticket", text, sent) {
				if s := f.Segment; s != nil && s.Type == "train" {
					n++
					if s.Number != tt.want {
						t.Errorf("train number %q, want %q", s.Number, tt.want)
					}
				}
			}
			if n != 1 {
				t.Errorf("%d trains, want 1", n)
			}
		})
	}
}
