package extract_test

import (
	"testing"
	"time"
)

// TestCodeNameDayClockCard: an airline's card that prints each airport's
// code, its name under it and the day with the clock under that, the
// flight's number between the two stops, is a leg; a card whose day line
// holds more than a day and a clock is not read so.
func TestCodeNameDayClockCard(t *testing.T) {
	sent := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, text string
		want             []flightLeg
	}{
		{"pt, the number between the stops", "Céu Azul Linhas <noreply@ceuazul.example.com.br>",
			"Seu código de reserva é:\n QPLZ7W\nVoos\n Voo para\n Recife, Guararapes International\n GRU\n São Paulo, Guarulhos\n 12/03/2027 - 07:05\n Voo G3 1450\n REC\n Recife, Guararapes International\n 12/03/2027 - 10:15\n",
			[]flightLeg{{"G3 1450", "GRU", "REC", "2027-03-12 07:05 -0300", "2027-03-12 10:15 -0300"}}},
		{"en, a day's words", "Northwind Air <trips@northwind.example>",
			"Booking code: ZK4P2Q\nYour flight\n SEA\n Seattle-Tacoma\n Fri 12 Mar 2027, 08:40\n Flight AS 330\n SFO\n San Francisco International\n Fri 12 Mar 2027, 10:55\n",
			[]flightLeg{{"AS 330", "SEA", "SFO", "2027-03-12 08:40 -0800", "2027-03-12 10:55 -0800"}}},
		{"a line of more than a day and a clock", "Northwind Air <trips@northwind.example>",
			"Booking code: ZK4P2Q\nYour flight\n SEA\n Seattle-Tacoma\n Fri 12 Mar 2027, 08:40 boarding closes 08:20\n Flight AS 330\n SFO\n San Francisco International\n Fri 12 Mar 2027, 10:55 baggage belt 4\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkLegs(t, flightLegs(mailFacts(tt.from, "Your booking", tt.text, sent)), tt.want)
		})
	}
}
