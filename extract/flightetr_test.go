package extract_test

import (
	"testing"
	"time"
)

// TestETicketReceiptRows: an Amadeus electronic ticket receipt (issue 46,
// foreign-23: the airlines' "ELECTRONIC TICKET RECEIPT" as its PDF's
// text) prints each leg as a row of the two airports' names run
// together, the number, the departure's and the arrival's clocks and the
// check-in desk's close, under "From To Flight Departure Arrival Last
// check-in", and the two days on the line under it beside the terminals,
// as "03Mar2027". A name may run over onto that line, blank lines
// between, and end in a word ("INTL") that reads with either airport.
func TestETicketReceiptRows(t *testing.T) {
	sent := time.Date(2027, 2, 1, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, from, text string
		want             []flightLeg
	}{
		{"two legs, the second arriving the next day", "Iberia <etkt@iberia.example>",
			"Pasajero / Passenger: GARCIA LOPEZ/ANA MRS (ADT)\n\nLocalizador / Booking ref: QWX7RT\nNúmero de billete / Ticket number: 075 2190011223\nFecha / Date: 01Feb2027\n_\n\n" +
				"RECIBO DE BILLETE ELECTRÓNICO / ELECTRONIC TICKET RECEIPT\n_\nDe A Vuelo Salida Llegada Cierre facturación /\nFrom To Flight Departure Arrival Last check-in\n\n" +
				"MADRID BARAJAS FRANKFURT INTL IB3120 07:10 09:40 06:25\nTerminal / Terminal: 4 Terminal / Terminal: 1 03Mar2027 03Mar2027\n\n" +
				"Clase Operado por\nClass: ECONOMY, Q Operated by: IBERIA\nEquipaje (4): 1PC Booking status (1): OK\nDuración / Duration: 02:30\n_\n" +
				"FRANKFURT INTL MADRID BARAJAS IB3121 22:15 00:55 21:30\nTerminal / Terminal: 1 Terminal / Terminal: 4 10Mar2027 11Mar2027\n\n" +
				"Class: ECONOMY, Q Operated by: IBERIA\nDuración / Duration: 02:40\n",
			[]flightLeg{
				{"IB 3120", "MAD", "FRA", "2027-03-03 07:10 +0100", "2027-03-03 09:40 +0100"},
				{"IB 3121", "FRA", "MAD", "2027-03-10 22:15 +0100", "2027-03-11 00:55 +0100"},
			}},
		{"a name run over onto the days' line, blank lines between", "Air Europa <etkt@aireuropa.example>",
			"Booking ref: ZT4KQP\n\nELECTRONIC TICKET RECEIPT\n\nFrom To Flight Departure Arrival Last\ncheck-in\n\n" +
				"PUNTA CANA MADRID BARAJAS UX88 21:35 11:55 19:35\n\n\nINTERNATIONAL Terminal / Terminal: 1 14Apr2027 15Apr2027\n\nClass: ECONOMY, N Operated by: AIR EUROPA\nDuration: 08:20\n",
			[]flightLeg{{"UX 88", "PUJ", "MAD", "2027-04-14 21:35 -0400", "2027-04-15 11:55 +0200"}}},
		{"a name ending in INTL, cut before or after it into the same two airports", "Air Canada <etkt@aircanada.example>",
			"Booking ref: PQ7WZR\n\nELECTRONIC TICKET RECEIPT\n\nFrom To Flight Departure Arrival Last check-in\n\n" +
				"TORONTO PEARSON INTL LONDON HEATHROW AC868 18:30 06:35 17:30\nTerminal / Terminal: 1 Terminal / Terminal: 2 21Jun2027 22Jun2027\n",
			[]flightLeg{{"AC 868", "YYZ", "LHR", "2027-06-21 18:30 -0400", "2027-06-22 06:35 +0100"}}},
		{"an older receipt: the class and the day after the number, the status and the not-valid-before day after the clocks", "Companhia Aérea <etkt@companhia.example>",
			"Recibo do Etkt / Electronic Ticket Receipt\n\nLocalizador / Booking Reference: KQ7RTZ\n\nItinerário / Itinerary\nDe Para Voo Classe Data Partida Chegada Resa NVB NVA\n" +
				"From To Flight Class Date Departure Arrival Resa (1) NVB(2) NVA(3)\n\n" +
				"PORTO ALEGRE RECIFE JA3110 Y 14Mar 06:40 09:55 Ok 01Mar 2PC\nSALGADO FILHO GUARARAPES\n_\n" +
				"RECIFE PORTO ALEGRE JA3111 Y 21Mar 19:05 22:40 Ok 10Mar 2PC\nGUARARAPES SALGADO FILHO\n_\n",
			[]flightLeg{
				{"JA 3110", "POA", "REC", "2027-03-14 06:40 -0300", "2027-03-14 09:55 -0300"},
				{"JA 3111", "REC", "POA", "2027-03-21 19:05 -0300", "2027-03-21 22:40 -0300"},
			}},
		{"two days a year apart under the row: the ticket's validity, not the leg's days", "Iberia <etkt@iberia.example>",
			"Booking ref: ZT4KQP\n\nELECTRONIC TICKET RECEIPT\n\nFrom To Flight Departure Arrival Last check-in\n\n" +
				"MADRID BARAJAS FRANKFURT INTL IB3120 07:10 09:40 06:25\nTicket valid 03Mar2027 03Mar2028\n\nFlight date: 03Mar2027\n",
			[]flightLeg{{"IB 3120", "MAD", "FRA", "2027-03-03 07:10 +0100", "2027-03-03 09:40 +0100"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkLegs(t, flightLegs(mailFacts(tt.from, "Electronic ticket receipt", tt.text, sent)), tt.want)
		})
	}
}

// TestAgencyTicketDesignatorInParentheses: a travel agency's e-ticket
// (issue 46, foreign-23's TAAG ticket from a Porto agency) prints the
// flight as the airline's name, its designator in parentheses and the
// number ("Azores Airlines (S4) 221"), and each stop on a line of its
// label, day, clock and airport, in two languages with blank lines
// between them, so that the arrival's line falls past the ten lines
// under the number; the booking's reference after "N.º de Reserva".
func TestAgencyTicketDesignatorInParentheses(t *testing.T) {
	text := "INFORMAÇÃO DA RESERVA / Reservation Information\n\nN.º de Reserva 7YTR2K Data de Emissão 02 MAY 2027\n\n\nReservation Number Emission Date\n\n" +
		"INFORMAÇÃO DOS VOOS / Flights Information\n\nPONTA DELGADA - BOSTON\n\nAzores Airlines (S4) 221 Azores Airlines\n\n" +
		"Data Hora Aeroporto Terminal Bagagem Classe\nDate Hour Airport Terminal Baggage Class\n\n" +
		"Partida 14JUN 13:45 Ponta Delgada (PDL) 1PC K\n\n\nDeparture\n\nChegada 14JUN 15:55 Boston (BOS)\n\n\nArrival\n\nOBSERVAÇÕES / Notes\n"
	facts := mailFacts("Viagens Atlântico <bilhetes@viagens-atlantico.example>", "Bilhete eletrónico 7YTR2K", text, time.Date(2027, 5, 2, 9, 0, 0, 0, time.UTC))
	checkLegs(t, flightLegs(facts), []flightLeg{{"S4 221", "PDL", "BOS", "2027-06-14 13:45 +0000", "2027-06-14 15:55 -0400"}})
}
