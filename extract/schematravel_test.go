package extract

import (
	"strings"
	"testing"
	"time"

	"mailnode/mail/mime"
)

// TestSchemaTravelShapes: reservations as senders shape them: a type
// given as a list, the trip's day without its time, and a cancellation
// that names only its booking.
func TestSchemaTravelShapes(t *testing.T) {
	for _, c := range []struct {
		name, json, want string
	}{
		{"types as a list", `{"@type":["Thing","BusReservation"],"reservationNumber":"B77","reservationFor":{"@type":"BusTrip",` +
			`"departureBusStop":{"name":"Porto"},"arrivalBusStop":{"name":"Braga"},"departureTime":"2027-04-17T08:15:00+01:00"}}`,
			"bus B77 Porto>Braga 2027-04-17T08:15 confirmed"},
		{"a day's train", `[{"@type":"TrainReservation","reservationNumber":"8841","reservationFor":{"@type":"TrainTrip",` +
			`"departureStation":{"name":"Utrecht Centraal"},"arrivalStation":{"name":"Groningen"},"departureDay":"2027-04-17"}}]`,
			"train 8841 Utrecht Centraal>Groningen 2027-04-17 day confirmed"},
		{"a day's bus", `{"@type":"BusReservation","reservationNumber":"B78","reservationFor":{"@type":"BusTrip",` +
			`"departureBusStop":{"name":"Porto"},"arrivalBusStop":{"name":"Braga"},"departureDay":"2027-04-18"}}`,
			"bus B78 Porto>Braga 2027-04-18 day confirmed"},
		{"a bare cancellation", `{"@type":"FlightReservation","reservationNumber":"RXJ34P","reservationStatus":"http://schema.org/Cancelled"}`,
			"flight RXJ34P > - cancelled"},
		{"no time, no day", `{"@type":"TrainReservation","reservationNumber":"8842","reservationFor":{"@type":"TrainTrip",` +
			`"departureStation":{"name":"Utrecht Centraal"},"arrivalStation":{"name":"Groningen"}}}`, ""},
	} {
		c0 := newMsgContext(&mime.Message{Date: time.Date(2027, 4, 1, 10, 0, 0, 0, time.UTC)}, true)
		var got []string
		for _, f := range c0.schemaFacts(parseJSONLD([]byte(c.json)), FromJSONLD) {
			s := f.Segment
			when := "-"
			if s.Depart != nil {
				when = s.Depart.Format("2006-01-02T15:04")
				if s.Depart.DateOnly {
					when = s.Depart.Format("2006-01-02") + " day"
				}
			}
			got = append(got, strings.Join([]string{s.Type, s.Reservation, placeName(s.From) + ">" + placeName(s.To), when, s.Status}, " "))
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: schemaFacts = %q, want %q", c.name, g, c.want)
		}
	}
}
