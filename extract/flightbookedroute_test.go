package extract_test

import (
	"fmt"
	"testing"
	"time"
)

// A booking's one leg by what its whole text names once (issue 46,
// foreign-34t's scrambled e-ticket; flightbookedroute.go), proved with
// other airlines, cities and words than its mail: a PDF's table whose
// cells came out scrambled, the flight's digits printed without their
// designator, the route on a fare's line ("Tramo: AQP-LIM"), the day in
// the row, the two clocks on one line with a weekday's stub between them.

// scrambledTicket is a Peruvian e-ticket's text as a PDF gives it: the
// destination's cell ("Lima,LIM,Jorge Chávez") wrapped around the row,
// the clocks' line over it, the year under it.
const scrambledTicket = `Código de reserva: KQZRTM

Pasajero: QUISPE MAMANI/ROSA
Fecha de emisión: 02/05/2027

Itinerario
Vuelo Origen Destino Salida Llegada Clase
7:15 a.m. Vier. 8:45 a.m.

Lima,LIM,Jorge
2210 Arequipa,AQP,Rodriguez Ballon 14 Mayo Vier. 14 Y
Chávez
2027 Mayo 2027

Detalle de pago
Tramo: AQP-LIM
Tarifa S/ 389.00
`

// TestBookedRouteLeg: the leg, its times by its two clocks' line.
func TestBookedRouteLeg(t *testing.T) {
	for _, tt := range []struct {
		name, from, subject, text string
		sent                      time.Time
		want                      []flightLeg
	}{
		{"a scrambled table, es", "Aerolíneas Andinas <reservas@andinas.example>", "Su boleto electrónico - KQZRTM",
			scrambledTicket, time.Date(2027, 5, 2, 9, 0, 0, 0, time.UTC),
			[]flightLeg{{"", "AQP", "LIM", "2027-05-14 07:15 -0500", "2027-05-14 08:45 -0500"}}},
		{"a card's cells, en", "Northern Wings <bookings@northernwings.example>", "Your e-ticket",
			"Booking reference: XJ4PLM\n\nYour flight\n\n6:40 am Tue 7:45 am\nNewcastle,NCL,Newcastle International\n11 May 2027\nBirmingham,BHX,Birmingham Airport\n\nFare breakdown\nSector NCL - BHX\nTotal GBP 84.20\n",
			time.Date(2027, 4, 20, 9, 0, 0, 0, time.UTC),
			[]flightLeg{{"", "NCL", "BHX", "2027-05-11 06:40 +0100", "2027-05-11 07:45 +0100"}}},
		{"landing after midnight, pt", "Voe Norte <reservas@voenorte.example>", "Bilhete eletrônico",
			"Localizador: PWQ7ZT\n\n23:10 Sex. 00:35\nVoo Origem Destino\n4410 Manaus,MAO,Eduardo Gomes Belém,BEL,Val de Cans 18 Junho 2027\n\nTrecho: MAO-BEL\n",
			time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC),
			[]flightLeg{{"", "MAO", "BEL", "2027-06-18 23:10 -0400", "2027-06-19 00:35 -0300"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts(tt.from, tt.subject, tt.text, tt.sent)
			checkLegs(t, flightLegs(facts), tt.want)
			for _, f := range facts {
				if s := f.Segment; s != nil && s.Reservation == "" {
					t.Errorf("leg %+v without its booking's code", s)
				}
			}
		})
	}
}

// TestBookedRouteDay: without a sure pair of clocks (a desk's hour
// beside them, or a word between them that is no weekday's: office
// hours' range) the leg has its route and its day alone.
func TestBookedRouteDay(t *testing.T) {
	row := "Vuelo Origen Destino Salida Llegada\n%s\n2210 Arequipa,AQP,Rodriguez Ballon 14 Mayo Vier. 14 Y\n2027 Mayo 2027\n\nTramo: AQP-LIM\n"
	for _, tt := range []struct{ name, text string }{
		{"a desk's hour", "Código de reserva: RTZQWM\n\nPresentarse en el mostrador a las 5:30 a.m.\n\n" + fmt.Sprintf(row, "7:15 a.m. Vier. 8:45 a.m.")},
		{"a range of hours", "Código de reserva: RTZQWM\n\n" + fmt.Sprintf(row, "7:15 a.m. hasta 8:45 a.m.")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts("Aerolíneas Andinas <reservas@andinas.example>", "Su boleto", tt.text, time.Date(2027, 5, 2, 9, 0, 0, 0, time.UTC))
			if len(facts) != 1 || facts[0].Segment == nil {
				t.Fatalf("facts = %+v, want one leg", facts)
			}
			s := facts[0].Segment
			if s.Type != "flight" || s.From == nil || s.To == nil || s.From.Code != "AQP" || s.To.Code != "LIM" || s.Reservation != "RTZQWM" {
				t.Fatalf("leg %+v, want AQP to LIM under RTZQWM", s)
			}
			if s.Depart == nil || !s.Depart.DateOnly || s.Depart.Format("2006-01-02") != "2027-05-14" || s.Arrive != nil {
				t.Errorf("depart %v arrive %v, want the day 2027-05-14 alone", s.Depart, s.Arrive)
			}
		})
	}
}

// TestBookedRouteNone: what the text does not name once is no leg: no
// booking's code, two routes, a third airport, a route on a fare's line
// with its price, no day from the mail's on, two days.
func TestBookedRouteNone(t *testing.T) {
	sent := time.Date(2027, 5, 2, 9, 0, 0, 0, time.UTC)
	row := "Vuelo Origen Destino Salida Llegada\n7:15 a.m. Vier. 8:45 a.m.\n2210 Arequipa,AQP,Rodriguez Ballon 14 Mayo Vier. 14 Y\n2027 Mayo 2027\n"
	// The control: the same row under its code and one route is a leg.
	control := "Código de reserva: KQZRTM\n\n" + row + "\nTramo: AQP-LIM\n"
	if got := flightLegs(mailFacts("Aerolíneas Andinas <reservas@andinas.example>", "Su boleto electrónico", control, sent)); len(got) != 1 {
		t.Fatalf("control: legs %+v, want one: the cases prove nothing", got)
	}
	for _, tt := range []struct{ name, text string }{
		{"no booking's code", "Su boleto electrónico\n\n" + row + "\nTramo: AQP-LIM\n"},
		{"two routes", "Código de reserva: KQZRTM\n\n" + row + "\nTramo: AQP-LIM\nTramo: LIM-AQP\n"},
		{"a third airport", "Código de reserva: KQZRTM\n\n" + row + "\nTramo: AQP-LIM\nConexión en Cusco (CUZ)\n"},
		{"a third airport in a cell", "Código de reserva: KQZRTM\n\n" + row + "Cusco,CUZ,Velasco Astete\n\nTramo: AQP-LIM\n"},
		{"a fare's line", "Código de reserva: KQZRTM\n\nOferta: AQP-LIM desde S/ 89\n" + row},
		{"a day before the mail", "Código de reserva: KQZRTM\n\nVuelo Origen Destino Salida Llegada\n7:15 a.m. Vier. 8:45 a.m.\n2210 Arequipa,AQP,Rodriguez Ballon 14 Abril Vier. 14 Y\n2027 Abril 2027\n\nTramo: AQP-LIM\n"},
		{"two days", "Código de reserva: KQZRTM\n\n" + row + "\nCambio sin costo hasta el 20 de mayo de 2027\nTramo: AQP-LIM\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range mailFacts("Aerolíneas Andinas <reservas@andinas.example>", "Su boleto electrónico", tt.text, sent) {
				if f.Segment != nil {
					t.Errorf("fact %s %+v, want none", f.Kind, f.Segment)
				}
			}
		})
	}
}
