package facts_test

// The fourteenth outside review (2026-11-30): end-to-end proofs.

import (
	"context"
	"strings"
	"testing"
	"time"
)

// ATTACK (HIGH, a real flight's time changed, end to end): an airline the
// person has had mail from for a year (the booking itself made through an
// agency, or its confirmation confirmed at 11:40) sends a schedule change
// whose layout only the parts reader reads (extract/flightparts.go:
// flightFromParts takes the first two clocks): "Previous: 14 Mar 2027
// 11:40 - 13:40" over "New: 14 Mar 2027 07:10 - 09:10". The trip the
// agent reads, verified and trusted, leaves at 11:40, the withdrawn time,
// with the change mail as its source: the person arrives after the plane
// has left. (With the 11:40 confirmation too, the trip is 11:40 with
// sources [2,3]: the change corroborates the old time.)
// SAFE: the trip's LH 1234 departs 07:10 (or the change is not read and
// flagged; never the old time from the change mail).
func TestReview14ScheduleChangeTripKeepsOldTime(t *testing.T) {
	const dom = "airline-lh.example"
	from := "Lufthansa <noreply@" + dom + ">"
	seed := review7Mail(from, dom, "Welcome", "Hello.\r\n", 1)
	change := review7Mail(from, dom, "Schedule change QZ7WKP",
		"Important: your flight has changed\r\nBooking code: QZ7WKP\r\n\r\nLH1234\r\nRome Fiumicino\r\nMunich\r\nPrevious: 14 Mar 2027 11:40 - 13:40\r\nNew: 14 Mar 2027 07:10 - 09:10\r\n", 3)
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)),
		review7Msg(3, change, time.Now().Add(-2*time.Hour)))
	trips, err := fx.fx.Trips(context.Background(), time.Now(), time.Now().AddDate(0, 0, -1), time.Time{}, 20)
	if err != nil {
		t.Fatal(err)
	}
	got := join(trips)
	t.Logf("trips = %s", got)
	if !strings.Contains(got, "2027-03-14T07:10") || strings.Contains(got, "2027-03-14T11:40") {
		t.Errorf("the schedule change's old time stands in the trip: %s", got)
	}
}
