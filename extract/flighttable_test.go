package extract_test

import (
	"strings"
	"testing"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestTableFlights: flights laid out as a table, a header row naming each
// column and a row a flight, read by what each header says (issue 46
// class 2), in HTML (cells apart by tabs once flattened) and in text
// columns apart by spaces: a date in a DATE column ("JUN 13") is no
// flight number, a header ("STD", "FROM") no airport, a return table under
// its own heading is read too, a clock's own offset and "+1" hold, a row
// without a date takes the heading's, a table on its side is read column
// by column, and a table that names no flight is no flight.
func TestTableFlights(t *testing.T) {
	const html, text = "text/html", "text/plain"
	for _, c := range []struct {
		name, ctype, body string
		want              []string
	}{
		{"two HTML tables, month and day, +1", html,
			`<p>Booking reference: BQ4T7N</p><h3>OUTBOUND</h3><table><tr><th>DATE</th><th>FLIGHT</th><th>FROM</th><th>TO</th><th>DEPARTS</th><th>ARRIVES</th></tr>` +
				`<tr><td>JUN 13</td><td>BA 117</td><td>London Heathrow (LHR)</td><td>New York JFK (JFK)</td><td>08:25</td><td>11:05</td></tr></table>` +
				`<h3>RETURN</h3><table><tr><th>DATE</th><th>FLIGHT</th><th>FROM</th><th>TO</th><th>DEPARTS</th><th>ARRIVES</th></tr>` +
				`<tr><td>JUN 27</td><td>BA 178</td><td>New York JFK (JFK)</td><td>London Heathrow (LHR)</td><td>19:30</td><td>07:35 +1</td></tr></table>`,
			[]string{"BA 117 LHR-JFK 2027-06-13T08:25+01:00 2027-06-13T11:05-04:00", "BA 178 JFK-LHR 2027-06-27T19:30-04:00 2027-06-28T07:35+01:00"}},
		{"French headers, clocks with their offsets, slashed dates day first", html,
			`<p>Référence : AZ6M2P</p><table><tr><th>Vol</th><th>Date</th><th>Départ</th><th>Heure de départ</th><th>Arrivée</th><th>Heure d'arrivée</th></tr>` +
				`<tr><td>AF 1204</td><td>10/04/2027</td><td>Paris CDG</td><td>07:15 (UTC+02:00)</td><td>Lisbonne LIS</td><td>08:55 (UTC+01:00)</td></tr></table>`,
			[]string{"AF 1204 CDG-LIS 2027-04-10T07:15+02:00 2027-04-10T08:55+01:00"}},
		{"text columns, STD and STA, ICAO numbers", text,
			"Booking ref: SP6620417\n\nDATE      FLIGHT    FROM               TO                 STD     STA\n" +
				"JUN 13    TOM 4502  Manchester (MAN)   Dalaman (DLM)      06:45   13:20\n",
			[]string{"TOM 4502 MAN-DLM 2027-06-13T06:45+01:00 2027-06-13T13:20+03:00"}},
		{"text columns, names without codes, an empty cell, day and month alone", text,
			"Bokningsnummer: NR4Q8T\n\nDatum     Flyg      Från                Till                Avgång   Ankomst   Terminal\n" +
				"12.3.     SK 1577   København           Nice                09:40    12:10\n" +
				"19.3.     SK 1578   Nice                København           13:05    15:35     3\n",
			[]string{"SK 1577 CPH-NCE 2027-03-12T09:40+01:00 2027-03-12T12:10+01:00", "SK 1578 NCE-CPH 2027-03-19T13:05+01:00 2027-03-19T15:35+01:00"}},
		{"the date in the heading above the table, the arrival's own date in its cell", html,
			`<p>Confirmation code: FP8M3Z</p><h3>Depart: Friday, August 20, 2027</h3><table><tr><th>Flight</th><th>Origin</th><th>Destination</th><th>Departure</th><th>Arrival</th></tr>` +
				`<tr><td>UA 837</td><td>San Francisco (SFO)</td><td>Tokyo Narita (NRT)</td><td>11:15 AM</td><td>Sat, Aug 21 2:55 PM</td></tr></table>`,
			[]string{"UA 837 SFO-NRT 2027-08-20T11:15-07:00 2027-08-21T14:55+09:00"}},
		{"a table on its side, a row a field and a column a flight, its first row the numbers", html,
			`<p>Buchungsnummer: WF9R2K</p><table><tr><td>Flugnummer</td><td>EW 582</td><td>EW 583</td></tr><tr><td>Datum</td><td>Sa 05.06.</td><td>Sa 12.06.</td></tr>` +
				`<tr><td>Abflughafen</td><td>Hamburg HAM</td><td>Palma de Mallorca PMI</td></tr><tr><td>Abflug</td><td>06:05</td><td>19:40</td></tr>` +
				`<tr><td>Zielflughafen</td><td>Palma de Mallorca PMI</td><td>Hamburg HAM</td></tr><tr><td>Ankunft</td><td>08:40</td><td>22:20</td></tr></table>`,
			[]string{"EW 582 HAM-PMI 2027-06-05T06:05+02:00 2027-06-05T08:40+02:00", "EW 583 PMI-HAM 2027-06-12T19:40+02:00 2027-06-12T22:20+02:00"}},
		{"a table whose header names no flight is none", html,
			`<p>Flight booking BQ4T7N</p><table><tr><th>Date</th><th>From</th><th>To</th><th>Price</th></tr>` +
				`<tr><td>JUN 13</td><td>London</td><td>Paris</td><td>120.00</td></tr></table>`,
			nil},
		{"a row whose cells no airport table knows is none", text,
			"Flight booking BQ4T7N\n\nFlight    Date      From         To           Departs   Arrives\n" +
				"XQ 12     JUN 13    Somewhere    Elsewhere    08:00     09:00\n",
			nil},
	} {
		raw := "From: Bookings <bookings@travel.example.com>\r\nSubject: Your itinerary\r\nDate: Mon, 01 Mar 2027 10:00:00 +0000\r\n" +
			"MIME-Version: 1.0\r\nContent-Type: " + c.ctype + "; charset=utf-8\r\n\r\n"
		if c.ctype == html {
			raw += "<html><body>" + c.body + "</body></html>\r\n"
		} else {
			raw += strings.ReplaceAll(c.body, "\n", "\r\n")
		}
		msg := mime.Parse([]byte(raw))
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && f.Kind == extract.KindFlight && s.Depart != nil && s.Arrive != nil {
				got = append(got, s.Number+" "+s.From.Code+"-"+s.To.Code+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+
					s.Arrive.Format("2006-01-02T15:04-07:00"))
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
