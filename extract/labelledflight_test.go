package extract_test

import (
	"testing"
	"time"
)

// TestLabelledFlightFields: a flight whose fields each follow their own
// label on a line of their own (an agency's or a travel desk's list) gives
// the flight; a stay's arrival and departure days by their labels give no
// flight, nor does a list without a flight's number.
func TestLabelledFlightFields(t *testing.T) {
	sent := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	from := "Travel Desk <desk@contoso.example.com>"
	flight := "Booking reference: RT4K9Q\n- Flight Number: DL 2231\n- Departure Airport: ATL - Hartsfield-Jackson Atlanta International Airport\n- Departure Date: April 9, 2027\n- Departure Time: 2:15 PM\n- Arrival Airport: BOS - Boston Logan International Airport\n- Arrival Time: 4:50 PM\n- Baggage: 1 checked bag\n"
	facts := mailFacts(from, "Your flight", flight, sent)
	if len(facts) != 1 || facts[0].Segment == nil {
		t.Fatalf("facts = %+v, want one flight", facts)
	}
	s := facts[0].Segment
	if s.Number != "DL 2231" || s.From.Code != "ATL" || s.To.Code != "BOS" || s.Reservation != "RT4K9Q" ||
		s.Depart.Format(time.RFC3339) != "2027-04-09T14:15:00-04:00" || s.Arrive == nil || s.Arrive.Format(time.RFC3339) != "2027-04-09T16:50:00-04:00" {
		t.Errorf("segment = %+v %v %v", s, s.Depart, s.Arrive)
	}
	// An agency's invoice: the number's digits alone, the airports' names
	// shortened and under a city's other name ("Bombay", "Madras").
	invoice := "**PNR:** W4KQ7T\n**Airline:** Coastal Air\n**Flight Number (1st Segment):** 6127\n- **Departure Airport:** Bombay Chhatrapati Shivaji Intl\n- **Destination Airport:** Madras Intl Arpt\n- **Departure Time (1st Segment):** 2027-04-19T07:40\n- **Arrival Time (1st Segment):** 2027-04-19T09:35\n"
	facts = mailFacts("SkyRoute <inv@skyroute.example.in>", "Flight booking invoice", invoice, sent)
	if len(facts) != 1 || facts[0].Segment == nil {
		t.Fatalf("facts = %+v, want one flight", facts)
	}
	if s := facts[0].Segment; s.Number != "6127" || s.From.Code != "BOM" || s.To.Code != "MAA" || s.From.Name != "Bombay Chhatrapati Shivaji Intl" || s.Reservation != "W4KQ7T" {
		t.Errorf("segment = %+v", s)
	}
	// French labels with the words for "the time of" before the stop's
	// ("Heure de départ : 06:50"): never an airport named "Heure de".
	fr := "Référence de réservation : ZQ7K4P\nNuméro de vol : AF 7651\nAéroport de départ : LYS - Lyon Saint-Exupéry\nDate de départ : 02/04/2027\nHeure de départ : 06:50\nAéroport d'arrivée : NCE - Nice Côte d'Azur\nHeure d'arrivée : 07:55\n"
	facts = mailFacts("Agence <resa@agence.example.fr>", "Votre vol", fr, sent)
	if len(facts) != 1 || facts[0].Segment == nil {
		t.Fatalf("facts = %+v, want one flight", facts)
	}
	if s := facts[0].Segment; s.From.Code != "LYS" || s.To.Code != "NCE" || s.Depart.Format(time.RFC3339) != "2027-04-02T06:50:00+02:00" {
		t.Errorf("segment = %+v %+v %+v %v", s, s.From, s.To, s.Depart)
	}
	for _, text := range []string{
		// No flight's number: a shuttle's pick-up at an airport.
		"Booking reference: RT4K9Q\n- Departure Airport: ATL - Atlanta airport\n- Departure Date: April 9, 2027\n- Departure Time: 2:15 PM\n- Arrival Airport: BOS - Boston airport\n- Arrival Time: 4:50 PM\n",
		// A stay's days.
		"Hotel booking confirmed, 2 nights.\n- Confirmation number: 88123\n- Arrival Date: April 9, 2027\n- Departure Date: April 11, 2027\n- Check-in time: 3:00 PM\n",
	} {
		for _, f := range mailFacts(from, "Your booking", text, sent) {
			if f.Kind == "flight" {
				t.Errorf("%q: a flight %+v", text, f.Segment)
			}
		}
	}
}
