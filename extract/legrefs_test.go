package extract_test

import (
	"testing"
	"time"
)

// TestLegRefsByDay: an order of two bookings, each printed with its own
// code under a block that names its days, gives each leg its booking's
// code; when a day is in no block, or blocks name no days, the mail's one
// code stands for every leg.
func TestLegRefsByDay(t *testing.T) {
	sent := time.Date(2027, 5, 3, 9, 0, 0, 0, time.UTC)
	legs := "Ihre Reise\nSamstag, 12. Juni 2027\nHinfahrt\t08:12\tKöln Hbf\tICE\t512\n10:40\tFrankfurt(Main)Hbf\n" +
		"Sonntag, 13. Juni 2027\nRückfahrt\t17:20\tFrankfurt(Main)Hbf\tICE\t517\n19:48\tKöln Hbf\n" +
		"Freitag, 2. Juli 2027\nHinfahrt\t09:05\tKöln Hbf\tICE\t1021\n13:30\tMünchen Hbf\n"
	for _, tt := range []struct {
		name, text string
		want       []string // each leg's code, in the legs' order
	}{
		{"each booking its code", legs +
			"Ihre Buchung\nKÖLN <> FRANKFURT am 12.06.2027 und 13.06.2027\nAuftragsnummer: QX4P7M\n\n" +
			"Ihre Buchung\nKÖLN > MÜNCHEN am 02.07.2027\nAuftragsnummer: ZT81KW\n",
			[]string{"QX4P7M", "QX4P7M", "ZT81KW"}},
		{"a day in no block", legs +
			"Ihre Buchung\nKÖLN <> FRANKFURT am 12.06.2027 und 13.06.2027\nAuftragsnummer: QX4P7M\n\n" +
			"Ihre Buchung\nKÖLN > MÜNCHEN am 03.07.2027\nAuftragsnummer: ZT81KW\n",
			[]string{"QX4P7M", "QX4P7M", "QX4P7M"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range mailFacts("DB Fernverkehr <buchungsbestaetigung@bahn.example>", "Ihre Buchungsbestätigung", tt.text, sent) {
				if s := f.Segment; s != nil && s.Type == "train" {
					got = append(got, s.Reservation)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("codes = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("leg %d: code %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}
