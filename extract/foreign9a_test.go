package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestIberoAmericanAirlines: Spanish- and Portuguese-language airlines'
// confirmations (the class foreign-9 showed, issue 46, xf9a), in other
// airlines' words: each stop under "Salida:" / "Llegada:" as its code
// before its city over its clock, the leg's days a range over two lines;
// a card of a city, its code and "Hora de salida: 16:39" under "Fecha:";
// a flight a line with each city's clock in parentheses; a booking code
// qualified by the airline's name ("LOCALIZADOR GOL:") or a word in
// brackets; the digits of "Voo: 1890" in the airline's own mail. A fare
// promotion laid out as the rows, a stop's code before a city of another
// airport, and a check-in reminder that states no arrival give none.
func TestIberoAmericanAirlines(t *testing.T) {
	type leg struct{ num, from, to, dep, arr, ref string }
	date := time.Date(2026, 7, 15, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, subject, body string
		want                      []leg
	}{
		{"es, codes before cities under their labels, a range of days without a year", "LATAM Airlines <info@latam.example>", "Confirmación de compra",
			"Código de reserva\n\nQWZ7KP\n\nNúmero de vuelo\n\nLA 2371\n\nConfirmado\n\nsábado, 17 octubre -\nsábado, 17 octubre\n\nSalida:\n\nSCL SANTIAGO, CHILE\n\n08:40\n\nTERMINAL NACIONAL\n\nLlegada:\n\nLIM LIMA, PERU\n\n10:55\n",
			[]leg{{"LA 2371", "SCL", "LIM", "2026-10-17T08:40:00-03:00", "2026-10-17T10:55:00-05:00", "QWZ7KP"}}},
		{"es, overnight, the arrival's day the range's second", "Aerolíneas Argentinas <avisos@aerolineas.example>", "Confirmación de compra",
			"Código de Reserva\n\nPQ7WZT\n\nNúmero de vuelo\n\nAR 1141\n\nmartes, 03 noviembre -\nmiércoles, 04 noviembre\n\nSalida:\n\nFCO ROMA, ITALIA\n\n21:15\n\nLlegada:\n\nEZE AEROPUERTO INTERNACIONAL DE EZEIZA\n\n05:50\n +1 día\n",
			[]leg{{"AR 1141", "FCO", "EZE", "2026-11-03T21:15:00+01:00", "2026-11-04T05:50:00-03:00", "PQ7WZT"}}},
		{"pt, a card of city, code and labelled clock under \"Data:\"", "Azul Linhas Aéreas <naoresponda@voeazul.example>", "Confirmação da reserva ZTQ4WK",
			"Confirmação da reserva ZTQ4WK\n\nDETALHES DA VIAGEM Data: 12/11/2026\n\nCampinas\n\nVCP\n\nHorário de partida:07:15\n\nRecife\n\nREC\n\nHorário de chegada:10:20\n\nVoo AD 4123 - Operado por Azul\n",
			[]leg{{"AD 4123", "VCP", "REC", "2026-11-12T07:15:00-03:00", "2026-11-12T10:20:00-03:00", "ZTQ4WK"}}},
		{"es, a flight a line, cities' clocks in brackets, a connection", "Avianca <reservas@avianca.example>", "Confirmación de tu reserva KX7QPM",
			"Reserva confirmada KX7QPM Tus vuelos Bogotá - Cusco 22/11/26 | Bogotá (06:10) - Lima (09:05) | AV0041\n22/11/26 | Lima (10:40) - Cusco (12:05) | AV0813\n",
			[]leg{{"AV 41", "BOG", "LIM", "2026-11-22T06:10:00-05:00", "2026-11-22T09:05:00-05:00", "KX7QPM"}, {"AV 813", "LIM", "CUZ", "2026-11-22T10:40:00-05:00", "2026-11-22T12:05:00-05:00", "KX7QPM"}}},
		{"pt, the code after the airline's name, the digits in its mail", "GOL Linhas Aéreas <naoresponda@voegol.example>", "Confirmação de compra",
			"LOCALIZADOR GOL: WQ7TZP\nData:22/10/2026\nVoo:1452\nOrigem:CGH\nDestino:POA\nPartida:09:10\nChegada:10:45\n",
			[]leg{{"G3 1452", "CGH", "POA", "2026-10-22T09:10:00-03:00", "2026-10-22T10:45:00-03:00", "WQ7TZP"}}},
		{"es, a word in brackets after the label", "Aeroméxico <confirmaciones@aeromexico.example>", "Tu itinerario",
			"Código de reserva (localizador): MXQ4TZ\n\nVuelo AM 520\n\nviernes, 18 de diciembre de 2026\n\nSale:\n\nMEX CIUDAD DE MÉXICO\n\n07:00\n\nLlega:\n\nCUN CANCÚN\n\n09:35\n",
			[]leg{{"AM 520", "MEX", "CUN", "2026-12-18T07:00:00-06:00", "2026-12-18T09:35:00-05:00", "MXQ4TZ"}}},
		{"a fare promotion's rows: none", "Vueling <ofertas@news.vueling.example>", "Vuelos desde 49 €",
			"¡Vuelos desde 49 €! Reserva ahora.\n15/10/26 | Barcelona (07:05) - Roma (09:00) | VY6102 desde 49 €\nSi no deseas recibir más correos, darse de baja aquí.\n",
			nil},
		{"a code before a city of another airport: none", "LATAM Airlines <info@latam.example>", "Confirmación de compra",
			"Código de reserva\n\nQWZ7KP\n\nVuelo LA 600\n\nsábado, 17 octubre 2026\n\nSalida:\n\nLOS ANGELES, CA\n\n08:40\n\nLlegada:\n\nLIM LIMA, PERU\n\n18:55\n",
			nil},
		{"a check-in reminder with no arrival: none", "Copa Airlines <notificaciones@copaair.example>", "Ya puedes hacer check-in",
			"¡Ya puedes hacer check-in para tu vuelo!\n\nVuelo CM 204\njueves, 12 de noviembre de 2026\nSale: Ciudad de Panamá (PTY) 10:05\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			for _, f := range mailFacts(tt.from, tt.subject, tt.body, date) {
				if s := f.Segment; f.Kind == extract.KindFlight && s != nil && s.From != nil && s.To != nil && s.Depart != nil && s.Arrive != nil {
					got = append(got, leg{s.Number, s.From.Code, s.To.Code, s.Depart.Format(time.RFC3339), s.Arrive.Format(time.RFC3339), s.Reservation})
				}
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
