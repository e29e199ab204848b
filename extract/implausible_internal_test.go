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

// TestSelfLeg: a leg read from text that arrives where it leaves is a
// misread; one whose ends differ, or from markup, is kept.
func TestSelfLeg(t *testing.T) {
	for _, tt := range []struct {
		name    string
		from    string
		a, b    Place
		selfLeg bool
	}{
		{"same airport", FromText, Place{Name: "Napoli", Code: "NAP"}, Place{Name: "Napoli", Code: "NAP"}, true},
		{"same airport, forwarded", FromForwarded, Place{Code: "nap"}, Place{Code: "NAP"}, true},
		{"same station", FromText, Place{Name: "Mainz Hbf"}, Place{Name: "mainz hbf"}, true},
		{"two airports", FromText, Place{Name: "Milano Linate", Code: "LIN"}, Place{Name: "Napoli", Code: "NAP"}, false},
		{"one code only", FromText, Place{Code: "LIN"}, Place{Name: "Linate"}, false},
		{"two stations", FromText, Place{Name: "Koblenz Hbf"}, Place{Name: "Mainz Hbf"}, false},
		{"markup's", FromJSONLD, Place{Code: "NAP"}, Place{Code: "NAP"}, false},
	} {
		a, b := tt.a, tt.b
		f := Fact{Kind: KindFlight, From: tt.from, Segment: &Segment{Type: KindFlight, From: &a, To: &b}}
		if got := f.selfLeg(); got != tt.selfLeg {
			t.Errorf("%s: selfLeg %v, want %v", tt.name, got, tt.selfLeg)
		}
	}
}
