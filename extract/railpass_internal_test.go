package extract

import (
	"testing"
	"time"
)

// TestWithoutRailPasses: a boarding pass's leg that the mail's text gives
// as a train or a bus, by both ends' codes on the same day, is that leg
// (an airline's rail or coach leg), not a flight beside it; a text leg of
// another day or other stations, a flight in the text, or a text leg
// naming one end only leaves the pass's leg.
func TestWithoutRailPasses(t *testing.T) {
	day := time.Date(2027, 5, 14, 0, 0, 0, 0, time.UTC)
	pass := Fact{Kind: KindFlight, From: FromAttachment, boardingPass: true, Segment: &Segment{Type: KindFlight,
		From: &Place{Code: "ZSB"}, To: &Place{Code: "VIE"}, Number: "OS 7141", Depart: &Time{Time: day, DateOnly: true}}}
	leg := func(kind, from, to string, d time.Time) Fact {
		return Fact{Kind: kind, From: FromText, Segment: &Segment{Type: kind, From: &Place{Name: from}, To: &Place{Name: to},
			Depart: &Time{Time: d.Add(6*time.Hour + 58*time.Minute)}}}
	}
	for _, tc := range []struct {
		name string
		body []Fact
		kept bool
	}{
		{"a train by both codes", []Fact{leg(KindTrain, "Salzburg Hbf (ZSB)", "Wien Flughafen (VIE)", day)}, false},
		{"a coach by both codes", []Fact{leg(KindBus, "Salzburg Süd (ZSB)", "Vienna Airport (VIE)", day)}, false},
		{"a train by its places' codes", []Fact{{Kind: KindTrain, From: FromText, Segment: &Segment{Type: KindTrain,
			From: &Place{Code: "ZSB"}, To: &Place{Code: "VIE"}, Depart: &Time{Time: day}}}}, false},
		{"another day", []Fact{leg(KindTrain, "Salzburg Hbf (ZSB)", "Wien Flughafen (VIE)", day.AddDate(0, 0, 1))}, true},
		{"one end only", []Fact{leg(KindTrain, "Salzburg Hbf (ZSB)", "Wien Hbf", day)}, true},
		{"the text's flight", []Fact{leg(KindFlight, "Salzburg Hbf (ZSB)", "Wien Flughafen (VIE)", day)}, true},
		{"no text leg", nil, true},
	} {
		got := withoutRailPasses(tc.body, []Fact{pass})
		if kept := len(got) == 1; kept != tc.kept {
			t.Errorf("%s: pass kept %v, want %v", tc.name, kept, tc.kept)
		}
	}
	// A pass without the barcode's mark (a PDF's printed leg, a rail
	// ticket) is not this rule's.
	other := pass
	other.boardingPass = false
	if got := withoutRailPasses([]Fact{leg(KindTrain, "Salzburg Hbf (ZSB)", "Wien Flughafen (VIE)", day)}, []Fact{other}); len(got) != 1 {
		t.Error("an attachment's leg that no barcode gave was dropped")
	}
}
