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
	}{
		{"en, names under the codes, an operator's line", "Record locator: TQ4PZM\n\nSaturday, November 6, 2027\n\nSEA\n\nSeattle\n\n8:20 AM\n\nAS 338\n\nOperated by Horizon Air\n\nSFO\n\nSan Francisco\n\n10:35 AM\n\nSeat: 7F\n",
			[]leg{{"AS 338", "SEA", "SFO", "2027-11-06T08:20:00-07:00", "2027-11-06T10:35:00-07:00"}}},
		{"es, codes alone, an arrival after midnight", "Código de reserva: MZ7QWD\n\nsábado, 6 de noviembre de 2027\nMAD\n23:10\nUX 9117\nTFN\n01:05\n",
			[]leg{{"UX 9117", "MAD", "TFN", "2027-11-06T23:10:00+01:00", "2027-11-07T01:05:00Z"}}},
		{"de, two legs", "Buchungscode: P2WQ7X\n\nSamstag, 6. November 2027\nMUC\nMünchen\n09:05\nLH 1840\nOPO\nPorto\n11:10\n\nMittwoch, 10. November 2027\nOPO\nPorto\n12:00\nLH 1841\nMUC\nMünchen\n15:55\n",
			[]leg{{"LH 1840", "MUC", "OPO", "2027-11-06T09:05:00+01:00", "2027-11-06T11:10:00Z"}, {"LH 1841", "OPO", "MUC", "2027-11-10T12:00:00Z", "2027-11-10T15:55:00+01:00"}}},
		{"a train's app text with stations' codes is no flight", "Reservation number: 8C41FA\n\nSaturday, November 6, 2027\n\nNYP\n\nNew York Penn Station\n\n7:05 AM\n\nTrain 171\n\nWAS\n\nWashington Union Station\n\n10:40 AM\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			for _, f := range mailFacts("Airline <app@airline.example>", "Your trip", tt.body, time.Date(2027, 10, 1, 9, 0, 0, 0, time.UTC)) {
				if f.Kind == extract.KindTrain && tt.want != nil {
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
