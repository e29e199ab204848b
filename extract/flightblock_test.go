package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestBlockStopFlights: a low-cost carrier's HTML itinerary flattened one
// field a line (city, day, clock perhaps doubled, airport with its
// terminal), the number above the block, is read; a status notice and a
// fare sale laid out so, with no booking, give nothing.
func TestBlockStopFlights(t *testing.T) {
	type leg struct{ num, from, to, dep, arr string }
	for _, tt := range []struct {
		name, subject, body string
		want                []leg
	}{
		{"en, a double clock, a city the data does not know, the number over the aircraft", "Your itinerary",
			"Booking reference\n\nVX3KQP\n\nDate\tFlight number\tDeparting\tArriving\n\nTue 7 Dec 2027\n\n6:10am / 06:10\n\nChange flight\n\nVJ 122 VietJet Air\n\nAirbus A321\n\nEco\n\nFlight duration:\n2hr 10min\n\nHa Noi\n\nTue 7 Dec 2027\n\n6:10am / 06:10\n\nNoi Bai International Airport - Terminal 1\n\nHo Chi Minh City\n\nTue 7 Dec 2027\n\n8:20am / 08:20\n\nTan Son Nhat International Airport - Domestic Terminal\n",
			[]leg{{"VJ 122", "HAN", "SGN", "2027-12-07T06:10:00+07:00", "2027-12-07T08:20:00+07:00"}}},
		{"en, a round trip, labels between, terminals after a comma", "Your booking",
			"Booking Reference: KT4WQM\n\nDepart\nFlight\tDeparting\tArriving\nU2 8157\nAirbus A320\nDeparting\nLondon Gatwick\nFri 3 Dec 2027\n07:05\nLondon Gatwick, North Terminal\nArriving\nGeneva\nFri 3 Dec 2027\n09:50\nGeneva Airport\n\nReturn\nFlight\tDeparting\tArriving\nU2 8158\nAirbus A320\nGeneva\nMon 6 Dec 2027\n10:35\nGeneva Airport\nLondon Gatwick\nMon 6 Dec 2027\n11:20\nLondon Gatwick, North Terminal\n",
			[]leg{{"U2 8157", "LGW", "GVA", "2027-12-03T07:05:00Z", "2027-12-03T09:50:00+01:00"}, {"U2 8158", "GVA", "LGW", "2027-12-06T10:35:00+01:00", "2027-12-06T11:20:00Z"}}},
		{"a followed flight's status, no booking: nothing", "VJ 122 status",
			"Good news! Flight VJ 122 is on time.\n\nFlight\tDepart\tArrive\n\nVJ 122\n\nAirbus A321\n\nHa Noi\n\nTue 7 Dec 2027\n\n6:10am / 06:10\n\nNoi Bai International Airport - Terminal 1\n\nHo Chi Minh City\n\nTue 7 Dec 2027\n\n8:20am / 08:20\n\nTan Son Nhat International Airport\n",
			nil},
		{"a city over a day and a clock without an airport's name is no stop of a hotel", "Your booking",
			"Booking reference: HT5RQA\n\nRoom 12\n\nParis\n\nFri 3 Dec 2027\n\n15:00\n\nRue de Rivoli 10\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			for _, f := range mailFacts("Airline <noreply@airline.example>", tt.subject, tt.body, time.Date(2027, 11, 1, 9, 0, 0, 0, time.UTC)) {
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
