package extract_test

import (
	"testing"
	"time"
)

// TestStationNameWithoutClass: a row that prints the ticket's class after
// the train's number ("TGV 6687 1e classe") names its station without the
// class, in the languages' words for it.
func TestStationNameWithoutClass(t *testing.T) {
	sent := time.Date(2027, 5, 3, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, text, from string
	}{
		{"fr", "Vendredi 4 Juin 2027\nAller\t07h04\tMARSEILLE ST CHARLES\tTGV\t6102\t2e classe\n10h21\tPARIS GARE DE LYON\nRéférence de dossier : QPLXEA\n", "MARSEILLE ST CHARLES"},
		{"de", "Freitag, 4. Juni 2027\nHinfahrt\t08:12\tKöln Hbf\tICE\t512\t2. Klasse\n10:40\tFrankfurt(Main)Hbf\nAuftragsnummer: QX4P7M\n", "Köln Hbf"},
		{"en", "Friday 4 June 2027\nOutbound\t08:12\tBrussels-Midi\tICE\t15\tFirst Class\n11:10\tFrankfurt(Main)Hbf\nBooking reference: QX4P7MZ\n", "Brussels-Midi"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range mailFacts("Rail <tickets@rail.example>", "Your tickets", tt.text, sent) {
				if s := f.Segment; s != nil && s.Type == "train" && s.From != nil {
					got = append(got, s.From.Name)
				}
			}
			if len(got) != 1 || got[0] != tt.from {
				t.Errorf("from = %q, want [%q]", got, tt.from)
			}
		})
	}
}
