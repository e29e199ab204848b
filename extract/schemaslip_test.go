package extract_test

import "testing"

// TestMarkupArrivalBeforeDeparture: a trip's markup whose arrival comes
// before its departure (a slip: Google's own TrainReservation example
// arrives at 03:10 from a 10:30 departure that day) gives the trip
// without an arrival, not a wrong one.
func TestMarkupArrivalBeforeDeparture(t *testing.T) {
	for name, trip := range map[string]string{
		"train": `{"@context":"http://schema.org","@type":"TrainReservation","reservationNumber":"AB3XY2","reservationFor":{"@type":"TrainTrip",` +
			`"departureStation":{"@type":"TrainStation","name":"Munich Central"},"departureTime":"2027-01-04T10:30:00+01:00",` +
			`"arrivalStation":{"@type":"TrainStation","name":"Paris Gare De Lyon"},"arrivalTime":"2027-01-04T03:10:00+01:00"}}`,
		"bus ordered": `{"@context":"http://schema.org","@type":"BusReservation","reservationNumber":"NS-1","reservationFor":{"@type":"BusTrip",` +
			`"departureBusStop":{"@type":"BusStop","name":"Berlin ZOB"},"departureTime":"2027-08-14T22:15:00+02:00",` +
			`"arrivalBusStop":{"@type":"BusStop","name":"Hamburg ZOB"},"arrivalTime":"2027-08-15T01:30:00+02:00"}}`,
	} {
		raw := "From: Tickets <t@tickets.example>\r\nTo: a@example.com\r\nSubject: Booking\r\nDate: Mon, 2 Aug 2027 12:40:00 +0200\r\n" +
			"Content-Type: text/html; charset=utf-8\r\n\r\n<html><head><script type=\"application/ld+json\">" + trip + "</script></head><body><p>Booked.</p></body></html>\r\n"
		_, res := readRaw(raw)
		if len(res.Facts) != 1 || res.Facts[0].Segment == nil || res.Facts[0].Segment.Depart == nil {
			t.Fatalf("%s: facts %+v", name, res.Facts)
		}
		s := res.Facts[0].Segment
		if name == "train" && s.Arrive != nil {
			t.Errorf("%s: arrival %v before departure %v kept", name, s.Arrive, s.Depart)
		}
		if name == "bus ordered" && (s.Arrive == nil || s.Arrive.Format("2006-01-02 15:04") != "2027-08-15 01:30") {
			t.Errorf("%s: arrival %v, want 2027-08-15 01:30", name, s.Arrive)
		}
	}
}
