package extract_test

import (
	"testing"
	"time"
)

// TestRouteFirstDayUnderRoute: a card that prints each leg's route line
// first, its day under it and its number last reads each leg's day from
// its own block, not from the block above; an operating carrier named
// after a number ("operated by …") keeps the number its flight's, while a
// number the line names a codeshare is none.
func TestRouteFirstDayUnderRoute(t *testing.T) {
	sent := time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC)
	type leg struct{ number, from, to, depart, arrive string }
	for _, tt := range []struct {
		name, from, text string
		want             []leg
	}{
		{"two legs on different days, the second operated by another airline", "Qantas <bookings@qantas.example>",
			"Booking reference: QF7PLM\nDEPART  SYD 9:05am  ARRIVE  MEL 10:40am\nMon 15 Mar 2027\nQF 419  Economy\nDEPART  MEL 6:15pm  ARRIVE  HBA 7:25pm\nWed 17 Mar 2027\nQF 1511 operated by QantasLink\n",
			[]leg{{"QF 419", "SYD", "MEL", "2027-03-15 09:05 +1100", "2027-03-15 10:40 +1100"},
				{"QF 1511", "MEL", "HBA", "2027-03-17 18:15 +1100", "2027-03-17 19:25 +1100"}}},
		{"one day over both legs", "Qantas <bookings@qantas.example>",
			"Booking reference: QF7PLM\nMon 15 Mar 2027\nDEPART  SYD 9:05am  ARRIVE  MEL 10:40am\nQF 419  Economy\nDEPART  MEL 6:15pm  ARRIVE  HBA 7:25pm\nQF 1511\n",
			[]leg{{"QF 419", "SYD", "MEL", "2027-03-15 09:05 +1100", "2027-03-15 10:40 +1100"},
				{"QF 1511", "MEL", "HBA", "2027-03-15 18:15 +1100", "2027-03-15 19:25 +1100"}}},
		{"a number named a codeshare is no leg of its own", "Qantas <bookings@qantas.example>",
			"Booking reference: QF7PLM\nDEPART  SYD 9:05am  ARRIVE  MEL 10:40am\nMon 15 Mar 2027\nQF 419  Economy\nEK 5019 codeshare\n",
			[]leg{{"QF 419", "SYD", "MEL", "2027-03-15 09:05 +1100", "2027-03-15 10:40 +1100"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			for _, f := range mailFacts(tt.from, "Your booking", tt.text, sent) {
				s := f.Segment
				if s == nil || s.Type != "flight" || s.From == nil || s.To == nil || s.Depart == nil || s.Arrive == nil {
					continue
				}
				got = append(got, leg{s.Number, s.From.Code, s.To.Code, s.Depart.Format("2006-01-02 15:04 -0700"), s.Arrive.Format("2006-01-02 15:04 -0700")})
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
