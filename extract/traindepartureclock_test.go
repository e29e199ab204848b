package extract_test

import (
	"testing"
	"time"
)

// TestDepartureClockOnly: a ticket whose stops are labelled and whose
// departure's label gives its day and clock, with no arrival printed (a
// coach's ticket, a reserved train's), is a leg leaving then; a second
// day, an arrival's clock or no sign of a train or a coach leaves it to
// the other readers, or to none.
func TestDepartureClockOnly(t *testing.T) {
	sent := time.Date(2027, 5, 2, 9, 0, 0, 0, time.UTC)
	type leg struct{ kind, from, to, depart, arrive string }
	for _, tt := range []struct {
		name, from, text string
		want             []leg
	}{
		{"en coach, weekday and twelve-hour clock", "Islandline Coaches <tickets@islandline.example.ph>",
			"Your bus ticket\nReservation no: 14137-82509\n\nFrom: Baler\nTo: Cubao\nDeparture: Wednesday, May 21, 2027 1:00 PM\nSeat: 3B\n",
			[]leg{{"bus", "Baler", "Cubao", "2027-05-21 13:00", ""}}},
		{"de train, um … Uhr", "Nordbahn <tickets@nordbahn.example.de>",
			"Ihre Fahrkarte\nAuftragsnummer: 7KQ2ZM\nVon: Kassel-Wilhelmshöhe\nNach: Göttingen\nAbfahrt: 21.05.2027 um 13:05 Uhr\nZugbindung aufgehoben\n",
			[]leg{{"train", "Kassel-Wilhelmshöhe", "Göttingen", "2027-05-21 13:05", ""}}},
		{"es coach", "Autobuses del Golfo <boletos@autogolfo.example.mx>",
			"Su boleto de autobús\nFolio: 71530854\nOrigen: Poza Rica\nDestino: Guadalajara\nSalida: 29/07/2027 20:15\nAsiento: 21\n",
			[]leg{{"bus", "Poza Rica", "Guadalajara", "2027-07-29 20:15", ""}}},
		{"en coach, the day's label and the time's", "Islandline Coaches <tickets@islandline.example.ph>",
			"Your bus ticket\nReservation no: 14137-82509\nFrom: Baler\nTo: Cubao\nTravel date: 21/05/2027\nTime: 13:00\nSeat: 3B\n",
			[]leg{{"bus", "Baler", "Cubao", "2027-05-21 13:00", ""}}},
		{"es coach, fecha de viaje y hora", "Autobuses del Golfo <boletos@autogolfo.example.mx>",
			"Su boleto de autobús\nFolio: 71530854\nOrigen: Poza Rica\nDestino: Guadalajara\nFecha de viaje: 29/07/2027\nHora: 20:15\nAsiento: 21\n",
			[]leg{{"bus", "Poza Rica", "Guadalajara", "2027-07-29 20:15", ""}}},
		{"a time beside two days", "Lijnspoor <t@lijnspoor.example.be>",
			"Bestelnummer: QW8RT2ZK\nVan : LEUVEN\nNaar : MECHELEN\n2e klas\nHeen: 10/06/2027 Terug: 11/06/2027\nTime: 08:14\n", nil},
		{"a return's day besides", "Islandline Coaches <tickets@islandline.example.ph>",
			"Your bus ticket\nReservation no: 14137-82509\nFrom: Baler\nTo: Cubao\nDeparture: 21/05/2027 13:00\nReturn: 25/05/2027\n", nil},
		{"an insurer's policy", "Cover Co <policies@coverco.example>",
			"Thank you for buying single-trip cover.\n\nPolicy number: TI-448812\nFrom: United Kingdom\nTo: Spain\nDeparture: 14/06/2027 10:00\nPremium: £23.40\n", nil},
		{"a clock beside the day's label", "Islandline Coaches <tickets@islandline.example.ph>",
			"Your bus ticket\nReservation no: 14137-82509\nFrom: Baler\nTo: Cubao\nDeparture: 21/05/2027 13:00 (gate 4 opens 12:30)\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts(tt.from, "Your ticket", tt.text, sent)
			var got []leg
			for _, f := range facts {
				s := f.Segment
				if s == nil || s.From == nil || s.To == nil || s.Depart == nil {
					continue
				}
				l := leg{s.Type, s.From.Name, s.To.Name, s.Depart.Format("2006-01-02 15:04"), ""}
				if s.Arrive != nil {
					l.arrive = s.Arrive.Format("2006-01-02 15:04")
				}
				got = append(got, l)
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
