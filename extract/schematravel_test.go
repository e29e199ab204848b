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
		{"a stay's camel-cased times", `{"@type":"LodgingReservation","reservationNumber":"H5","reservationFor":{"@type":"Hotel","name":"Hotel Lago"},` +
			`"checkInTime":"2027-06-01T15:00:00+02:00","checkOutTime":"2027-06-03T11:00:00+02:00"}`,
			"hotel H5 > 2027-06-01..2027-06-03 confirmed"},
		{"microdata of two types", `<div itemscope itemtype="http://schema.org/Reservation http://schema.org/LodgingReservation">` +
			`<meta itemprop="reservationNumber" content="H6"><div itemprop="reservationFor" itemscope itemtype="http://schema.org/Hotel">` +
			`<span itemprop="name">Hotel Lago</span></div><meta itemprop="checkinDate" content="2027-06-01">` +
			`<meta itemprop="checkoutDate" content="2027-06-03"></div>`,
			"hotel H6 > 2027-06-01..2027-06-03 confirmed"},
		{"no time, no day", `{"@type":"TrainReservation","reservationNumber":"8842","reservationFor":{"@type":"TrainTrip",` +
			`"departureStation":{"name":"Utrecht Centraal"},"arrivalStation":{"name":"Groningen"}}}`, ""},
	} {
		c0 := newMsgContext(&mime.Message{Date: time.Date(2027, 4, 1, 10, 0, 0, 0, time.UTC)}, true)
		items := parseJSONLD([]byte(c.json))
		if strings.HasPrefix(c.json, "<") {
			items = microdata(c.json)
		}
		var got []string
		for _, f := range c0.schemaFacts(items, FromJSONLD) {
			s := f.Segment
			when := "-"
			switch {
			case s.Type == KindHotel && s.CheckIn != nil && s.CheckOut != nil:
				when = s.CheckIn.Format("2006-01-02") + ".." + s.CheckOut.Format("2006-01-02")
			case s.Depart != nil && s.Depart.DateOnly:
				when = s.Depart.Format("2006-01-02") + " day"
			case s.Depart != nil:
				when = s.Depart.Format("2006-01-02T15:04")
			}
			got = append(got, strings.Join([]string{s.Type, s.Reservation, placeName(s.From) + ">" + placeName(s.To), when, s.Status}, " "))
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: schemaFacts = %q, want %q", c.name, g, c.want)
		}
	}
}
