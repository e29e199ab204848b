package extract_test

import (
	"testing"
	"time"
)

// Classes found by the held-out set foreign-8 (issue 46, xf8a,
// 2026-11-29), each proved here in other brands' words.

// TestLabelledStopsOverTheirDays: a rail itinerary in text whose stops
// are labelled ("Departure:", "Departs:", "Leaves:", "Départ :") over a
// line of their day and 12-hour clock, each leg's train in a head
// ("Train: 2 The Canadian", one digit too), a coach service's leg a bus
// ("Thruway Bus 8911", or "Service: 3612" over a "Reserved Thruway
// Seat"); a train of two nights; stations named with their state or
// province in full keep the zone of the town in that region and lose
// the region from their name; an advisory laid out the same way is no
// booking.
func TestLabelledStopsOverTheirDays(t *testing.T) {
	type leg struct{ kind, number, from, to, depart, arrive string }
	date := time.Date(2027, 3, 3, 18, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name, from, subject, body string
		want                      []leg
	}{
		{"VIA, a two-night train", "VIA Rail <noreply@via.example.ca>", "Itinerary",
			"Booking number: 7KQ4MX\n\nTrain: 2 The Canadian\nDeparts: Toronto Union, ON\nSaturday, October 23, 2027   9:55 AM\nArrives: Winnipeg, Manitoba\nMonday, October 25, 2027   8:00 AM\nClass: Sleeper Plus\n",
			[]leg{{"train", "2", "Toronto Union, ON", "Winnipeg", "2027-10-23T09:55:00-04:00", "2027-10-25T08:00:00-05:00"}}},
		{"French labels", "VIA Rail <billets@via.example.ca>", "Itinéraire",
			"Numéro de réservation : 9TW2LB\n\nTrain : 33\nDépart : Ottawa, Ontario\nvendredi 19 novembre 2027   14:30\nArrivée : Québec, Québec\nvendredi 19 novembre 2027   20:51\n",
			[]leg{{"train", "33", "Ottawa", "Québec", "2027-11-19T14:30:00-05:00", "2027-11-19T20:51:00-05:00"}}},
		{"a connecting coach by its head and by its seat", "Rail Pass <itinerary@pass.example.com>", "Rail pass itinerary QP5R7T",
			"Confirmation Number: QP5R7T\n\nThruway Bus 8911\nLeaves: Portland (Union Station), Oregon\nFriday  April 9, 2027      12:05PM\nArrives: Eugene, Oregon\nFriday  April 9, 2027      2:40PM\n\n" +
				"Service: 3620\nDeparture: Eugene, Oregon\nFriday  April 9, 2027      3:00PM\nArrival: Emeryville, California\nSaturday  April 10, 2027      6:10AM\nAccommodation: 1 Reserved Thruway Seat\n\n" +
				"Train: 11 Valley Starlight\nDeparture: Emeryville, California\nSaturday  April 10, 2027      8:10AM\nArrival: Sacramento, California\nSaturday  April 10, 2027      9:55AM\nAccommodation: 1 Reserved Coach Seat\n",
			[]leg{{"bus", "8911", "Portland (Union Station)", "Eugene", "2027-04-09T12:05:00-07:00", "2027-04-09T14:40:00-07:00"},
				{"bus", "3620", "Eugene", "Emeryville", "2027-04-09T15:00:00-07:00", "2027-04-10T06:10:00-07:00"},
				{"train", "11", "Emeryville", "Sacramento", "2027-04-10T08:10:00-07:00", "2027-04-10T09:55:00-07:00"}}},
		{"an advisory is no booking", "Rail <alerts@rail.example.com>", "Service advisory: train 513",
			"SERVICE ADVISORY\n\nTrain: 513 Coast Express\nDeparture: Seattle (King Street), Washington\nFriday  April 9, 2027      8:20AM\nArrival: Portland (Union Station), Oregon\nFriday  April 9, 2027      11:55AM\n",
			nil},
	} {
		facts := mailFacts(c.from, c.subject, c.body, date)
		if len(facts) != len(c.want) {
			t.Errorf("%s: got %d facts, want %d: %+v", c.name, len(facts), len(c.want), facts)
			continue
		}
		for i, w := range c.want {
			s := facts[i].Segment
			if s == nil || s.From == nil || s.To == nil || s.Depart == nil || s.Arrive == nil {
				t.Errorf("%s: fact %d: %+v", c.name, i, facts[i])
				continue
			}
			got := leg{string(facts[i].Kind), s.Number, s.From.Name, s.To.Name, s.Depart.Time.Format(time.RFC3339), s.Arrive.Time.Format(time.RFC3339)}
			if got != w {
				t.Errorf("%s: leg %d = %+v, want %+v", c.name, i, got, w)
			}
		}
	}
}

// TestArrivalLineUnderDeparture: under a route its train's label heads
// ("Train 107: MIAMI, FL - ORLANDO, FL") a receipt's departure and arrival
// each on a line of its own, the arrival with its day or without; a line
// under the departure that says more than the arrival's clock and day
// leaves the leg without its arrival.
func TestArrivalLineUnderDeparture(t *testing.T) {
	date := time.Date(2027, 2, 21, 21, 0, 0, 0, time.UTC)
	for _, c := range []struct{ name, body, arrive string }{
		{"with its day", "Confirmation BL8M2QX\n\nTrain 107: MIAMI, FL - ORLANDO, FL\nDeparts 7:10 AM, Saturday, March 6, 2027\nArrives 10:39 AM, Saturday, March 6, 2027\nSMART $79.00\n", "2027-03-06T10:39:00-05:00"},
		{"without", "Confirmation BL8M2QX\n\nTrain 107: MIAMI, FL - ORLANDO, FL\nDeparts 7:10 AM, Saturday, March 6, 2027\n\nArrives 10:39 AM\n", "2027-03-06T10:39:00-05:00"},
		{"more than the arrival", "Confirmation BL8M2QX\n\nTrain 107: MIAMI, FL - ORLANDO, FL\nDeparts 7:10 AM, Saturday, March 6, 2027\nArrives 10:39 AM at the airport's intermodal center, Saturday, March 6, 2027\n", ""},
	} {
		facts := mailFacts("Brightline <receipts@rail.example.com>", "Your receipt", c.body, date)
		if len(facts) != 1 || facts[0].Segment == nil || facts[0].Segment.Depart == nil {
			t.Errorf("%s: facts = %+v, want one leg", c.name, facts)
			continue
		}
		s := facts[0].Segment
		got := ""
		if s.Arrive != nil {
			got = s.Arrive.Time.Format(time.RFC3339)
		}
		if s.Number != "107" || s.Depart.Time.Format(time.RFC3339) != "2027-03-06T07:10:00-05:00" || got != c.arrive {
			t.Errorf("%s: leg %s %s -> %s, want 107 2027-03-06T07:10:00-05:00 -> %q", c.name, s.Number, s.Depart.Time.Format(time.RFC3339), got, c.arrive)
		}
	}
}

// TestStationCodeAfterRegion: a US station written with its state and
// its own code ("Emeryville, CA (EMY)", "Richmond, CA (RIC)") is in its
// state's zone, never in that of the airport its code names elsewhere
// (Egypt's, Virginia's).
func TestStationCodeAfterRegion(t *testing.T) {
	body := "Reservation Number: 5F2A9C\n\nTrain\tDeparts\tArrives\n\n547\tEmeryville, CA (EMY) Sun, Jun 13, 2027 5:40 PM\tRichmond, CA (RIC) Sun, Jun 13, 2027 6:58 PM\t$24.00\n"
	facts := mailFacts("Capitol Corridor <etickets@rail.example.com>", "eTicket receipt", body, time.Date(2027, 6, 2, 2, 0, 0, 0, time.UTC))
	if len(facts) != 1 || facts[0].Segment == nil || facts[0].Segment.Depart == nil || facts[0].Segment.Arrive == nil {
		t.Fatalf("facts = %+v, want one leg", facts)
	}
	s := facts[0].Segment
	if got := s.Depart.Time.Format(time.RFC3339) + " " + s.Arrive.Time.Format(time.RFC3339); got != "2027-06-13T17:40:00-07:00 2027-06-13T18:58:00-07:00" {
		t.Errorf("leg %s -> %s: %s, want 2027-06-13T17:40:00-07:00 2027-06-13T18:58:00-07:00", s.From.Name, s.To.Name, got)
	}
}
