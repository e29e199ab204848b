package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestFlightsByParts: airlines' layouts that no reader of a layout knew
// give their flights by their parts (flightparts.go): the number, two
// airports by code or by name wherever their lines put them, the first
// two clocks and the day. Each layout is one no earlier reader took
// (the test failed before flightparts.go); a layout without a booking's
// sign, a gate's "B12" and an airline's name that looks like a code
// before a city give nothing or nothing wrong.
func TestFlightsByParts(t *testing.T) {
	type leg struct{ num, from, to, dep, arr string }
	for _, tt := range []struct {
		name, from, body string
		want             []leg
	}{
		{"es, a route by names over the number, labelled clocks under it, a bag drop's clock", "Vueling <noreply@vueling.com>",
			"Hola MARTA, estos son los detalles de tu reserva Q7WZPK\n\nDe Madrid Barajas (T4) a Bilbao\nVY1431\tvuelo\nSalida:\tsáb 13 mar 2027 07:10\nLlegada:\tsáb 13 mar 2027 08:25\nEntrega de equipaje cierra:\tsáb 13 mar 2027 06:25\n",
			[]leg{{"VY 1431", "MAD", "BIO", "2027-03-13T07:10:00+01:00", "2027-03-13T08:25:00+01:00"}}},
		{"en, a day's heading over clocks over airports, the number last, two legs", "SWISS <noreply@notifications.swiss.com>",
			"SWISS booking code:\nWQ4ZTP\n\nYour flight itinerary\nSat. 6 March 2027: Vienna – Zurich\n07:10 h\nVienna Vienna Intl (VIE)\n08:35 h\nZurich Zurich (ZRH)\nLX 1579\nStatus:\nconfirmed\nSun. 7 March 2027: Zurich – Lisbon\n22:15 h\nZurich Zurich (ZRH)\n00:20 h +1\nLisbon Lisbon (LIS)\nLX 2088\nStatus:\nconfirmed\n",
			[]leg{{"LX 1579", "VIE", "ZRH", "2027-03-06T07:10:00+01:00", "2027-03-06T08:35:00+01:00"}, {"LX 2088", "ZRH", "LIS", "2027-03-07T22:15:00+01:00", "2027-03-08T00:20:00Z"}}},
		{"en, the number over cities on lines of their own, one of two countries' cities", "Eastern Airways <bookings@easternairways.com>",
			"Booking reference: \tZKQW7P\nFlight T3 0405\nSouthampton\nTo:\nAberdeen\nDate:\t14 Mar 27\nDepart:\t07:40\nArrive:\t09:10\n",
			[]leg{{"T3 405", "SOU", "ABZ", "2027-03-14T07:40:00Z", "2027-03-14T09:10:00Z"}}},
		{"en, both airports on one line and both days and clocks on the next", "airBaltic <noreply@airbaltic.com>",
			"Flight confirmation code: TPZW4Q\nFlight details\nOUTBOUND Flight Number: BT 603\nDeparts from: Arrives to:\nRiga International (RIX) Oslo Gardermoen (OSL)\n14/03/2027 09:35 14/03/2027 10:05\n",
			[]leg{{"BT 603", "RIX", "OSL", "2027-03-14T09:35:00+02:00", "2027-03-14T10:05:00+01:00"}}},
		{"en, a card: the departure's clock above the number, the arrival's under it, the cities below, the airline's name between", "Finnair <noreply@finnair.com>",
			"Your boarding pass is attached.\n\nYour flight\n\nAINO VIRTANEN\n\n07:05 - 20 Mar 2027\n\nAY1073\n\n08:45 - 20 Mar 2027\n\nHELSINKI\n\nOperated by\n\nTAP Air Portugal\n\nSTOCKHOLM\n\nBooking code\n\nBoarding\n\nZQ7WKT\n\n06:35\n",
			[]leg{{"AY 1073", "HEL", "ARN", "2027-03-20T07:05:00+02:00", "2027-03-20T08:45:00+01:00"}}},
		{"pt, a receipt's row, both cities run together before the number", "TAP Air Portugal <noreply@flytap.com>",
			"Recibo do bilhete eletrónico\nReserva / Booking Reference: W7QZKP\nDe Para Voo Classe Data Partida Chegada\nLISBOA PORTO TP1940 K 12Mar 07:00 08:00 Ok\nEmitido 10Jan27\n",
			[]leg{{"TP 1940", "LIS", "OPO", "2027-03-12T07:00:00Z", "2027-03-12T08:00:00Z"}}},
		{"en, a printout's row, codes glued to their cities and to each other", "Qantas <itinerary@qantas.example>",
			"Your flight itinerary\nBooking reference PQZ7WT\nQF 401 MELMELBOURNE, AUSTRALIA SYDSYDNEY, AUSTRALIA 06:00 AM, Mar 14 07:25 AM, Mar 14\nQF402 SYDMEL 6:30 PM, Mar 16 8:00 PM, Mar 16\n",
			[]leg{{"QF 401", "MEL", "SYD", "2027-03-14T06:00:00+11:00", "2027-03-14T07:25:00+11:00"}, {"QF 402", "SYD", "MEL", "2027-03-16T18:30:00+11:00", "2027-03-16T20:00:00+11:00"}}},
		{"en, a text flattened to one line, each flight's clock before its day", "Agency <trips@agency.example>",
			"Aer Lingus Confirmation Number: WQZ4TP YOUR ITINERARY Departure Aer Lingus Flight 123 6:10am Sun. Mar 14 Dublin (DUB) 7:35am Sun. Mar 14 London Heathrow (LHR) Aer Lingus Flight 176 6:40pm Wed. Mar 17 London Heathrow (LHR) 8:00pm Wed. Mar 17 Dublin (DUB) Have a great trip, all times are local times at each airport on the day shown here",
			[]leg{{"EI 123", "DUB", "LHR", "2027-03-14T06:10:00Z", "2027-03-14T07:35:00Z"}, {"EI 176", "LHR", "DUB", "2027-03-17T18:40:00Z", "2027-03-17T20:00:00Z"}}},
		{"a hotel's text flattened to one line, a cancellation's \"CXL BY 07/07/24\": no flight", "Hotel <reservations@hotel.example>",
			"Please do not respond to this email. RESERVATION Your reservation number is: 231983519 ARRIVING on 09-Mar-2027 DEPARTING on 10-Mar-2027 TOTAL NIGHTS: 1 ROOM RATE: $305 USD DEPOSIT POLICY: NO DPST IS REQUIRED CANCEL POLICY: CXL BY 07/03/27 4PM CANCEL BY: CXL BY 07/03/27 4PM Check-in 3:00 PM Check-out 11:00 AM Tel: ++1 312 565 0565",
			nil},
		{"the same heading and clocks in a newsletter, no booking: none", "SWISS <news@notifications.swiss.com>",
			"Fly this spring\nSat. 6 March 2027: Vienna – Zurich\n07:10 h\nVienna Vienna Intl (VIE)\n08:35 h\nZurich Zurich (ZRH)\nLX 1579\nBook now\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			for _, f := range mailFacts(tt.from, "Your trip", tt.body, time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC)) {
				if s := f.Segment; f.Kind == extract.KindFlight && s != nil && s.From != nil && s.To != nil && s.Depart != nil && s.Arrive != nil {
					got = append(got, leg{s.Number, s.From.Code, s.To.Code, s.Depart.Format(time.RFC3339), s.Arrive.Format(time.RFC3339)})
				} else if f.Segment != nil && f.Kind != extract.KindHotel {
					t.Errorf("a partial leg or a ground one: %s %+v", f.Kind, *f.Segment)
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
