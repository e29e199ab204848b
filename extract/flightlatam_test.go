package extract_test

import (
	"testing"
	"time"
)

// TestLatinAmericanPrintouts: e-tickets of Latin American airlines printed
// to text (issue 46, foreign-22). A clock's half of the day spelt as
// Spanish writes it ("1:20 p. m.") is the afternoon's, never a place
// named "p. m"; a city in capitals is no two codes run together
// ("BUENOS AIRES" is no BUE and NOS, "MEXICO CITY" no MEX and ICO); a
// row of the number, its class and two stamps may end with the baggage's
// column ("Com bagagem"); and a label in parentheses glosses the
// abbreviation before it ("LOC (Localizador da reserva) QX7RTP").
func TestLatinAmericanPrintouts(t *testing.T) {
	sent := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, text string
		want             []flightLeg
		never            []string
		ref              string
	}{
		{"a row ending with the baggage, the locator glossed", "GOL <naoresponda@voegol.example>",
			"Bilhete Eletrônico\nVoo Classe Origem Destino(s) Saída Chegada Bagagem\nPOA - Porto Alegre CGH - São Paulo\nG3 1101 A 14/12/2026 06:10 14/12/2026 07:45 Com bagagem\nSalgado Filho Congonhas\n\nLOC (Localizador da reserva) QX7RTP\n",
			[]flightLeg{{"G3 1101", "POA", "CGH", "2026-12-14 06:10 -0300", "2026-12-14 07:45 -0300"}}, nil, "QX7RTP"},
		{"Spanish halves of the day", "LATAM <info@latam.example>",
			"Código de Reserva: WQ4RTZ\n\nVuelo LA 800\nSantiago (SCL)\n14/12/26\n1:20 p. m.\nAuckland (AKL)\n15/12/26\n6:05 a. m.\n",
			[]flightLeg{{"LA 800", "SCL", "AKL", "2026-12-14 13:20 -0300", "2026-12-15 06:05 +1300"}}, []string{"p. m", "a. m"}, "WQ4RTZ"},
		{"cities in capitals on a one-line ticket", "LATAM <info@latam.example>",
			"Código de Reserva 4QWERT Itinerario N°Vuelo Origen Destino Salida Fecha Horario LA 2604 operado por LANPERU BUENOS AIRES PISTARINI Dom 13-DIC-26 LIMA J CHAVEZ INTL 08:45 Dom 13-DIC-26 11:45 Economy LP 626 LIMA J CHAVEZ INTL Dom 13-DIC-26 MEXICO CITY JUAREZ INTL 13:15 Dom 13-DIC-26 19:00 Economy LA 621 MEXICO CITY JUAREZ INTL Lun 14-DIC-26 SANTIAGO A MERINO BENITEZ 20:20 Mar 15-DIC-26 06:35 Economy",
			nil, []string{"NOS", "ICO", "MER", "INO", "BUE"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts(tt.from, "Su itinerario", tt.text, sent)
			for _, f := range facts {
				s := f.Segment
				if s == nil || s.Type != "flight" {
					continue
				}
				for _, bad := range tt.never {
					if s.From != nil && (s.From.Code == bad || s.From.Name == bad) || s.To != nil && (s.To.Code == bad || s.To.Name == bad) {
						t.Errorf("a flight from %+v to %+v: %q is no airport", s.From, s.To, bad)
					}
				}
				if tt.ref != "" && s.Reservation != tt.ref {
					t.Errorf("reservation %q, want %q", s.Reservation, tt.ref)
				}
			}
			if tt.want != nil {
				checkLegs(t, flightLegs(facts), tt.want)
			}
		})
	}
}
