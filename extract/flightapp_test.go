package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestAppOneValueALine: an airline app's text that prints each value on a
// line of its own (the leg's date, each airport's code, its name and its
// clock, the number between) is read as flights in every language, and
// never as a train; a train's app text with stations' codes stays no
// flight.
func TestAppOneValueALine(t *testing.T) {
	type leg struct{ num, from, to, dep, arr string }
	for _, tt := range []struct {
		name, body string
		want       []leg
		from       string
	}{
		{"en, names under the codes, an operator's line", "Record locator: TQ4PZM\n\nSaturday, November 6, 2027\n\nSEA\n\nSeattle\n\n8:20 AM\n\nAS 338\n\nOperated by Horizon Air\n\nSFO\n\nSan Francisco\n\n10:35 AM\n\nSeat: 7F\n",
			[]leg{{"AS 338", "SEA", "SFO", "2027-11-06T08:20:00-07:00", "2027-11-06T10:35:00-07:00"}}, ""},
		{"es, codes alone, an arrival after midnight", "Código de reserva: MZ7QWD\n\nsábado, 6 de noviembre de 2027\nMAD\n23:10\nUX 9117\nTFN\n01:05\n",
			[]leg{{"UX 9117", "MAD", "TFN", "2027-11-06T23:10:00+01:00", "2027-11-07T01:05:00Z"}}, ""},
		{"de, two legs", "Buchungscode: P2WQ7X\n\nSamstag, 6. November 2027\nMUC\nMünchen\n09:05\nLH 1840\nOPO\nPorto\n11:10\n\nMittwoch, 10. November 2027\nOPO\nPorto\n12:00\nLH 1841\nMUC\nMünchen\n15:55\n",
			[]leg{{"LH 1840", "MUC", "OPO", "2027-11-06T09:05:00+01:00", "2027-11-06T11:10:00Z"}, {"LH 1841", "OPO", "MUC", "2027-11-10T12:00:00Z", "2027-11-10T15:55:00+01:00"}}, ""},
		{"en, \"Flight 612\" in an airline's mail: its designator", "Confirmation # QW7ZP4\n\nSaturday, November 6, 2027\n\nMDW\n\nChicago (Midway)\n\n6:05 AM\n\nFlight 612\n\nSTL\n\nSt. Louis\n\n7:20 AM\n",
			[]leg{{"WN 612", "MDW", "STL", "2027-11-06T06:05:00-05:00", "2027-11-06T07:20:00-05:00"}}, "Southwest Airlines <news@ifly.southwest.com>"},
		{"pl, the airline's name alone on a line", "LOT Polish Airlines\nNumer rezerwacji: WQ7T2M\n\nsobota, 6 listopada 2027\nKRK\nKraków\n06:30\nLot 3902\nWAW\nWarszawa\n07:30\n",
			[]leg{{"LO 3902", "KRK", "WAW", "2027-11-06T06:30:00+01:00", "2027-11-06T07:30:00+01:00"}}, "Podróże <app@travel.example>"},
		{"\"Flight 612\" from no airline named gives none", "Confirmation # QW7ZP4\n\nSaturday, November 6, 2027\n\nMDW\n\nChicago (Midway)\n\n6:05 AM\n\nFlight 612\n\nSTL\n\nSt. Louis\n\n7:20 AM\n",
			nil, "Trips <app@trips.example>"},
		{"it, an agency's stops with the clock first", "Numero di prenotazione: 55120931\n09:15\nsab 6 nov\nNapoli\nNAP\nVolotea\nNumero volo:\nV7 1318\n10:55\nsab 6 nov\nVerona\nVRN\n",
			[]leg{{"V7 1318", "NAP", "VRN", "2027-11-06T09:15:00+01:00", "2027-11-06T10:55:00+01:00"}}, ""},
		{"the clock first, no airport's code: none", "Numero di prenotazione: 55120931\n09:15\nsab 6 nov\nNapoli Centrale\nItalo\nNumero treno:\nV7 1318\n10:55\nsab 6 nov\nRoma Termini\n",
			nil, ""},
		{"a train's app text with stations' codes is no flight", "Reservation number: 8C41FA\n\nSaturday, November 6, 2027\n\nNYP\n\nNew York Penn Station\n\n7:05 AM\n\nTrain 171\n\nWAS\n\nWashington Union Station\n\n10:40 AM\n",
			nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			from := tt.from
			if from == "" {
				from = "Airline <app@airline.example>"
			}
			for _, f := range mailFacts(from, "Your trip", tt.body, time.Date(2027, 10, 1, 9, 0, 0, 0, time.UTC)) {
				if f.Kind == extract.KindTrain && (tt.want != nil || tt.from != "") {
					t.Errorf("a train from an airline's app text: %+v", f.Segment)
				}
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
