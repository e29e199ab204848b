package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestFlightRows: a flight's fields on rows of their own, as a flattened
// HTML table gives them (blank lines between, so the leg spans more than
// ten lines), the airports on "From" and "To" rows and the times on
// "Departure" and "Arrival" rows; and stops printed above the number,
// where the rows below belong to the next flight.
func TestFlightRows(t *testing.T) {
	rows := func(num, from, to, date, dep, arr string) string {
		return strings.Join([]string{"Flight " + num, "From " + from, "To " + to, "Date " + date, "Departure " + dep, "Arrival " + arr}, "\n\n")
	}
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"rows", "Booking reference: WQ3RT7\n\nOutbound\n\n" + rows("A3 602", "Athens (ATH)", "Thessaloniki (SKG)", "Monday, 12 July 2027", "07:15", "08:10") +
			"\n\nReturn\n\n" + rows("A3 611", "Thessaloniki (SKG)", "Athens (ATH)", "Friday, 16 July 2027", "20:30", "21:25") + "\n",
			[]string{"A3 602 ATH>SKG 2027-07-12T07:15+03:00 2027-07-12T08:10+03:00", "A3 611 SKG>ATH 2027-07-16T20:30+03:00 2027-07-16T21:25+03:00"}},
		{"stops above the number", "Booking reference: XXX007\n\nDeparture\n\nBerlin (TXL)\nFri, 03 Feb 2017, 18:25\nBrussels (BRU)\nFri, 03 Feb 2017, 19:45\nSN 2588\nBrussels Airlines\n\nNon stop\n\n" +
			"Return\n\nBrussels (BRU)\nSun, 05 Feb 2017, 20:40\nBerlin (TXL)\nSun, 05 Feb 2017, 22:00\nSN 2591\nBrussels Airlines\n",
			[]string{"SN 2588 TXL>BRU 2017-02-03T18:25+01:00 2017-02-03T19:45+01:00", "SN 2591 BRU>TXL 2017-02-05T20:40+01:00 2017-02-05T22:00+01:00"}},
		// Both times on a line under the route line: labelled, or a span.
		{"labelled times", "OUTBOUND\nSat 04 Feb 2017   Flight LS563\nManchester (MAN) to Palma (PMI)\nDeparts 06:15   Arrives 09:50\n",
			[]string{"LS 563 MAN>PMI 2017-02-04T06:15+00:00 2017-02-04T09:50+01:00"}},
		{"a span of times", "Hinflug\n4Y 142   Frankfurt (FRA) – Windhoek (WDH)\n12.02.2017 20:35 – 13.02.2017 06:50\n",
			[]string{"4Y 142 FRA>WDH 2017-02-12T20:35+01:00 2017-02-13T06:50+02:00"}},
		{"a date before the labels", "Voo S4 123\nPonta Delgada (PDL) → Lisboa (LIS)\n22/02/2017 partida 13:05 chegada 16:40\n",
			[]string{"S4 123 PDL>LIS 2017-02-22T13:05-01:00 2017-02-22T16:40+00:00"}},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: "booking@air.example.com"}}, Subject: "Your flight booking", Text: c.text,
			Date: time.Date(2017, 1, 8, 9, 0, 0, 0, time.UTC)}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && f.Kind == extract.KindFlight && s.Depart != nil && s.Arrive != nil {
				got = append(got, s.Number+" "+s.From.Code+">"+s.To.Code+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+s.Arrive.Format("2006-01-02T15:04-07:00"))
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
