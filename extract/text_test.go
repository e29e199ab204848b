package extract

import (
	"slices"
	"strings"
	"testing"
)

// naiveIndexDigit is indexDigit a byte at a time, the reference.
func naiveIndexDigit(text string, from int) int {
	for i := from; i < len(text); i++ {
		if text[i] >= '0' && text[i] <= '9' {
			return i
		}
	}
	return -1
}

func TestIndexDigit(t *testing.T) {
	long := strings.Repeat("no digits here / : ;", 5)
	for _, tc := range []struct {
		text string
		from int
	}{
		{"", 0}, {"7", 0}, {"abc", 0}, {"abcdefgh9", 0}, {"12345678", 3},
		{"/:/:/:/:/:/:/:/:", 0},          // the bytes either side of the digits
		{"\xb0\xb9\xc0\xb1 Zürich 1", 0}, // non-ASCII bytes whose low bits are digits
		{long + "0", 0}, {long + "9" + long, 0}, {long, 0},
		{"a1b2c3d4e5f6g7h8i9", 5}, {"Preis 12,50 €", 100},
	} {
		if got, want := indexDigit(tc.text, min(tc.from, len(tc.text))), naiveIndexDigit(tc.text, min(tc.from, len(tc.text))); got != want {
			t.Errorf("indexDigit(%q, %d) = %d, want %d", tc.text, tc.from, got, want)
		}
	}
}

func FuzzIndexDigit(f *testing.F) {
	f.Add("Rechnung vom 12.11.", 0)
	f.Add("\xb0\xb9\xc0\xb1\xff\x00/:", 1)
	f.Fuzz(func(t *testing.T, text string, from int) {
		if from < 0 || from > len(text) {
			return
		}
		if got, want := indexDigit(text, from), naiveIndexDigit(text, from); got != want {
			t.Fatalf("indexDigit(%q, %d) = %d, want %d", text, from, got, want)
		}
	})
}

// TestBusHeadNumbers: a bus line's number after the bus's word heading a
// leg's line with its clock; none without a clock, nor before a seat's or
// a platform's word, nor after "Bus" heading a station's name.
// TestBusNumbers: the numbers after a bus's labels, distinct and each;
// a phone number's or a date's first digits are none.
func TestBusNumbers(t *testing.T) {
	for _, c := range []struct{ text, distinct, each string }{
		{"Bus-Nr. N 1174 · Sitzplatz 14C\n", "N 1174", "N 1174"},
		{"Linie 032 · Sitzplatz 7A\nLinie 032 · Sitzplatz 12D\n", "032", "032,032"},
		{"Ligne 1510 – Siège 18\nLigne 1511 – Siège 9\n", "1510,1511", "1510,1511"},
		{"Service 040 | Seat 23\nCustomer service 0330 124 5566\n", "040", "040"},
		{"Service 24/7 on board\n", "", ""},
		{"Kurs 517, miejsce 24\n", "517", "517"},
	} {
		d, e := busNumbers(c.text)
		if got := strings.Join(d, ","); got != c.distinct {
			t.Errorf("busNumbers(%q) distinct = %q, want %q", c.text, got, c.distinct)
		}
		if got := strings.Join(e, ","); got != c.each {
			t.Errorf("busNumbers(%q) each = %q, want %q", c.text, got, c.each)
		}
	}
}

// busNumbersWhole is busNumbers as it was, busNumberExpr.whole over the
// whole text: FuzzBusNumbers holds the anchored search to it.
func busNumbersWhole(text string) (distinct, each []string) {
	return busNumbersOf(text, busNumberExpr.whole.FindAllStringSubmatchIndex(text, 8))
}

// FuzzBusNumbers: the search from the labels' first words finds what the
// whole expression over the whole text does, in the same order, up to
// the same eight matches.
func FuzzBusNumbers(f *testing.F) {
	for _, s := range []string{
		"Bus-Nr. N 1174 · Sitzplatz 14C\n",
		"Linie 032 · Sitzplatz 7A\nLinie 032 · Sitzplatz 12D\n",
		"Service 040 | Seat 23\nCustomer service 0330 124 5566\n",
		"LÍNEA 7, línea 8, Línea\n\n 9; xlinie 4 Linie4Linie 5",
		"Рейс 12 РЕЙС 13 рейсы 14 МАРШРУТ К 15",
		"Linie 1 Linie 2 Linie 3 Linie 4 Linie 5 Linie 6 Linie 7 Linie 8 Linie 9 Linie 10",
		"bus nr 5 busnr6 Bus  Nr.: 7 coach no# 8 service 12/03",
		"\xffLinie 3 \xc3Linie 4 ΓΡΑΜΜΗ 5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !hasDigit(text) || foldsAcrossWidths(text) {
			return
		}
		d, e := busNumbers(text)
		wd, we := busNumbersWhole(text)
		if !slices.Equal(d, wd) || !slices.Equal(e, we) {
			t.Fatalf("busNumbers(%q) = %q, %q; the whole expression gives %q, %q", text, d, e, wd, we)
		}
	})
}

func TestBusHeadNumbers(t *testing.T) {
	for text, want := range map[string]string{
		"Buss 832 Göteborg Nils Ericson Terminalen 07:45 - Oslo Bussterminal 11:20\n": "832",
		"Bus 114 Wrocław Dworzec 06:10 → Kraków MDA 09:25\n":                          "114",
		"Fernbus 061 Berlin ZOB ab 08:15, Hamburg ZOB an 11:30\n":                     "061",
		"Coach 5 Seat 12 departs 07:45\n":                                             "",
		"Bus 24 Stunden lang gültig\n":                                                "",
		"Bus Station Leeds 07:45 - Manchester 08:50\n":                                "",
		"Autocarro Lisboa (Sete Rios) 09:00 - Porto 12:30\n":                          "",
		"Автобус 305 София, Централна автогара 08:30 - Варна 15:15\n":                 "305",
		"Λεωφορείο 12 Αθήνα 07:00 - Πάτρα 10:10\n":                                    "12",
		"Автобус София 08:30 - Варна 15:15\n":                                         "",
	} {
		if got := strings.Join(busHeadNumbers(text), ","); got != want {
			t.Errorf("busHeadNumbers(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestWithoutBusWord: a bus's word heading a stop is left out of it, in
// any script ("Автобус София" is the stop София).
func TestWithoutBusWord(t *testing.T) {
	for s, want := range map[string]string{
		"Autobus Praha ÚAN Florenc": "Praha ÚAN Florenc",
		"Автобус София":             "София",
		"ΛΕΩΦΟΡΕΙΟ Αθήνα":           "Αθήνα",
		"Автобусна спирка":          "Автобусна спирка",
	} {
		if got := withoutBusWord(s); got != want {
			t.Errorf("withoutBusWord(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestAloneStationLines: a stop's line alone may end in a part in
// parentheses and a bay after it; a sentence's parenthesis and a bay's
// word alone are no stop.
func TestAloneStationLines(t *testing.T) {
	for line, want := range map[string]string{
		"Boston, MA (South Station Bus Terminal)":        "Boston, MA (South Station Bus Terminal)",
		"New York, NY (Port Authority Bus Terminal)":     "New York, NY (Port Authority Bus Terminal)",
		"Please arrive at the bus stop early (please)":   "",
		"New York Port Authority Bus Terminal - Gate 72": "New York Port Authority Bus Terminal",
		"Lyon Part-Dieu":      "Lyon Part-Dieu",
		"(see below) Berlin":  "",
		"Berlin (Hbf) (tief)": "",
		"Gate 72":             "",
	} {
		if got := aloneStation(line); got != want {
			t.Errorf("aloneStation(%q) = %q, want %q", line, got, want)
		}
	}
	if !dayAndClockAlone("Depart: Tue, Mar 9, 2027 8:15 AM", findClocks("Depart: Tue, Mar 9, 2027 8:15 AM")[0]) {
		t.Error("a departure's word, a date and a clock are a stop's clock line")
	}
}
