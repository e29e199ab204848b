package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestPairedFlights: a receipt that prints each leg's departure and
// arrival as two columns apart by tabs or spaces, a row each of dates,
// clocks and places in any order (a cell wrapped over two rows), the
// number on a row of its own, is read leg by leg; two columns that are no
// leg's give none.
func TestPairedFlights(t *testing.T) {
	type leg struct{ num, from, to, dep, arr string }
	for _, tt := range []struct {
		name, body string
		want       []leg
	}{
		{"en, tabs, number rows first, an overnight arrival's own date", "Booking code: RT5Q2W\nSegment 1 of 2 DL 40\t\tCabin: Main (K)\nFri, Oct 8, 2027\t\tSat, Oct 9, 2027\n09:50 PM\t\t11:05 AM\nAtlanta, GA, US (ATL)\t\tParis, FR (CDG)\nSegment 2 of 2 DL 8610\t\tCabin: Main (K)\nSat, Oct 9, 2027\t\tSat, Oct 9, 2027\n01:40 PM\t\t03:20 PM\nParis, FR (CDG)\t\tVenice, IT (VCE)\n",
			[]leg{{"DL 40", "ATL", "CDG", "2027-10-08T21:50:00-04:00", "2027-10-09T11:05:00+02:00"}, {"DL 8610", "CDG", "VCE", "2027-10-09T13:40:00+02:00", "2027-10-09T15:20:00+02:00"}}},
		{"de, spaces, header, places first, number under the leg", "Buchungscode: PX4K7M\nAbflug                      Ankunft\nWien (VIE)                  Kopenhagen (CPH)\nSa, 16.10.2027              Sa, 16.10.2027\n07:25                       09:20\nFlug OS 305\n",
			[]leg{{"OS 305", "VIE", "CPH", "2027-10-16T07:25:00+02:00", "2027-10-16T09:20:00+02:00"}}},
		{"it, tabs, the arrival's place wrapped on a row of its own", "Codice di prenotazione: JD8W3Q\nVolo AZ 1637\t\tClasse: Economy\nlun 18 ott 2027\t\tlun 18 ott 2027\n06:45\t\t08:05\nMilano, Linate (LIN)\t\tNapoli, Capodichino,\n\t\tIT (NAP)\n",
			[]leg{{"AZ 1637", "LIN", "NAP", "2027-10-18T06:45:00+02:00", "2027-10-18T08:05:00+02:00"}}},
		{"a mileage table's two columns give no leg", "Booking code: RT5Q2W\nflight\nTicket: 0162389632983\tSeats: ATL-CDG 33K\nMiles flown:\tATL (ATL) 4,401\nStatus:\tCDG (CDG) 1\n",
			nil},
		{"an arrival before the departure: no leg", "Booking code: RT5Q2W\nSegment 1 of 1 DL 40\t\tCabin: Main\nSat, Oct 9, 2027\t\tFri, Oct 8, 2027\n09:50 PM\t\t11:05 AM\nAtlanta, GA, US (ATL)\t\tParis, FR (CDG)\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			for _, f := range mailFacts("Airline <booking@airline.example>", "Your receipt", tt.body, time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC)) {
				if s := f.Segment; f.Kind == extract.KindFlight && s != nil && s.From != nil && s.To != nil && s.Depart != nil && s.Arrive != nil {
					got = append(got, leg{s.Number, s.From.Code, s.To.Code, s.Depart.Format(time.RFC3339), s.Arrive.Format(time.RFC3339)})
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("legs = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("leg %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}
