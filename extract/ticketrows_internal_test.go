package extract

import (
	"testing"
	"time"
)

// TestReceiptNameRow: an e-ticket receipt's row by number, day, the two
// cities' names and the departure's clock; not a row whose words between
// the day and the clock make no two airports, nor one that starts with
// no flight.
func TestReceiptNameRow(t *testing.T) {
	c := &msgContext{ref: time.Date(2014, 7, 1, 0, 0, 0, 0, time.UTC)}
	for _, tc := range []struct {
		line, want string // want: number from to depart
	}{
		{"LH 1089* 17.July Marseille Francfort 18:50 Confirmed L", "LH 1089 MRS FRA 2014-07-17 18:50"},
		{"AZ 1351 14.October Torino Catania 07:05 Confirmed Y", "AZ 1351 TRN CTA 2014-10-14 07:05"},
		{"LH 1089 17.July Marseille 18:50 Confirmed L", ""},
		{"LH 1089 17.July Seat 12A window 18:50", ""},
		{"Baggage 17.July Marseille Francfort 18:50", ""},
	} {
		got := ""
		if s := c.receiptNameRow(tc.line); s != nil {
			got = s.Number + " " + s.From.Code + " " + s.To.Code + " " + s.Depart.Format("2006-01-02 15:04")
		}
		if got != tc.want {
			t.Errorf("receiptNameRow(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}
