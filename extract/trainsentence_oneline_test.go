package extract_test

import (
	"testing"
	"time"
)

// TestOneLineTripSentence: a trip told on one line with its day and month
// but no year after a word for "on", the clocks in parentheses, a brand
// and its number, a one-letter word for "to", a full stop or a coach's
// and seat's tail after the arrival, and a ticket's code of six letters
// without a colon.
func TestOneLineTripSentence(t *testing.T) {
	sent := time.Date(2027, 2, 20, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, text                              string
		number, dep, arr, depart, arrive, reservation string
	}{
		{"brand, no year, seat tail", "Lakeline <t@lakeline.example.co.uk>",
			"Ticket code PWRTZQ - Lakeline 2741 on 18/04 from Carlisle (08:40) to Glasgow Central (10:05) - Standard Coach D Seat 31\n",
			"2741", "Carlisle", "Glasgow Central", "2027-04-18T08:40:00+01:00", "2027-04-18T10:05:00+01:00", "PWRTZQ"},
		{"full stop", "Lakeline <t@lakeline.example.co.uk>",
			"Booking reference: K4TRWQ. Lakeline 2750 on 19/04/2027 from Glasgow Central at 17:10 to Carlisle at 18:32.\n",
			"2750", "Glasgow Central", "Carlisle", "2027-04-19T17:10:00+01:00", "2027-04-19T18:32:00+01:00", "K4TRWQ"},
		{"one-letter to (fr)", "Rail Ouest <b@railouest.example.fr>",
			"Référence : MZRTWK. Train 8702 le 04/03 de Rennes (06:35) à Paris Montparnasse (08:05).\n",
			"8702", "Rennes", "Paris Montparnasse", "2027-03-04T06:35:00+01:00", "2027-03-04T08:05:00+01:00", "MZRTWK"},
		{"one-letter to (it)", "Treni Alpini <b@trenialpini.example.it>",
			"Codice biglietto TRWPKZ - Treno 9733 il 05/03 da Torino Porta Nuova (07:20) a Milano Centrale (08:14) - Carrozza 3 Posto 12B\n",
			"9733", "Torino Porta Nuova", "Milano Centrale", "2027-03-05T07:20:00+01:00", "2027-03-05T08:14:00+01:00", "TRWPKZ"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts(tt.from, "Your journey", tt.text, sent)
			if len(facts) != 1 || facts[0].Segment == nil {
				t.Fatalf("facts = %+v, want one leg", facts)
			}
			s := facts[0].Segment
			if s.Number != tt.number || s.From.Name != tt.dep || s.To.Name != tt.arr || s.Reservation != tt.reservation ||
				s.Depart == nil || s.Depart.Format(time.RFC3339) != tt.depart || s.Arrive == nil || s.Arrive.Format(time.RFC3339) != tt.arrive {
				t.Errorf("segment = %+v %v %v", s, s.Depart, s.Arrive)
			}
		})
	}
	// A day and month without a year is no date without a word for "on"
	// before it and a clock or a word for "from" after it.
	for _, text := range []string{
		"Train 8702 scored 12/03 from Rennes (06:35) à Paris Montparnasse (08:05).\n",
	} {
		for _, f := range mailFacts("Rail Ouest <b@railouest.example.fr>", "Info", text, sent) {
			if f.Segment != nil && f.Segment.Depart != nil && f.Segment.Depart.Month() == time.March && f.Segment.Depart.Day() == 12 {
				t.Errorf("%q: read 12/03 as a day: %+v", text, f.Segment)
			}
		}
	}
}
