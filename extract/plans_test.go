package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestPlansFromMarkup: schema.org bus, boat, rental car and event
// reservations become plans of their kinds; a bare Event (a newsletter's
// listing) is nobody's booking.
func TestPlansFromMarkup(t *testing.T) {
	for _, c := range []struct{ jsonld, want string }{
		{`{"@context":"http://schema.org","@type":"BusReservation","reservationNumber":"FLX123","reservationFor":{"@type":"BusTrip","busNumber":"N 1234",
			"departureBusStop":{"@type":"BusStop","name":"Berlin ZOB"},"departureTime":"2027-05-01T08:00:00+02:00",
			"arrivalBusStop":{"@type":"BusStop","name":"Hamburg ZOB"},"arrivalTime":"2027-05-01T11:15:00+02:00"}}`,
			"bus N 1234 Berlin ZOB>Hamburg ZOB 2027-05-01T08:00+02:00 FLX123"},
		{`{"@context":"http://schema.org","@type":"RentalCarReservation","reservationNumber":"RC-991","reservationFor":{"@type":"RentalCar","rentalCompany":{"@type":"Organization","name":"Sixt"}},
			"pickupLocation":{"@type":"Place","name":"Lisbon Airport"},"pickupTime":"2027-06-02T10:00:00+01:00",
			"dropoffLocation":{"@type":"Place","name":"Porto Airport"},"dropoffTime":"2027-06-09T10:00:00+01:00"}`,
			"rental Sixt Lisbon Airport>Porto Airport 2027-06-02T10:00+01:00 RC-991"},
		{`{"@context":"http://schema.org","@type":"EventReservation","reservationNumber":"T-55","reservationFor":{"@type":"Event","name":"Jazz Night",
			"startDate":"2027-07-03T20:00:00+02:00","location":{"@type":"Place","name":"Philharmonie","address":{"@type":"PostalAddress","addressLocality":"Berlin"}}}}`,
			"event Jazz Night Philharmonie 2027-07-03T20:00+02:00 T-55"},
		{`{"@context":"http://schema.org","@type":"Event","name":"Summer sale","startDate":"2027-07-03"}`, ""},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: "noreply@vendor.example"}}, Subject: "Your booking",
			Date: time.Date(2027, 4, 1, 9, 0, 0, 0, time.UTC), HTML: []string{`<script type="application/ld+json">` + c.jsonld + `</script>`}}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			s := f.Segment
			if s == nil {
				continue
			}
			line := f.Kind + " " + s.Number + s.Name
			switch f.Kind {
			case extract.KindEvent:
				line += " " + s.Address
			default:
				line += " " + s.From.Name + ">" + s.To.Name
			}
			got = append(got, strings.Join(strings.Fields(line+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+s.Reservation), " "))
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
