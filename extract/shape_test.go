package extract

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLegShaped: a leg on one line with no airport is a journey whatever
// the words; a flight's or a sentence's is not.
func TestLegShaped(t *testing.T) {
	for text, want := range map[string]bool{
		"Tuesday 14 September 2027\nLeeds 07:45 -> York 08:12\n":                                   true,
		"Frankfurt (Main) Hbf ab 10:17 -> Wiesbaden Hbf an 10:58\n":                                true,
		"London Gatwick (LGW) 07:05 -> Nice (NCE) 10:15\n":                                         false,
		"The shop is open 09:00 - 18:00 and on Saturdays\n":                                        false,
		"Opening hours\nMonday to Friday 09:00 – 17:30\n":                                          false,
		"Outward: Tuesday 17 October 2028\n07:30 London Paddington → 09:02 Bristol Temple Meads\n": true,
		"Estimated Delivery Time: 02:30 PM  -  06:30 PM\n":                                         false,
	} {
		if got := legShaped(text); got != want {
			t.Errorf("legShaped(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestNoFlightIn: a flight number counts on a line that speaks of
// flights, an airport by its code in parentheses anywhere.
func TestNoFlightIn(t *testing.T) {
	for text, want := range map[string]bool{
		"Order number: NR5517320\nLeeds 07:45 -> York 08:12\n": true,
		"Flight LS 563 departs 06:15\n":                        false,
		"Manchester (MAN) to Palma (PMI)\n":                    false,
		"Coach C, Seat 42\n":                                   true,
	} {
		if got := noFlightIn(text); got != want {
			t.Errorf("noFlightIn(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestStopPairShaped: stops by their markers, or stations by their
// labels with the clocks on lines of their own, shape a journey.
func TestStopPairShaped(t *testing.T) {
	for text, want := range map[string]bool{
		"Stazione di partenza: Milano Cadorna\nStazione di arrivo: Como Lago\nOra di partenza: 09:43\nOra di arrivo: 10:46\n": true,
		"Origen: China\nUpdated 10:05 and 11:14\n": false,
		"Opening hours 09:00 - 17:30\n":            false,
		"Stacja początkowa: Warszawa Zachodnia, godz. 06:48\nStacja docelowa: Radom, godz. 08:31\n": true,
		"Origin: China, shipped 10:05\nUpdated 11:14\n":                                             false,
		// Dotted clocks after a word for "at" a time (stopClocks).
		"Lähtö: pe 12.11.2027 klo 08.00 Helsinki, Kampin linja-autoasema\nSaapuminen: pe 12.11.2027 klo 10.30 Tampere, linja-autoasema\n": true,
		"Avreise: 12.11.2027 Helsinki\nAnkomst: 14.11.2027 Tampere\n":                                                                     false,
	} {
		if got := stopPairShaped(text); got != want {
			t.Errorf("stopPairShaped(%q) = %v, want %v", text, got, want)
		}
	}
	if got := withoutClockWord("Hora de salida: 10:05"); got != " salida: 10:05" {
		t.Errorf("withoutClockWord = %q", got)
	}
	if got := withoutClockWord("Data i godzina odjazdu: 29.10.2030, 16:42"); got != " odjazdu: 29.10.2030, 16:42" {
		t.Errorf("withoutClockWord = %q", got)
	}
}

// TestFlightShaped: a number alone on its line with an airport on each of
// the two lines under it is a flight, as is a route beside its number.
func TestFlightShaped(t *testing.T) {
	for text, want := range map[string]bool{
		"PD 2411\nDepart: Ottawa (YOW), Sat., Sept. 9, 2028, 7:40 a.m.\nArrive: Halifax (YHZ), 10:25 a.m.\n": true,
		"AY 1331  Helsinki (HEL) 07:30 -> Stockholm (ARN) 07:35\n":                                           true,
		"PD 2411\nDepart: Ottawa (YOW)\nReturn: Ottawa (YOW)\n":                                              false,
		"Order AB 1234\nShipped from Leeds\n":                                                                false,
		"EZY 8211 Bristol (BRS) dep 07:05 - Faro (FAO) arr 09:55\n":                                          true,
		"SN 3583\n\n07:10\n\nBrussels\n\nBRU\n\n08:45\n\nRome Fiumicino\n\nFCO\n":                            true,
		"SN 3583\n\n07:10\n\nBrussels\n\nBRU\n":                                                              false,
	} {
		if got := flightShaped(text); got != want {
			t.Errorf("flightShaped(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestRailLegZone: a station named like a town on another continent
// ("York") keeps the departure's zone.
func TestRailLegZone(t *testing.T) {
	c := &msgContext{dateLoc: time.UTC, senderCountry: "GB"}
	d := dateMatch{y: 2027, m: 9, d: 14, hasYear: true}
	seg := c.railLeg("", "Leeds", "York", d, d, &clockMatch{h: 7, m: 45}, &clockMatch{h: 8, m: 12})
	if got := seg.Arrive.Time.Format("15:04 -07:00"); got != "08:12 +01:00" {
		t.Errorf("arrival %s, want 08:12 +01:00", got)
	}
	// Salisbury is also in Maryland, four hours from London in the weeks
	// between the two summer times' starts.
	d = dateMatch{y: 2030, m: 3, d: 23, hasYear: true}
	seg = c.railLeg("", "Salisbury", "Exeter St Davids", d, d, &clockMatch{h: 9, m: 52}, &clockMatch{h: 11, m: 33})
	if got := seg.Depart.Time.Format("2006-01-02 15:04 -07:00"); got != "2030-03-23 09:52 +00:00" {
		t.Errorf("departure %s, want 2030-03-23 09:52 +00:00", got)
	}
}

// TestRailLegStationZone: with no sender and no Date to go by (a
// ticket's text alone), a stop in a town without an airport is placed by
// the station table; the other stop follows it.
func TestRailLegStationZone(t *testing.T) {
	c := &msgContext{dateLoc: time.UTC}
	d := dateMatch{y: 2028, m: 9, d: 21, hasYear: true}
	seg := c.railLeg("RE 31212", "Bielefeld Hbf", "Hamm (Westf) Hbf", d, d, &clockMatch{h: 9, m: 12}, &clockMatch{h: 10, m: 5})
	if got := seg.Depart.Time.Format("15:04 -07:00") + " " + seg.Arrive.Time.Format("15:04 -07:00"); got != "09:12 +02:00 10:05 +02:00" {
		t.Errorf("leg %s, want 09:12 +02:00 10:05 +02:00", got)
	}
}

func TestMarkedLeg(t *testing.T) {
	d := dateMatch{y: 2028, m: 1, d: 14}
	for _, tc := range []struct {
		line, from, to, number string
	}{
		{"Ihre Fahrt am 14.01.2028: ICE 597 ab Hamburg-Altona 06:47, an Frankfurt(Main)Hbf 10:27.", "Hamburg-Altona", "Frankfurt(Main)Hbf", "ICE 597"},
		{"ab 06:47 Hamburg-Altona, an 10:27 Frankfurt(Main)Hbf", "Hamburg-Altona", "Frankfurt(Main)Hbf", ""},
		{"RJ 1021 odjezd Praha hl.n. 08:02, příjezd Ostrava hl.n. 11:35", "Praha hl.n", "Ostrava hl.n", "RJ 1021"}, // stationName trims the last dot,
		{"Zug IR 2170: Basel SBB ab 07:33, Zürich HB an 08:28", "Basel SBB", "Zürich HB", "IR 2170"},
		{"Öffnungszeiten 06:47 bis 10:27", "", "", ""},
		{"an 06:47 Hamburg, ab 10:27 Berlin", "", "", ""},
		// Each clock before its stop, the stations after "from" and
		// "to", or before their particles.
		{"fahren Sie um 07:48 von Hannover Hbf ab und kommen um 09:01 in Uelzen an.", "Hannover Hbf", "Uelzen", ""},
		{"fährt Ihr Zug RE 18 um 07:12 in Osnabrück Hbf ab und kommt um 08:05 in Oldenburg (Oldb) an.", "Osnabrück Hbf", "Oldenburg (Oldb)", "RE 18"},
		{"avgår ditt tåg kl. 07:48 från Stockholm C och ankommer kl. 09:01 till Uppsala C.", "Stockholm C", "Uppsala C", ""},
		{"Abholung um 10:00 von Zimmer 12 und Rückgabe um 12:00 im Foyer", "", "", ""},
		{"geöffnet um 10:00 von Montag und bis 18:00 an", "", "", ""},
		// A dash joins a name's words: "Part" is French for departs.
		{"votre train part de Lyon Part-Dieu à 08h04 et arrive à Grenoble à 09h32", "Lyon Part-Dieu", "Grenoble", ""},
		{"pociąg odjeżdża z Łódź Fabryczna o 07:02 i przyjeżdża do Sieradz o 08:21", "Łódź Fabryczna", "Sieradz", ""},
	} {
		c := &msgContext{}
		seg := c.markedLeg(tc.line, findClocks(tc.line), d)
		if seg == nil {
			if tc.from != "" {
				t.Errorf("markedLeg(%q) = nil", tc.line)
			}
			continue
		}
		if tc.from == "" || seg.From.Name != tc.from || seg.To.Name != tc.to || seg.Number != tc.number {
			t.Errorf("markedLeg(%q) = %q → %q (%q), want %q → %q (%q)", tc.line, seg.From.Name, seg.To.Name, seg.Number, tc.from, tc.to, tc.number)
		}
	}
}

func TestFindClocksDotted(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []string
	}{
		{"ke 8.12.2027 klo 08.35–09.25", []string{"08:35", "09:25"}},
		{"Helsinki lähtö klo 8.00", []string{"08:00"}},
		{"Abfahrt 10.30 Uhr", []string{"10:30"}},
		{"kl. 07.05 fra Oslo S", []string{"07:05"}},
		{"Total 8.12 EUR, 14.05.2027", nil},
		{"10h30.15 Uhr", []string{"10:30"}},
		{"Departure: 0845 hrs, arrival 1520hrs", []string{"08:45", "15:20"}},
		{"Call 0845 123 4567 for help", nil},
		{"Scheduled Departure:08:15 02-Feb-2024,", []string{"08:15"}},
		{"Recorded at 10:05:30", []string{"10:05"}},
		// The half of the day by its letter alone (xf7t): US airlines.
		{"BOSTON, MA 7:45a", []string{"07:45"}},
		{"12:10p  3:41p", []string{"12:10", "15:41"}},
		{"12:05a", []string{"00:05"}},
		{"10:30 a Roma", []string{"10:30"}},
	} {
		var got []string
		for _, c := range findClocks(tc.s) {
			got = append(got, fmt.Sprintf("%02d:%02d", c.h, c.m))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("findClocks(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestTrainLabel: a train's label and number, a service's capitalised
// name between them, and no number from words that are not a name.
func TestTrainLabel(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"TRAIN N°6857", "6857"},
		{"Trein: Eurocity Direct 9215", "9215"},
		{"Regionale Veloce 2615", "2615"},
		{"Västtågen 3009", "3009"},
		{"SJ Snabbtåg 527", "527"},
		{"Train ticket for 11 December 2029", ""},
		{"Zug fährt am 12 ab", ""},
		{"Billete de tren 14/01/2030", ""},
		{"Pociąg: R 90612", "R 90612"},
		{"Spoj: TL 65", "TL 65"},
		{"Treno R 2516", "R 2516"},
		{"Train: R 611 Tatran", "R 611"},
		{"Zug ICE 1234", "ICE 1234"},
		{"Train ticket to 12 stations", ""},
		{"Поезд 020У «Красная стрела»", "020У"},
		{"Поезд № 102Й Москва — Нижний Новгород", "102Й"},
		{"Вагон 07, место 015", ""},
		{"Vonat: IC 560", "IC 560"},
		{"Traukinys: 706", "706"},
		{"Vilciens Nr. 6211", "6211"},
		{"Rong: 002", "002"},
		{"Vagonas 3, vieta 42", ""},
		{"Vozeň 5, Miesto 47", ""},
		{"Wrong 2026", ""},
		{"Поїзд 091К Київ — Львів", "091К"},
		{"Вагон 09, місце 027, купе", ""},
		{"Влак 8611 София — Бургас", "8611"},
		{"Вагон 3, място 45", ""},
		{"Voz br. 731 Beograd Centar — Novi Sad", "731"},
		{"Voz: 900 123 456", ""}, // Spanish: a phone line's label
		{"Vagon 2, sedište 34", ""},
		{"Τρένο IC 52", "IC 52"},
		{"ΤΡΕΝΟ: 884", "884"},
		{"Su voz 24 horas al día", ""},
	} {
		got := ""
		if m := trainLabel(tc.line); m != nil {
			got = m[1]
		}
		if got != tc.want {
			t.Errorf("trainLabel(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestServiceLine: a line under a leg that names its service by category
// and number alone, whatever the operator; not a coach, seat or platform.
func TestServiceLine(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"ALX 84107", "ALX 84107"},
		{"  Os 259", "Os 259"},
		{"S 23, 2. Klasse", "S 23"},
		{"RE 2", "RE 2"},
		{"Wagen 12", ""},
		{"Gleis 5", ""},
		{"Seat 61", ""},
		{"Total 45 EUR", ""},
		{"ab 10:26", ""},
		{"12 Coach", ""},
		{"Koht 14", ""},
		{"Iste 14", ""},
		{"Rida 3", ""},
	} {
		if got := serviceLine(tc.line); got != tc.want {
			t.Errorf("serviceLine(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestRangeLeg: two clocks as a span, the stations a pair in a cell of
// the line or on the line next to it.
func TestRangeLeg(t *testing.T) {
	d := dateMatch{y: 2030, m: 1, d: 15}
	for _, tc := range []struct {
		text, from, to, number string
	}{
		{"Tue 15 Jan 2030 · 09:10–11:45 · Bruxelles-Midi → Köln Hbf · ICE 15", "Bruxelles-Midi", "Köln Hbf", "ICE 15"},
		{"08:34 – 14:52\n\nAmsterdam Centraal → Berlin Hbf", "Amsterdam Centraal", "Berlin Hbf", ""},
		{"Amsterdam Centraal → Berlin Hbf\n08:34 – 14:52", "Amsterdam Centraal", "Berlin Hbf", ""},
		{"Check-in 15:00 – 22:00 at the front desk\nBerlin → Hamburg", "", "", ""},
		{"Opening hours 08:00 – 18:00", "", "", ""},
		{"08:00, 18:00\nBerlin → Hamburg", "", "", ""},
	} {
		c := &msgContext{}
		lines := strings.Split(tc.text, "\n")
		i := slices.IndexFunc(lines, func(ln string) bool { return len(findClocks(ln)) == 2 })
		seg, _ := c.rangeLeg(lines, i, findClocks(lines[i]), d)
		if seg == nil {
			if tc.from != "" {
				t.Errorf("rangeLeg(%q) = nil", tc.text)
			}
			continue
		}
		if seg.From.Name != tc.from || seg.To.Name != tc.to || seg.Number != tc.number {
			t.Errorf("rangeLeg(%q) = %q → %q (%q), want %q → %q (%q)", tc.text, seg.From.Name, seg.To.Name, seg.Number, tc.from, tc.to, tc.number)
		}
	}
}

// TestStationNameNoise: what stands beside a station's name on its line
// and is not part of it.
func TestStationNameNoise(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Amsterdam Centraal — 6h 18m", "Amsterdam Centraal"},
		{"Outbound: Tue", ""},
		{"Hamburg-Altona", "Hamburg-Altona"},
		{"Firenze S.M.N.", "Firenze S.M.N"},
	} {
		if got := stationName(tc.in); got != tc.want {
			t.Errorf("stationName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct{ after, want string }{
		{" del 14/01/2030", ""},
		{" ICE 597 nach Köln", "ICE 597"},
		{", R 812", "R 812"},
	} {
		if got := stopTrain(tc.after); got != tc.want {
			t.Errorf("stopTrain(%q) = %q, want %q", tc.after, got, tc.want)
		}
	}
}

// TestStationNamed: a station in a town the places data does not know
// is one by its words; a programme's lines are not.
func TestStationNamed(t *testing.T) {
	for name, want := range map[string]bool{"Ulm Hbf": true, "Kraków Główny": true, "Oslo S": true,
		"Doors open": false, "Main act": false, "S": false, "Praha hl.n": true, "Gare de Lyon": true} {
		if got := stationNamed(name); got != want {
			t.Errorf("stationNamed(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestRouteShaped: a route of two stations over its clocks is a journey
// only with a booking's reference and no airport's code.
func TestRouteShaped(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Reservation: RJT7Q2M4\nTuesday, 18 March 2030\nGraz → Klagenfurt\nDeparture 09:10 · Arrival 11:55\n", true},
		{"Tuesday, 18 March 2030\nGraz → Klagenfurt\nDeparture 09:10 · Arrival 11:55\n", false},
		{"Reservation: RJT7Q2M4\nTuesday, 18 March 2030\nGraz (GRZ) → Vienna (VIE)\nDeparture 09:10 · Arrival 11:55\n", false},
		{"Reservation: RJT7Q2M4\nTuesday, 18 March 2030\nOpening hours 09:10 - 11:55\n", false},
	} {
		c := &msgContext{}
		c.ref = firstFullDate(tc.text, func(ln string) []dateMatch { return findDates(ln, false) })
		if got := c.routeShaped(tc.text); got != tc.want {
			t.Errorf("routeShaped(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestStopClocks: colon clocks, and dotted clocks only after a word for
// "at" a time; a date's or an amount's dots are none.
func TestStopClocks(t *testing.T) {
	for s, want := range map[string]int{
		"Lähtö: pe 12.11.2027 klo 08.00 Helsinki":    1,
		"kl. 07.15 Aarhus, kl. 10.05 København":      2,
		"Odjazd: godz. 6.40 Kraków":                  1,
		"Ankomst: 13.05.2028, pris 179.00 kr":        0,
		"Helsinki 08.00":                             0,
		"inkl. 08.00":                                0,
		"Departure 08:15, arrival 10.30 Uhr, klo 9.": 1,
	} {
		if got := stopClocks(s); got != want {
			t.Errorf("stopClocks(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestWithoutDayPlus: the days after the journey's date an arrival's
// clock is followed by, and the text after them.
func TestWithoutDayPlus(t *testing.T) {
	for in, want := range map[string]string{
		" (+1)  Amsterdam Sloterdijk": "1:  Amsterdam Sloterdijk",
		" +1  Montréal":               "1:  Montréal",
		" (+2)":                       "2:",
		" +12 Berlin":                 "0: +12 Berlin",
		" (+1 day) Berlin":            "0: (+1 day) Berlin",
		"  Berlin +1":                 "0:  Berlin +1",
		" (+3)":                       "0: (+3)",
	} {
		rest, n := withoutDayPlus(in)
		if got := fmt.Sprintf("%d:%s", n, rest); got != want {
			t.Errorf("withoutDayPlus(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBusWordNumbers: a bus's word and number at a line's start or after
// a list's separator, alone or before another; not on a line with a clock,
// not a coach's, not a number that goes on.
func TestBusWordNumbers(t *testing.T) {
	for text, want := range map[string]string{
		"Bus 1920 · Sitzplatz 21\n":              "1920",
		"Anbieter: RegioJet, Bus 441\n":          "441",
		"Autobús 3318 · Asiento 14\n":            "3318",
		"Bus N 1174 | Seat 3\n":                  "N 1174",
		"Bus 12 08:15 Leeds\n":                   "",
		"Coach 5 · Seat 12A\n":                   "",
		"Take bus 42 to the hotel\n":             "",
		"Bus 24/7 help line\n":                   "",
		"Bus 2 stops from the station\n":         "",
		"Bus 1920 · Sitz 2\nBus 1920 · Sitz 3\n": "1920",
		"Аутобус 1204 · седиште 17\n":            "1204",
		"Превозник: Ниш-експрес, Аутобус 318\n":  "318",
		"Автобус 118 | Място 22\n":               "118",
		"ΛΕΩΦΟΡΕΙΟ 512 · Θέση 14\n":              "512",
		"Λεωφορείο 7 στάσεις από το σταθμό\n":    "",
		"Otobüs 2210 · Koltuk 9\n":               "2210",
	} {
		if got := strings.Join(busWordNumbers(text), ","); got != want {
			t.Errorf("busWordNumbers(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestSubjectCode: a code the subject names and the text repeats as a
// word; not a line's number, a train's, a date or a code the text lacks.
func TestSubjectCode(t *testing.T) {
	for _, c := range []struct{ subject, text, want string }{
		{"Your trip is booked - MCL-81193", "Trip code: MCL-81193\n", "MCL-81193"},
		{"Booking confirmation #3012845999", "Booking number #3012845999\n", "3012845999"},
		{"Your e-ticket SGK4471209 is ready", "Journey code: SGK4471209\n", "SGK4471209"},
		{"Your trip is booked - MCL-81193", "Trip code: MCL-811930\n", ""},
		{"Änderung Ihrer Linie N1430 ab 01.04.2028", "ab dem 01.04.2028 fährt die Linie N1430 zu neuen Zeiten\n", ""},
		{"Fahrplanänderung RB-2041", "RB-2041 fährt ab Montag später\n", ""},
		{"Spring sale 2028", "Spring sale 2028\n", ""},
		{"Codes AB-12345 and CD-67890", "AB-12345, CD-67890\n", ""},
	} {
		if got := subjectCode(c.subject, c.text); got != c.want {
			t.Errorf("subjectCode(%q, %q) = %q, want %q", c.subject, c.text, got, c.want)
		}
	}
}

// TestTabLabelled: a line of a label's cell and its value's, apart by a
// tab, reads as the label and its value; a row of more cells, a clock's
// cell first or a label of many words does not.
func TestTabLabelled(t *testing.T) {
	for in, want := range map[string]string{
		"Van\tUtrecht Jaarbeursplein\nVertrektijd\t08:00": "Van: Utrecht Jaarbeursplein\nVertrektijd: 08:00",
		"08:04\tAugsburg Hbf":                             "08:04\tAugsburg Hbf",
		"Date\tFrom\tTo":                                  "Date\tFrom\tTo",
		"This is a sentence of words\tvalue":              "This is a sentence of words\tvalue",
		"Origen:\tMadrid":                                 "Origen:\tMadrid",
		"no tabs here":                                    "no tabs here",
	} {
		if got := tabLabelled(in); got != want {
			t.Errorf("tabLabelled(%q) = %q, want %q", in, got, want)
		}
	}
}
