package extract

import (
	"testing"
	"time"
)

// TestDropImplausible: a flight read from text whose arrival is not
// within maxFlight after its departure loses its arrival; one from
// markup or a calendar, or a train, keeps what it states.
func TestDropImplausible(t *testing.T) {
	dep := time.Date(2027, 6, 13, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name     string
		kind     string
		from     string
		after    time.Duration
		keepsArr bool
	}{
		{"eight hours", KindFlight, FromText, 8 * time.Hour, true},
		{"nineteen hours", KindFlight, FromText, 19 * time.Hour, true},
		{"two days", KindFlight, FromText, 50 * time.Hour, false},
		{"before it leaves", KindFlight, FromText, -2 * time.Hour, false},
		{"at once", KindFlight, FromText, 0, false},
		{"a calendar's", KindFlight, FromCalendar, 25 * time.Hour, true},
		{"markup's", KindFlight, FromJSONLD, 50 * time.Hour, true},
		{"a train", KindTrain, FromText, 50 * time.Hour, true},
	} {
		f := Fact{Kind: tt.kind, From: tt.from, Segment: &Segment{Type: tt.kind,
			Depart: &Time{Time: dep}, Arrive: &Time{Time: dep.Add(tt.after)}}}
		f.dropImplausible()
		if got := f.Segment.Arrive != nil; got != tt.keepsArr {
			t.Errorf("%s: arrival kept %v, want %v", tt.name, got, tt.keepsArr)
		}
		if f.Segment.Depart == nil {
			t.Errorf("%s: departure dropped", tt.name)
		}
	}
}
