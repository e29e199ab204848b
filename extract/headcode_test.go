package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestCoachCodeAlone: a coach's ticket that opens with its code alone on
// the first line, no label, is a booked leg named by that code; the same
// ticket without it is a timetable's leg and gives nothing.
func TestCoachCodeAlone(t *testing.T) {
	sent := time.Date(2027, 9, 1, 10, 0, 0, 0, time.UTC)
	body := "1 Vuxen torsdag 9 september 2027\nLinje 850\n07:40 KARLSTAD Busstation -\n10:05 ÖREBRO Resecentrum\nTrevlig resa!\nRes med oss igen från 99 kr.\n"
	for _, tt := range []struct {
		name, text, wantRef string
	}{
		{"code alone", "VQ4T8RN-2\n" + body, "VQ4T8RN-2"},
		{"no code", body, ""},
		{"promotion's code", "HOST2027\n" + body, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts("Västlinjen <biljett@vastlinjen.example.se>", "Din biljett", tt.text, sent)
			if tt.wantRef == "" {
				if len(facts) != 0 {
					t.Fatalf("facts = %+v, want none", facts)
				}
				return
			}
			if len(facts) != 1 || facts[0].Kind != extract.KindBus {
				t.Fatalf("facts = %+v, want one bus", facts)
			}
			s := facts[0].Segment
			if s.Reservation != tt.wantRef || s.Number != "850" || s.From.Name != "KARLSTAD Busstation" || s.To.Name != "ÖREBRO Resecentrum" {
				t.Errorf("segment = %+v", s)
			}
		})
	}
}
