package extract

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"

	"mailnode/mail/mime"
)

// TestICalDateTime: icalDateTime reads every time as go-ical does.
func TestICalDateTime(t *testing.T) {
	for _, c := range []struct{ value, tzid, valueType string }{
		{"20300512T083000", "Europe/Berlin", ""},
		{"20300512T083000", "America/New_York", "DATE-TIME"},
		{"20300512T083000Z", "Europe/Berlin", ""},
		{"20300512", "Europe/Berlin", ""},
		{"20300512", "", "DATE"},
		{"20300512T083000", "", ""},
		{"20300512T083000", "W. Europe Standard Time", ""},
		{"2030-05-12", "Europe/Berlin", ""},
	} {
		p := ical.NewProp(ical.PropDateTimeStart)
		p.Value = c.value
		if c.tzid != "" {
			p.Params.Set(ical.ParamTimezoneID, c.tzid)
		}
		if c.valueType != "" {
			p.Params.Set(ical.ParamValue, c.valueType)
		}
		got, gotErr := icalDateTime(p)
		want, wantErr := p.DateTime(nil)
		if !got.Equal(want) || got.Location().String() != want.Location().String() || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%+v: %v, %v; go-ical %v, %v", c, got, gotErr, want, wantErr)
		}
	}
}

// TestCalendarEmbedded: an event's reservation in an X- property is read
// as markup (its STATUS over the markup's); a property that holds no
// markup, or an event about hotels that names no booking, gives nothing
// of its own.
func TestCalendarEmbedded(t *testing.T) {
	const flight = `[{"@context":"http://schema.org"\,"@type":"FlightReservation"\,"reservationNumber":"QW7TZP"\,` +
		"\r\n " + `"reservationFor":{"@type":"Flight"\,"flightNumber":"9462"\,"airline":{"@type":"Airline"\,"iataCode":"EW"}\,` +
		"\r\n " + `"departureAirport":{"@type":"Airport"\,"iataCode":"CGN"}\,"arrivalAirport":{"@type":"Airport"\,"iataCode":"PMI"}\,` +
		"\r\n " + `"departureTime":{"@type":"QDateTime"\,"@value":"2027-05-22T06:35:00+02:00"\,"timezone":"Europe/Berlin"}}}]`
	event := func(props ...string) string {
		return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1@example.org\r\nDTSTAMP:20270301T100000Z\r\n" +
			strings.Join(props, "\r\n") + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	}
	for _, c := range []struct {
		name, ics string
		want      string
	}{
		{"markup", event("DTSTART;TZID=Europe/Berlin:20270522T063500", "SUMMARY:Urlaub Mallorca", "X-REISEPLAN-RESERVATION:"+flight),
			"flight QW7TZP EW 9462 CGN>PMI 2027-05-22T06:35:00+02:00 confirmed"},
		{"cancelled", event("DTSTART;TZID=Europe/Berlin:20270522T063500", "STATUS:CANCELLED", "SUMMARY:Urlaub Mallorca", "X-REISEPLAN-RESERVATION:"+flight),
			"flight QW7TZP EW 9462 CGN>PMI 2027-05-22T06:35:00+02:00 cancelled"},
		{"commas escaped and not", event("DTSTART;TZID=Europe/Berlin:20270522T063500", "SUMMARY:Urlaub Mallorca",
			"X-REISEPLAN-RESERVATION:"+strings.Replace(flight, `\,"reservationNumber"`, `,"reservationNumber"`, 1)),
			"flight QW7TZP EW 9462 CGN>PMI 2027-05-22T06:35:00+02:00 confirmed"},
		{"a description's unescaped comma", event("DTSTART;TZID=Europe/Berlin:20270522T100500", "DTEND;TZID=America/New_York:20270522T125500",
			"SUMMARY:Reise nach New York", `DESCRIPTION:Hallo Max, Ihr Flug LH 400 von Frankfurt (FRA) nach New York (JFK)\nBuchungscode: K7XQ2M`),
			"flight K7XQ2M LH 400 FRA>JFK 2027-05-22T10:05:00+02:00 confirmed"},
		{"no markup", event("DTSTART;TZID=Europe/Berlin:20270522T063500", "SUMMARY:Urlaub Mallorca", "X-MICROSOFT-CDO-BUSYSTATUS:BUSY"), ""},
		{"broken markup", event("DTSTART;TZID=Europe/Berlin:20270522T063500", "SUMMARY:Urlaub Mallorca", `X-APP-DATA:{"@type": "Flight`), ""},
		{"fair", event("DTSTART;VALUE=DATE:20271019", "DTEND;VALUE=DATE:20271022", "SUMMARY:Hotel & Hospitality Expo 2027",
			`DESCRIPTION:Visitor check-in opens at 08:00.\nHotel partners offer 15% off.`), ""},
		{"stay", event("DTSTART;VALUE=DATE:20270612", "DTEND;VALUE=DATE:20270615", "SUMMARY:Hotell Strandporten",
			`DESCRIPTION:Bokningsnummer: 55812904\nIncheckning från 15:00.`), "hotel 55812904 Hotell Strandporten 2027-06-12 2027-06-15 confirmed"},
	} {
		c0 := newMsgContext(&mime.Message{Date: time.Date(2027, 3, 1, 10, 0, 0, 0, time.UTC)}, true)
		var got []string
		for _, f := range c0.calendarFacts(c.ics) {
			s := f.Segment
			if s.Type == KindHotel {
				got = append(got, fmt.Sprintf("hotel %s %s %s %s %s", s.Reservation, s.Hotel, s.CheckIn.Format("2006-01-02"), s.CheckOut.Format("2006-01-02"), s.Status))
				continue
			}
			got = append(got, fmt.Sprintf("%s %s %s %s>%s %s %s", s.Type, s.Reservation, s.Number, s.From.Code, s.To.Code, s.Depart.Format(time.RFC3339), s.Status))
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: calendarFacts = %q, want %q", c.name, g, c.want)
		}
	}
}

// TestRouteCodes: a description's route is the codes of its line that
// has two, else its codes but a label's aside.
func TestRouteCodes(t *testing.T) {
	for _, c := range []struct{ desc, want string }{
		{"Volo AZ 1776 da Roma Fiumicino (FCO) a Catania (CTA)\nCodice prenotazione (PNR): QF3R8T", "FCO CTA"},
		{"Codice prenotazione (PNR): QF3R8T\nFrom: Hamburg (HAM)\nTo: Munich (MUC)", "HAM MUC"},
		{"Booking (PNR) QF3R8T", "PNR"},
	} {
		var got []string
		for _, m := range routeCodes(c.desc) {
			got = append(got, m[1])
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("routeCodes(%q) = %q, want %q", c.desc, g, c.want)
		}
	}
}

// TestCalendarOvernight: a description's legs under one day whose clocks
// pass midnight are dated on the next day when the event's end is the
// last arrival so dated; an end that disagrees, or none, leaves the legs
// after the night on the stated day.
func TestCalendarOvernight(t *testing.T) {
	const desc = `DESCRIPTION:Reise: Wien Hbf nach Zürich HB\nDatum: 14.03.28\n-\nab 19:40 Wien Hbf (RJX 165)\nan 21:05 Linz Hbf\n\n` +
		`ab 21:30 Linz Hbf (NJ 466)\nan 06:20 Feldkirch\n\nab 06:45 Feldkirch (RJ 362)\nan 08:20 Zürich HB\n`
	event := func(end string) string {
		props := []string{"DTSTART;TZID=Europe/Vienna:20280314T194000", "SUMMARY:Wien Hbf -> Zürich HB", desc}
		if end != "" {
			props = append(props, "DTEND;TZID=Europe/Vienna:"+end)
		}
		return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1@example.org\r\nDTSTAMP:20280301T100000Z\r\n" +
			strings.Join(props, "\r\n") + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	}
	for _, c := range []struct{ name, end, want string }{
		{"end agrees", "20280315T082000", "14T19:40-14T21:05 14T21:30-15T06:20 15T06:45-15T08:20"},
		// textLegs itself puts an arrival before its departure on the
		// next day; the legs after it stay where they were read.
		{"end disagrees", "20280314T082000", "14T19:40-14T21:05 14T21:30-15T06:20 14T06:45-14T08:20"},
		{"no end", "", "14T19:40-14T21:05 14T21:30-15T06:20 14T06:45-14T08:20"},
	} {
		c0 := newMsgContext(&mime.Message{Date: time.Date(2028, 3, 1, 10, 0, 0, 0, time.UTC)}, true)
		var got []string
		for _, f := range c0.calendarFacts(event(c.end)) {
			s := f.Segment
			got = append(got, s.Depart.Format("02T15:04")+"-"+s.Arrive.Format("02T15:04"))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%s: legs %q, want %q", c.name, g, c.want)
		}
	}
}
