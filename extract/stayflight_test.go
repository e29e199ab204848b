package extract_test

import (
	"testing"

	"mailnode/extract"
)

// TestStayThenFlight: a trip's mail whose stay's words outnumber its
// flight's (the flight's blocks, each airport over its date over its
// clock, the number under them; then the hotel's labelled dates) gives
// the flight as well as the stay, and the stay's check-in and check-out
// lines are no flight's stops.
func TestStayThenFlight(t *testing.T) {
	raw := "From: Trips <trips@trips.example>\r\nTo: a@example.com\r\nSubject: Your trip\r\nDate: Fri, 7 May 2027 11:25:00 +0100\r\n\r\n" +
		"Booking reference: TR-771204\r\n\r\nDEPARTING\r\nNew York (JFK)\r\nWednesday, June 9, 2027\r\n7:00 PM\r\n\r\n" +
		"ARRIVING\r\nDublin (DUB)\r\nThursday, June 10, 2027\r\n6:50 AM\r\n\r\nFlight: EI 104\r\n\r\n" +
		"YOUR HOTEL\r\nHotel: The Quay House\r\nCheck-in: Thursday, June 10, 2027 (from 3:00 PM)\r\nCheck-out: Sunday, June 13, 2027 (by 11:00 AM)\r\n"
	_, res := readRaw(raw)
	var flights, stays int
	for _, f := range res.Facts {
		s := f.Segment
		switch f.Kind {
		case extract.KindFlight:
			flights++
			if s.From.Code != "JFK" || s.To.Code != "DUB" || s.Depart.Format("2006-01-02 15:04") != "2027-06-09 19:00" ||
				s.Arrive == nil || s.Arrive.Format("2006-01-02 15:04") != "2027-06-10 06:50" {
				t.Errorf("flight %s %v-%v %v %v", s.Number, s.From, s.To, s.Depart, s.Arrive)
			}
		case extract.KindHotel:
			stays++
			if s.Hotel != "The Quay House" {
				t.Errorf("hotel name %q, want The Quay House", s.Hotel)
			}
		}
	}
	if flights != 1 || stays != 1 {
		t.Errorf("%d flights and %d stays, want one of each: %+v", flights, stays, res.Facts)
	}
}
