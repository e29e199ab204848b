package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestBoardingCardNoTrain: an airline's boarding card whose flight the
// flight rules cannot read (the flight's number alone between two
// "clock - date" lines, over the cities by name, the passenger's name
// above) is no train, in any language: the ground rules read its clocks
// and whatever lines stood by them as a train's stops. A rail leg
// numbered as a rail product in an airline's mail (Rail&Fly) is still
// read.
func TestBoardingCardNoTrain(t *testing.T) {
	date := time.Date(2026, 5, 9, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, subject, body string
		trains                    int
	}{
		{"en, name over the card", "KLM <noreply@klm.example>", "Your boarding pass",
			"Your boarding pass\n\nGo to the gate with your boarding pass.\n\nYour flight\n\nJAN DE VRIES\n\n06:50 - 14 May 2026\n\nKL1187\n\n08:25 - 14 May 2026\n\nAMSTERDAM\n\nOperated by KLM\n\nBERGEN\n\nBooking code\n\nKX7QPM\n\nConnecting to a train? NS trains leave from the airport's station.\n", 0},
		{"it, carta d'imbarco", "Aegean Airlines <noreply@aegeanair.example>", "La sua carta d'imbarco",
			"La sua carta d'imbarco\n\nSi presenti al gate con la carta d'imbarco.\n\nIl suo volo\n\nGIULIA ROSSI\n\n11:05 - 10 May 2026\n\nA3651\n\n14:20 - 10 May 2026\n\nROMA\n\nOperato da Aegean Airlines\n\nATENE\n\nCodice di prenotazione\n\nTQ4ZMW\n\nPer il treno dall'aeroporto consulti il sito della stazione.\n", 0},
		{"de, a spaced designator", "Condor <noreply@condor.example>", "Ihre Bordkarte",
			"Ihre Bordkarte\n\nBitte gehen Sie mit Ihrer Bordkarte direkt zum Gate. Flughafen: Terminal 1.\n\nIhr Flug\n\nANNA SCHMIDT\n\n09:15 - 20 Jun 2026\n\nDE 1402\n\n13:05 - 20 Jun 2026\n\nFRANKFURT\n\nDurchgeführt von Condor\n\nHERAKLION\n\nBuchungscode\n\nW7QKZP\n\nMit dem Zug zum Flughafen: Rail&Fly.\n", 0},
		{"de, Rail&Fly: a rail product's number is a train", "Condor <noreply@condor.example>", "Ihre Rail&Fly-Fahrkarte zum Flug",
			"Ihre Rail&Fly-Fahrkarte zum Flughafen\n\nIhr Flug, Ihre Bordkarte, Gepäck und Check-in am Flughafen: alles in Ihrer Buchung W7QKZP.\n\nIhre Zugfahrt zum Flughafen\n\n20.06.2026\nab 05:58 Köln Hbf\nIC 2023\nan 07:03 Frankfurt(M) Flughafen Fernbf\n", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			for _, f := range mailFacts(tt.from, tt.subject, tt.body, date) {
				if f.Kind == extract.KindTrain {
					n++
					if tt.trains == 0 {
						t.Errorf("train %s from %s", f.Segment.Number, f.Segment.From.Name)
					}
				}
			}
			if n != tt.trains {
				t.Errorf("%d trains, want %d", n, tt.trains)
			}
		})
	}
}
