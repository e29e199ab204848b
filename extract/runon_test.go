package extract_test

import (
	"testing"
	"time"
)

// TestRunOnJourneyLabels: a journey's route, departure and arrival run
// together on one line after a price and the passengers (HTML of inline
// elements alone, as a browser shows it too) are read as the lines they
// would be: the route after its direction's heading, each stop's date and
// clock after its label. A line that runs labels together without a date
// or clock after them is left as it is.
func TestRunOnJourneyLabels(t *testing.T) {
	sent := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, text                      string
		dep, arr, depart, arrive, reservation string
	}{
		{"en, at", "Grand Northern Rail <tickets@gnrail.example.co.uk>",
			"Thank you for your booking\nBooking reference: RWQ7KZT\nTotal price: £64.20 Passengers Ana Ruiz - Adult - Railcard 1/3 off Outward London Kings Cross - Edinburgh Waverley Departure: Fri 12 Jun 2026 at 09:00 Arrival: Fri 12 Jun 2026 at 13:20 Duration: 4h 20m Changes: 0\n",
			"London Kings Cross", "Edinburgh Waverley", "2026-06-12T09:00:00+01:00", "2026-06-12T13:20:00+01:00", "RWQ7KZT"},
		{"de, um", "Westbahn Reisen <buchung@westbahnreisen.example.de>",
			"Vielen Dank für Ihre Buchung\nBuchungsnummer: 4471-9920\nGesamtpreis: 89,90 € Reisende Jonas Berger - Erwachsener - BahnCard 25 Hinfahrt Köln Hbf - Berlin Hbf Abfahrt: Mo, 15.06.2026 um 08:10 Ankunft: Mo, 15.06.2026 um 12:36 Reisedauer: 4:26 Umstiege: 0\n",
			"Köln Hbf", "Berlin Hbf", "2026-06-15T08:10:00+02:00", "2026-06-15T12:36:00+02:00", "4471-9920"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts(tt.from, "Your booking", tt.text, sent)
			if len(facts) != 1 || facts[0].Segment == nil {
				t.Fatalf("facts = %+v, want one leg", facts)
			}
			s := facts[0].Segment
			if s.From.Name != tt.dep || s.To.Name != tt.arr || s.Reservation != tt.reservation ||
				s.Depart == nil || s.Depart.Format(time.RFC3339) != tt.depart || s.Arrive == nil || s.Arrive.Format(time.RFC3339) != tt.arrive {
				t.Errorf("segment = %q - %q %v %v %q", s.From.Name, s.To.Name, s.Depart, s.Arrive, s.Reservation)
			}
		})
	}
	// A newsletter's run-on line: labels with no date or clock after them.
	for _, text := range []string{
		"Spring fares from £19 Outward London Kings Cross - Edinburgh Waverley Departure: any day you like Arrival: in time for lunch Book now at gnrail.example.co.uk\n",
	} {
		if facts := mailFacts("Grand Northern Rail <news@gnrail.example.co.uk>", "Spring fares", text, sent); len(facts) != 0 {
			t.Errorf("%q: facts = %+v, want none", text, facts)
		}
	}
}

// TestLabelledLegDepartureDay: a route over its labelled departure and
// arrival, each with its day, leaves on the departure's day, not on the
// first date the text names above it (a payment's, a booking's).
func TestLabelledLegDepartureDay(t *testing.T) {
	sent := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ name, from, text, depart, arrive string }{
		{"en", "Grand Northern Rail <tickets@gnrail.example.co.uk>",
			"Booking reference: RWQ7KZT\nPayment date: 01 June 2026\n\nLondon Kings Cross - York\nDeparture: Fri 12 Jun 2026 at 09:00\nArrival: Fri 12 Jun 2026 at 10:52\n",
			"2026-06-12T09:00:00+01:00", "2026-06-12T10:52:00+01:00"},
		{"de", "Nordbahn Reisen <tickets@nordbahn.example.de>",
			"Ihre Bahnfahrt\nBuchungsnummer: 5520-1147\nKaufdatum: 02.06.2026\n\nHamburg Hbf - Hannover Hbf\nAbfahrt: Do, 18.06.2026 um 07:35\nAnkunft: Do, 18.06.2026 um 08:52\n",
			"2026-06-18T07:35:00+02:00", "2026-06-18T08:52:00+02:00"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts(tt.from, "Your booking", tt.text, sent)
			if len(facts) != 1 || facts[0].Segment == nil {
				t.Fatalf("facts = %+v, want one leg", facts)
			}
			s := facts[0].Segment
			if s.Depart == nil || s.Depart.Format(time.RFC3339) != tt.depart || s.Arrive == nil || s.Arrive.Format(time.RFC3339) != tt.arrive {
				t.Errorf("leg %v - %v, want %s - %s", s.Depart, s.Arrive, tt.depart, tt.arrive)
			}
		})
	}
}
