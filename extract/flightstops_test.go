package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestStackedStopFlights: a leg laid out as stacked stops, each a date and
// clock alone on a line over its airport, its number on a line of its own
// after the departure or above the leg, is read in every language, an
// arrival's clock alone on the departure's day; lines of other shapes
// make no stop.
func TestStackedStopFlights(t *testing.T) {
	type leg struct{ num, from, to, dep, arr string }
	for _, tt := range []struct {
		name, body string
		want       []leg
	}{
		{"nl, number between the stops, arrival's clock alone", "Uw vluchten\nvrijdag 9 juli 2027 - 07:05\nAmsterdam, Schiphol Airport (AMS)\nKL1121\n| Uitgevoerd door\nKLM\n09:20\nKopenhagen, Kastrup\n(CPH)\nBoekingscode: RT5Q2W\n",
			[]leg{{"KL 1121", "AMS", "CPH", "2027-07-09T07:05:00+02:00", "2027-07-09T09:20:00+02:00"}}},
		{"de, names alone, number after both stops, two legs", "Buchungscode: PX4K7M\nIhr Flug\n\n02.10.2027 - 06:40\nHamburg\n\n02.10.2027 - 08:05\nWien\nOS 178 Durchgeführt von: Austrian\n\n05.10.2027 - 19:15\nWien\n\n05.10.2027 - 20:45\nHamburg\nOS 179 Durchgeführt von: Austrian\n",
			[]leg{{"OS 178", "HAM", "VIE", "2027-10-02T06:40:00+02:00", "2027-10-02T08:05:00+02:00"}, {"OS 179", "VIE", "HAM", "2027-10-05T19:15:00+02:00", "2027-10-05T20:45:00+02:00"}}},
		{"es, the number above its leg", "Localizador: JD8W3Q\nIda\nUX 7105 · Turista\nlun 4 oct 2027 - 09:30\nMadrid (MAD)\nlun 4 oct 2027 - 11:55\nRoma Fiumicino, FCO\n",
			[]leg{{"UX 7105", "MAD", "FCO", "2027-10-04T09:30:00+02:00", "2027-10-04T11:55:00+02:00"}}},
		{"en, a number above the first leg, then each under its departure; codes beside names, an aircraft's type", "Your flight BA 762 to Oslo is confirmed.\nBooking reference: QW7ZP4\nThu 7 Oct 2027 - 11:20\nLHR London Heathrow\nThu 7 Oct 2027 - 14:35\nOslo Gardermoen OSL\nBA 762 · Airbus A320neo\nSun 10 Oct 2027 - 17:05\nOslo Gardermoen OSL\nSun 10 Oct 2027 - 18:20\nLHR London Heathrow\nBA 763 · Airbus A321\n",
			[]leg{{"BA 762", "LHR", "OSL", "2027-10-07T11:20:00+01:00", "2027-10-07T14:35:00+02:00"}, {"BA 763", "OSL", "LHR", "2027-10-10T17:05:00+02:00", "2027-10-10T18:20:00+01:00"}}},
		{"de, a terminal beside the code", "Buchungscode: PX4K7M\nIhr Flug\n02.10.2027 08:10\nMünchen (MUC) Terminal 2\nLH 1840 Durchgeführt von: Lufthansa\n02.10.2027 10:25\nPorto (OPO)\n",
			[]leg{{"LH 1840", "MUC", "OPO", "2027-10-02T08:10:00+02:00", "2027-10-02T10:25:00+01:00"}}},
		{"an airline's name beside a code is no airport", "Booking code: ZP3M8R\nflight\n12.11.2027 - 10:00\nKLM Royal Dutch Airlines\n12.11.2027 - 11:05\nLondon Heathrow (LHR)\nKL 1007\n",
			nil},
		{"a regional train to the airport in a mail of trains is no flight", "Ihre Rail&Fly-Fahrkarte zum Flug\nAuftragsnummer: QW7ZP4\nZug\n18.09.2027 - 06:10\nKöln\n18.09.2027 - 07:15\nFrankfurt am Main\nRE 4711 Richtung Flughafen\n",
			nil},
		{"a route of two codes under a date is no stop", "Booking code: ZP3M8R\nflight\n12.11.2027 - 10:00\nLUX MUC\n12.11.2027 - 11:05\nLuxembourg\nLG 9511\n",
			nil},
		{"two numbers between the stops: no leg", "Booking code: ZP3M8R\nflight\n12.11.2027 - 10:00\nOslo\nSK 4407\nSK 4409\n12.11.2027 - 11:05\nBergen\n",
			nil},
		{"an arrival before the departure: no leg", "Booking code: ZP3M8R\nflight\n12.11.2027 - 10:00\nOslo\n11.11.2027 - 11:05\nBergen\nSK 4407\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			for _, f := range mailFacts("Airline <booking@airline.example>", "Booking", tt.body, time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC)) {
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
