package extract_test

import (
	"testing"
	"time"
)

// TestRunTogetherRouteOverNumber: a card whose route cells flatten onto
// one line, the two airports' full names run together with nothing
// between them, perhaps the flight column's heading at the line's end or
// start (the number's own label, over its cell); the number under it
// after the airline's brand word, a row of departure and arrival
// headings, and a row of the two days and clocks (issue 46, foreign-34).
// A line of names that cut into no two airports is no route.
func TestRunTogetherRouteOverNumber(t *testing.T) {
	sent := time.Date(2027, 2, 20, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, text string
		want             []flightLeg
	}{
		{"English, the heading after the names", "Aer Lingus <noreply@aerlingus.example>",
			"PURCHASE DETAILS\nManchester Airport Dublin Airport FLIGHT\nAer Lingus EI 203\nDEPARTURE (local time) ARRIVAL (local time) Operated by\nAer Lingus Regional\n12-03-2027 07:10 12-03-2027 08:15 Ltd\nPAYMENT DETAILS\nTOTAL 116.08 EUR\n",
			[]flightLeg{{"EI 203", "MAN", "DUB", "2027-03-12 07:10 +0000", "2027-03-12 08:15 +0000"}}},
		{"German, the heading before the names", "Eurowings <noreply@eurowings.example>",
			"Ihre Buchung\nFlug Flughafen Hamburg Flughafen Stuttgart\nEurowings EW 2047\nABFLUG (Ortszeit) ANKUNFT (Ortszeit)\n14.05.2027 06:45 14.05.2027 07:55\n",
			[]flightLeg{{"EW 2047", "HAM", "STR", "2027-05-14 06:45 +0200", "2027-05-14 07:55 +0200"}}},
		{"French, names with their articles and a hyphen", "Volotea <noreply@volotea.example>",
			"DÉTAILS DE L'ACHAT\nAéroport de Nantes Atlantique Aéroport de Toulouse-Blagnac VOL\nVolotea V7 2210\nDÉPART (heure locale) ARRIVÉE (heure locale) Opéré par\nVolotea\n03-07-2027 10:05 03-07-2027 11:20 S.L.\n",
			[]flightLeg{{"V7 2210", "NTE", "TLS", "2027-07-03 10:05 +0200", "2027-07-03 11:20 +0200"}}},
		{"names that are no two airports", "Aer Lingus <noreply@aerlingus.example>",
			"PURCHASE DETAILS\nThank you for choosing Aer Lingus FLIGHT\nAer Lingus EI 203\nDEPARTURE (local time) ARRIVAL (local time) Operated by\nAer Lingus Regional\n12-03-2027 07:10 12-03-2027 08:15 Ltd\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkLegs(t, flightLegs(mailFacts(tt.from, "Your purchase", tt.text, sent)), tt.want)
		})
	}
}

// TestLabelRowBeforeValueRow: a booking's label opens a row of labels
// run together on one line with the row of their values, in the same
// order (a card's two rows flattened): the booking's code is the first
// value after the labels, not the next label's first word. A value
// that is no code, or a row with no second value, gives none.
func TestLabelRowBeforeValueRow(t *testing.T) {
	sent := time.Date(2027, 2, 20, 9, 0, 0, 0, time.UTC)
	leg := "\nFlight BA 456 London Heathrow (LHR) → Madrid (MAD)\nDeparture: 21 Mar 2027 13:25\nArrival: 21 Mar 2027 16:30\n"
	for _, tt := range []struct {
		name, text, want string
	}{
		{"English, a status column between", "E-TICKET Company: Example Travel Ltd VAT: BOOKING CODE TICKET NUMBER STATUS QX7RTA 1252212950404 CONFIRMED Phone +44 20 7946 0000" + leg, "QX7RTA"},
		{"Portuguese, a short word inside the next label", "BILHETE ELETRÔNICO Código da reserva Número do bilhete ZK4PLM 0472100123456 Telefone +351 21 000 0000" + leg, "ZK4PLM"},
		{"a value that is no code", "E-TICKET BOOKING CODE TICKET NUMBER WILL FOLLOW BY EMAIL IN 24 HOURS" + leg, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts("British Airways <noreply@ba.example>", "Your e-ticket", tt.text, sent)
			n := 0
			for _, f := range facts {
				if s := f.Segment; s != nil && s.Type == "flight" {
					n++
					if s.Reservation != tt.want {
						t.Errorf("flight %s: reservation %q, want %q", s.Number, s.Reservation, tt.want)
					}
				}
			}
			if n != 1 {
				t.Errorf("%d flights, want 1", n)
			}
		})
	}
}
