package extract_test

import (
	"testing"
	"time"
)

// TestServiceWholeAndPNRLabels: a train's service named by two words
// before its number between its stops' lines is kept whole ("TGV INOUI
// 6612"), and a booking's code under "PNR reference", "PNR number" or
// "PNR code" is the leg's reservation.
func TestServiceWholeAndPNRLabels(t *testing.T) {
	sent := time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC)
	for _, label := range []string{"Ticket PNR reference", "PNR number", "PNR code:"} {
		text := "Lyon Part-Dieu\nMarseille St-Charles\n\n" + label + "\nQW7KZP\n\nOutbound Sunday, June 13\n01h 41m, 0 changes\n\n" +
			"09:04 Lyon Part-Dieu\nSNCF Voyageurs TGV INOUI 6612\nCoach 4, seat 61\n10:45 Marseille St-Charles\n"
		t.Run(label, func(t *testing.T) {
			var n, ref string
			legs := 0
			for _, f := range mailFacts("Rail Agency <confirm@railagency.example>", "Your trip is confirmed", text, sent) {
				if s := f.Segment; s != nil && s.Type == "train" {
					legs++
					n, ref = s.Number, s.Reservation
				}
			}
			if legs != 1 || n != "TGV INOUI 6612" || ref != "QW7KZP" {
				t.Errorf("%d legs, the last %q booked %q; want one, \"TGV INOUI 6612\", \"QW7KZP\"", legs, n, ref)
			}
		})
	}
}
