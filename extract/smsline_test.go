package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestOneLineLabelledTicket: a ticket's text message on one line, its
// fields apart by spaces after their labels, the day as YYMMDD after a
// Nordic date's label, gives its leg; the seat's amenities give no train.
func TestOneLineLabelledTicket(t *testing.T) {
	sent := time.Date(2027, 5, 2, 9, 0, 0, 0, time.UTC)
	text := "Roslagståg Bokningsnummer: RQ8K2W4T Datum: 270510 Avg: Uppsala C 09.40 Ank: Gävle C 10.47 Vagn: 2 Plats: 14 Wifi X40/Regina Pris: 129 kr\n"
	facts := mailFacts("Roslagståg <sms@roslagstag.example.se>", "Din biljett", text, sent)
	if len(facts) != 1 || facts[0].Segment == nil {
		t.Fatalf("facts = %+v, want one leg", facts)
	}
	s := facts[0].Segment
	if s.From.Name != "Uppsala C" || s.To.Name != "Gävle C" || s.Reservation != "RQ8K2W4T" || s.Number != "" ||
		s.Depart.Format(time.RFC3339) != "2027-05-10T09:40:00+02:00" || s.Arrive.Format(time.RFC3339) != "2027-05-10T10:47:00+02:00" {
		t.Errorf("segment = %+v %v %v", s, s.Depart, s.Arrive)
	}
	// Six digits after another label are no day.
	for _, f := range mailFacts("Roslagståg <sms@roslagstag.example.se>", "Din biljett",
		"Roslagståg Bokningsnummer: RQ8K2W4T Kundnr: 270510 Avg: Uppsala C 09.40 Ank: Gävle C 10.47 Vagn: 2 Plats: 14\n", sent) {
		if s := f.Segment; s != nil && s.Depart != nil && s.Depart.Day() == 10 && s.Depart.Month() == time.May {
			t.Errorf("a customer's number read as the day: %+v", s)
		}
	}
}

// TestTicketLineHead: a line's part before its departure's label is a
// ticket's when it holds a booking's code and calls itself no example.
func TestTicketLineHead(t *testing.T) {
	for _, tt := range []struct {
		head string
		want bool
	}{
		{"* SJ * BKD3723G0002", true},
		{"Roslagståg Bokningsnummer: RQ8K2W4T", true},
		{"Ny tidtabell: Datum: 270114", false},
		{"Example of a ticket: * SJ * BKD3723G0002", false},
		{"Linje 830 Datum: 270114", false},
	} {
		if got := extract.TicketLineHead(tt.head); got != tt.want {
			t.Errorf("ticketLineHead(%q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}
