package extract_test

import (
	"strings"
	"testing"
	"time"
)

// TestNumberUnderItsBlock: an agency's e-ticket (issue 46, foreign-25's
// Copa Airlines ticket from an Ecuadorian agency) prints each leg as a
// block under a repeated column heading: the two airports by name and
// code, the airline and its locator, both days with their clocks, and
// the number last, a hyphen between designator and digits ("CM-158").
// Read top down, each number took the next block's leg and the last
// none. The number is read from its cell, and the blocks as ending in
// their numbers, the whole mail alike; the same under a number without
// its hyphen.
func TestNumberUnderItsBlock(t *testing.T) {
	block := func(from, to, dep, arr, num string) string {
		return "Flight Airline PNR Depart Airport Arrive Airport\n\n" + from + " " + to + "\n\n\nAvianca K7TR2M\n" + dep + " " + arr + "\n" + num + "\n\n"
	}
	text := "E-Ticket & Travel Itinerary\n\nBOOKING ID: VNT-0088311 PNR: 8HQZ2W ISSUED DATE: Mar 02, 2027\n\nTRAVEL INFORMATION\n\n" +
		block("Bogota (BOG)", "Lima (LIM)", "Apr 10, 2027 07:15", "Apr 10, 2027 10:20", "AV-51") +
		block("Lima (LIM)", "Cusco (CUZ)", "Apr 10, 2027 13:05", "Apr 10, 2027 14:30", "AV-8241") +
		block("Cusco (CUZ)", "Bogota (BOG)", "Apr 17, 2027 15:40", "Apr 17, 2027 20:55", "AV-9") +
		"IMPORTANT INFORMATION\nFlight Rules and Restrictions\nE-Ticket Acceptance: the e-ticket must be presented at check-in.\n"
	want := []flightLeg{
		{"AV 51", "BOG", "LIM", "2027-04-10 07:15 -0500", "2027-04-10 10:20 -0500"},
		{"AV 8241", "LIM", "CUZ", "2027-04-10 13:05 -0500", "2027-04-10 14:30 -0500"},
		{"AV 9", "CUZ", "BOG", "2027-04-17 15:40 -0500", "2027-04-17 20:55 -0500"},
	}
	sent := time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)
	checkLegs(t, flightLegs(mailFacts("Viajes Nevado <tickets@viajesnevado.example>", "E-Ticket & Travel Itinerary", text, sent)), want)
	checkLegs(t, flightLegs(mailFacts("Viajes Nevado <tickets@viajesnevado.example>", "E-Ticket & Travel Itinerary", strings.ReplaceAll(text, "AV-", "AV "), sent)), want)
	// A hyphenated pair that is no known airline's is no flight.
	for _, f := range mailFacts("Viajes Nevado <tickets@viajesnevado.example>", "Your order", "Order 8HQZ2W\n\nItem\nQX-158\nShipped Apr 10, 2027 07:15\n", sent) {
		if f.Segment != nil {
			t.Errorf("QX-158 read as flight %s", f.Segment.Number)
		}
	}
}

// TestRouteLineOverClocks: an airline's confirmation (issue 46,
// foreign-25's Air Canada mails) prints each leg as cells flattened to
// lines: the day, the route as each city with its code, a code glued to
// the next city where the cells met ("Montreal YULVancouver YVR"), the
// two clocks on the line under it, the airports' names, and the number
// after them. The route line over its clocks is the leg's line.
func TestRouteLineOverClocks(t *testing.T) {
	text := "Booking Confirmation\nQ7RTZK\nIssued 03 Mar, 2027\n\nFlights\n\nDeparture • Mon 12 Apr, 2027\n\nStandard\n\n" +
		"Montreal YULVancouver YVR\n08:05 10:47\nMontreal-Trudeau International Airport Vancouver International Airport Main Terminal\nAC 311 • Operated by Air Canada\nDuration: 5hr 42m\n\n" +
		"Return • Sun 18 Apr, 2027\n\nStandard\n\nYVR YUL\n22:10 06:02\nVancouver International Airport Main TerminalMontreal-Trudeau International Airport\nAC 302 • Operated by Air Canada\n"
	want := []flightLeg{
		{"AC 311", "YUL", "YVR", "2027-04-12 08:05 -0400", "2027-04-12 10:47 -0700"},
		{"AC 302", "YVR", "YUL", "2027-04-18 22:10 -0700", "2027-04-19 06:02 -0400"},
	}
	checkLegs(t, flightLegs(mailFacts("Air Canada <confirmation@aircanada.example>", "Air Canada - 12 Apr 2027: Montreal - Vancouver (Booking reference: Q7RTZK)", text, time.Date(2027, 3, 3, 9, 0, 0, 0, time.UTC))), want)
}
