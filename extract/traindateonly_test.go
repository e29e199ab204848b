package extract_test

import (
	"testing"
	"time"
)

// TestDateOnlyJourney: a rail booking whose stops are labelled and whose
// days follow a journey's label, no clock anywhere, gives a leg a day, its
// departure the day alone (the return's the other way); a mail that only
// looks like one gives none.
func TestDateOnlyJourney(t *testing.T) {
	sent := time.Date(2027, 4, 2, 9, 0, 0, 0, time.UTC)
	type leg struct{ from, to, day string }
	for _, tt := range []struct {
		name, from, text string
		want             []leg
	}{
		{"nl, heen en terug", "Lijnspoor <t@lijnspoor.example.be>",
			"Bestelnummer: QW8RT2ZK\n\nVan : LEUVEN\n\nNaar : MECHELEN\n\n2e klas\n\nHeen: 10/04/2027 Terug: 11/04/2027\n",
			[]leg{{"LEUVEN", "MECHELEN", "2027-04-10"}, {"MECHELEN", "LEUVEN", "2027-04-11"}}},
		{"it, andata", "Treni Laziali <t@trenilaziali.example.it>",
			"Codice prenotazione: ZK7W2QRT\nOrigine: Roma Tiburtina\nDestinazione: Fiumicino Aeroporto\nTreno regionale, valido tutto il giorno\nAndata: 20/04/2027\n",
			[]leg{{"Roma Tiburtina", "Fiumicino Aeroporto", "2027-04-20"}}},
		{"sv, resdag", "Mälartåg <t@malartag.example.se>",
			"Bokningsnummer: TR4K8QWZ\nFrån: Västerås C\nTill: Uppsala C\nResdag: 2027-04-22\nGäller alla tåg under dagen.\n",
			[]leg{{"Västerås C", "Uppsala C", "2027-04-22"}}},
		{"a clock: another reader's leg or none", "Lijnspoor <t@lijnspoor.example.be>",
			"Bestelnummer: QW8RT2ZK\nVan : LEUVEN\nNaar : MECHELEN\nHeen: 10/04/2027 om 08:14\n", nil},
		{"no journey's day", "Lijnspoor <t@lijnspoor.example.be>",
			"Bestelnummer: QW8RT2ZK\nVan : LEUVEN\nNaar : MECHELEN\nBesteld op: 10/04/2027\n", nil},
		// Labelled ends and a travel date's label with no sign of a
		// train (railEvidence): an insurer's policy, a bank's standing
		// order, a removal firm's quote, a car-share's offer.
		{"travel insurance policy", "Cover Co <policies@coverco.example>",
			"Thank you for buying single-trip cover.\n\nPolicy number: TI-448812\nFrom: United Kingdom\nTo: Spain\nTravel date: 14/03/2027\nPremium: £23.40\n", nil},
		{"bank's standing order", "My Bank <noreply@mybank.example>",
			"Your standing order has been set up.\nFrom: Current Account\nTo: Savings Account\nOutbound: 13/02/2027\nAmount: £200.00\n", nil},
		{"nl removal quote", "Verhuis BV <info@verhuisbv.example>",
			"Beste klant,\n\nHierbij de offerte voor uw verhuizing.\nVan: Utrecht\nNaar: Amsterdam\nReisdatum: 13/02/2027\nPrijs: € 650\n", nil},
		{"de car-share offer", "Mitfahr <info@mitfahr.example>",
			"Jemand bietet eine Fahrt an, die zu deiner Suche passt:\nVon: Berlin\nNach: Hamburg\nHinfahrt: 13.02.2027\nPreis: 15 €\n", nil},
		{"a forwarded header", "Anna Berg <anna@example.com>",
			"---------- Forwarded message ---------\nFrom: Ben Holt <ben@example.org>\nTo: Anna Berg <anna@example.com>\nReturn: 12/04/2027\nBooking reference: QW8RT2ZK\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts(tt.from, "Your ticket", tt.text, sent)
			var got []leg
			for _, f := range facts {
				s := f.Segment
				if s == nil || s.From == nil || s.To == nil || s.Depart == nil {
					continue
				}
				if !s.Depart.DateOnly {
					t.Errorf("depart %v has a clock", s.Depart)
				}
				got = append(got, leg{s.From.Name, s.To.Name, s.Depart.Format("2006-01-02")})
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
