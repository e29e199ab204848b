package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestClockBeforeAirportRows: a printed itinerary's table flattened to one
// line a flight, each clock before its airport's name ("27.03.2027 4U
// 8013 06:40 Stuttgart 07:50 Berlin-Schönefeld"), is read when each name
// means one airport; a name with a digit, a city of several airports, or
// a train's row gives no flight. The booking's code may follow a second
// label after a slash ("Buchungscode / Rechnungsnummer: …").
func TestClockBeforeAirportRows(t *testing.T) {
	type leg struct{ num, from, to, dep, arr, ref string }
	for _, tt := range []struct {
		name, body string
		want       []leg
	}{
		{"de, two legs under a slashed label",
			"Buchungsbestätigung\n\nBuchungscode / Rechnungsnummer: K8VPZ3\n\nFlüge\n\nDatum Flug Abflug Ankunft\n\n" +
				"12.05.2027 EW 9044 07:15 Hamburg 08:20 München\n14.05.2027 EW 9045 19:10 München 20:25 Hamburg\n",
			[]leg{
				{"EW 9044", "HAM", "MUC", "2027-05-12T07:15:00+02:00", "2027-05-12T08:20:00+02:00", "K8VPZ3"},
				{"EW 9045", "MUC", "HAM", "2027-05-14T19:10:00+02:00", "2027-05-14T20:25:00+02:00", "K8VPZ3"},
			}},
		{"en",
			"Booking reference / PNR: QX7R2D\n\nDate Flight Departure Arrival\n14 Jun 2027 TP 1327 06:25 Dublin 09:50 Lisbon\n",
			[]leg{{"TP 1327", "DUB", "LIS", "2027-06-14T06:25:00+01:00", "2027-06-14T09:50:00+01:00", "QX7R2D"}}},
		{"a terminal's number is no airport's name",
			"Booking reference: QX7R2D\n14 Jun 2027 TP 1327 06:25 Terminal 1 09:50 Terminal 2\n",
			nil},
		{"a city of several airports gives none",
			"Booking reference: QX7R2D\n14 Jun 2027 BA 2490 06:25 London 09:50 Paris\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []leg
			for _, f := range mailFacts("Airline <booking@airline.example>", "Your booking", tt.body, time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC)) {
				s := f.Segment
				if f.Kind != extract.KindFlight || s == nil || s.Depart == nil || s.Arrive == nil || s.From == nil || s.To == nil {
					continue
				}
				got = append(got, leg{s.Number, s.From.Code, s.To.Code, s.Depart.Format(time.RFC3339), s.Arrive.Format(time.RFC3339), s.Reservation})
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

// TestTrainRowIsNoFlight: a train's timetable row has the same shape, its
// stations named as cities with airports; it is no flight.
func TestTrainRowIsNoFlight(t *testing.T) {
	body := "Ihre Fahrkarte\nAuftragsnummer: 4711ABCD\n\nDatum Zug Ab An\n12.05.2027 ICE 723 06:40 Stuttgart 07:50 Mannheim\n"
	for _, f := range mailFacts("Bahn <buchungsbestaetigung@bahn.de>", "Ihre Fahrkarte", body, time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC)) {
		if f.Kind == extract.KindFlight {
			t.Errorf("a train's row read as a flight: %+v", *f.Segment)
		}
	}
}

// TestDayOverItsClock: a card that stacks the route, the day and the
// departure's clock each on a line of its own under the flight's number
// ("SG 1012", "Vijayawada → Visakhapatnam", "Mon, 22 Dec 2016", "12:25")
// is read as the day and its clock on one line, where no booking's code
// lets the flight be read by its parts; a clock under a line that
// is no date alone is not taken for the departure.
func TestDayOverItsClock(t *testing.T) {
	for _, tt := range []struct {
		name, body, want string
	}{
		{"stacked, no booking's code to read the flight's parts by", "Your flight is confirmed.\n\nTP 1327\nDublin → Lisbon\nMon, 14 Jun 2027\n06:25\n", "TP 1327 DUB LIS 2027-06-14T06:25:00+01:00"},
		{"the clock under a sentence", "Your flight is confirmed.\n\nTP 1327\nDublin → Lisbon\nCheck-in closes 40 minutes before\n06:25\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			for _, f := range mailFacts("Airline <booking@airline.example>", "Your booking", tt.body, time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC)) {
				if s := f.Segment; f.Kind == extract.KindFlight && s != nil && s.Depart != nil && s.From != nil && s.To != nil {
					got = s.Number + " " + s.From.Code + " " + s.To.Code + " " + s.Depart.Format(time.RFC3339)
				}
			}
			if got != tt.want {
				t.Errorf("flight = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFlattenedTableByDates: an itinerary's table flattened to one line,
// each row starting with its date and its clocks before the flight's
// number ("Sun, Mar 12 7:00 AM 9:55 AM AM 651 … MGA to MEX …"), is read a
// row a flight: cut before the numbers, each row's clocks stood with the
// row above. A company's name in capitals beside the route ("AEROLITORAL
// DBA AEROMEXICO CONNECT") gives no airport: the route is the two codes
// "to" joins. The table's only word of flights is its heading's "Flt #".
func TestFlattenedTableByDates(t *testing.T) {
	long := " Operated by REGIONAL CARRIER DBA MAINLINE CONNECT "
	body := "Reservation code #K8VPZ3 Itinerary Confirmation Code: K8VPZ3 Date Departs Arrives Flt # Route Passengers " +
		"Fri, Jun 11 6:10 AM 8:45 AM AM 427" + long + "GDL to MEX Ana Maria Lopez " +
		"Sat, Jun 12 11:30 AM 2:05 PM UA 1207" + long + "MEX to IAH Ana Maria Lopez"
	type leg struct{ num, from, to, dep string }
	want := []leg{
		{"AM 427", "GDL", "MEX", "2027-06-11T06:10:00-06:00"},
		{"UA 1207", "MEX", "IAH", "2027-06-12T11:30:00-06:00"},
	}
	var got []leg
	for _, f := range mailFacts("Trips <trips@agency.example>", "Your itinerary", body, time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC)) {
		if s := f.Segment; f.Kind == extract.KindFlight && s != nil && s.Depart != nil && s.From != nil && s.To != nil {
			got = append(got, leg{s.Number, s.From.Code, s.To.Code, s.Depart.Format(time.RFC3339)})
		}
	}
	if len(got) != len(want) {
		t.Fatalf("legs = %+v, want %+v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("leg %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestHeadedCellNumber: a card's row of headings, each on its own line,
// over its row of values ("TERMINAL", "FLIGHT", then "2", "1184") gives the
// flight's number in the flight heading's place, by the mail's airline; a
// row of values short of its headings, or "Flight" alone over a leg's
// "1", gives none.
func TestHeadedCellNumber(t *testing.T) {
	card := func(cells string) string {
		return "Frontier Airlines\nYOUR CONFIRMATION CODE\nK8VPZ3\nFlight\nFRIDAY, JUNE 11, 2027\nTIME\n" +
			"Denver, CO\n2:01 PM\nFort Lauderdale, FL\n7:46 PM\n" + cells
	}
	for _, tt := range []struct{ name, body, want string }{
		{"the flight's heading second", card("TERMINAL\nFLIGHT\nB\n1184\n"), "F9 1184 DEN FLL"},
		{"a value short", card("FLIGHT\nTERMINAL\n1184\n"), ""},
		{"a leg's index", card("FLIGHT\n1\n"), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			for _, f := range mailFacts("Frontier Airlines <noreply@flyfrontier.com>", "Your trip", tt.body, time.Date(2027, 5, 1, 9, 0, 0, 0, time.UTC)) {
				if s := f.Segment; f.Kind == extract.KindFlight && s != nil && s.From != nil && s.To != nil {
					got = s.Number + " " + s.From.Code + " " + s.To.Code
				}
			}
			if got != tt.want {
				t.Errorf("flight = %q, want %q", got, tt.want)
			}
		})
	}
}
