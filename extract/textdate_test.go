package extract

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestDateForms: dates written year first with slashes or dots, a day
// "of" its month with a comma before the year, and a day, month's name
// and year parted by slashes; a version or a number whose groups are no
// month and day is no date, nor a slash on one side of a month's name.
func TestDateForms(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"Due date: 2030/03/25", "2030-03-25"},
		{"Zahlungsziel 2030.03.25", "2030-03-25"},
		{"Payment due on the 25th of March, 2030", "2030-03-25"},
		{"Due: 25 March, 2030", "2030-03-25"},
		{"Aanslagnummer: 2030.44.10871", ""},
		{"Ref 2030/03-25", ""},
		{"build 12030/03/25", ""},
		{"EK 42     25/Mar/2030    DXB 07:45", "2030-03-25"},
		{"Entrada: 12/abr/2030 a partir de las 14:00", "2030-04-12"},
		{"Fällig am: 15/Mär/2030", "2030-03-15"},
		{"Open 24/7 May 2030", "2030-05-07"},
		{"Issue 12/Mar 2030", ""},
		{"Отправление: 18 декабря 2030, 23:55", "2030-12-18"},
		{"Wyjazd: 12 października 2030", "2030-10-12"},
		{"Indulás: 2030. február 3. 06:15, Budapest (BUD)", "2030-02-03"},
		{"Fizetési határidő: 2030. december 22.", "2030-12-22"},
		{"Bejelentkezés: 2030. jan. 15., 14:00 órától", "2030-01-15"},
		{"Indulás: Budapest-Keleti, 2030.12.18. 07:10", "2030-12-18"},
		{"Megrendelés 2030. 12 darab", ""},
	} {
		got := ""
		if ds := findDates(c.line, false); len(ds) > 0 && ds[0].hasYear {
			got = dateString(ds[0])
		}
		if got != c.want {
			t.Errorf("findDates(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// TestDateNonASCIIMonthEnd: a month's name that ends with a letter beyond
// ASCII ends its date without a year too ("18 декабря, 23:55"), and the
// date ends with the name, not the comma after it.
func TestDateNonASCIIMonthEnd(t *testing.T) {
	for _, c := range []struct {
		line     string
		day, mon int
		end      int
	}{
		{"Отправление: 18 декабря, 23:55", 18, 12, len("Отправление: 18 декабря")},
		{"Заезд: 14 января", 14, 1, len("Заезд: 14 января")},
		{"Departure 18 Dec, 07:45", 18, 12, len("Departure 18 Dec")},
	} {
		ds := findDates(c.line, false)
		if len(ds) == 0 || ds[0].d != c.day || ds[0].m != c.mon || ds[0].end != c.end || ds[0].hasYear {
			t.Errorf("findDates(%q) = %+v, want day %d month %d ending at %d", c.line, ds, c.day, c.mon, c.end)
		}
	}
}

func dateString(d dateMatch) string { return fmt.Sprintf("%04d-%02d-%02d", d.y, d.m, d.d) }

// TestDateSlashOneSide: a slash on one side of a month's name makes no
// year of the number on its other side ("12 Mar/2030" is the 12th of
// March, its year from the mail's date).
func TestDateSlashOneSide(t *testing.T) {
	ds := findDates("Stand 12 Mar/2030", false)
	if len(ds) != 1 || ds[0].hasYear || ds[0].d != 12 || ds[0].m != 3 {
		t.Fatalf("findDates = %+v, want the 12th of March without a year", ds)
	}
}

// TestTurkishDates: Turkish month names with their letters or without,
// and in capitals, whose I lowers to i, not ı.
func TestTurkishDates(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"Kalkış: Ankara Gar, 18 Aralık 2026 Cuma 09:15", "2026-12-18"},
		{"KALKIŞ: 18 ARALIK 2026", "2026-12-18"},
		{"Giris tarihi: 12 Ocak 2027", "2027-01-12"},
		{"Son ödeme: 3 Mayis 2027", "2027-05-03"},
	} {
		got := ""
		if ds := findDates(c.line, false); len(ds) > 0 && ds[0].hasYear {
			got = dateString(ds[0])
		}
		if got != c.want {
			t.Errorf("findDates(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// TestDateBeforeMarkedClock: a day and month without a year are a date
// when a clock follows, bare or after a departure's or an arrival's short
// marker, as a ticket's table prints a stop; a number before a unit and
// a clock is none.
func TestDateBeforeMarkedClock(t *testing.T) {
	for _, c := range []struct {
		line     string
		day, mon int
	}{
		{"Kraków Główny   05.03   odj. 06:12   EIP 3502", 5, 3},
		{"Gdańsk Główny   05.03   prz. 11:48", 5, 3},
		{"Wien Hbf   14.02   ab 17:13", 14, 2},
		{"Lyon   21.02   arr. 20:02", 21, 2},
		{"Strecke 3.5 km 12:30", 0, 0},
		{"Preis 12.50   10:00", 0, 0},
	} {
		ds := findDates(c.line, false)
		got := len(ds) > 0 && ds[0].d == c.day && ds[0].m == c.mon
		if c.day == 0 {
			got = len(ds) == 0
		}
		if !got {
			t.Errorf("findDates(%q) = %+v, want day %d month %d", c.line, ds, c.day, c.mon)
		}
	}
}

// FuzzClockMatches: the search from each colon or h with a digit before
// and minutes after finds what clockRE over the whole text does.
func FuzzClockMatches(f *testing.F) {
	for _, s := range []string{
		"Departure 08:15, arrival 7:45 pm (10:30:45)",
		"14h30 → 18H05; 123:45 1:1000 x9:15 _9:15 9:15am 12:00 A.M.",
		"2:30h 25:30 09:60 0845 hrs\n23:59\n00:00",
		"Abfahrt:08:15 ab 8h05 bis 9h 10:5 10:55",
		"\xff7:45 ü8:30 ä 9:00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, want := clockMatches(s), clockRE.FindAllStringSubmatchIndex(s, -1)
		if len(got) != len(want) {
			t.Fatalf("clockMatches(%q) = %v, clockRE finds %v", s, got, want)
		}
		for i := range got {
			if !slices.Equal(got[i], want[i]) {
				t.Fatalf("clockMatches(%q) = %v, clockRE finds %v", s, got, want)
			}
		}
	})
}

// FuzzHrsClockGate: no text that the byte tests before hrsClockRE turn
// away ("hr", "hour", four digits and an H) holds a match of it.
func FuzzHrsClockGate(f *testing.F) {
	for _, s := range []string{"0845 hrs", "1615hr (4:15pm)", "0130 H (1:30AM)", "0130H", "H 1234 H", "12345 H", "H", " H"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gate := strings.Contains(s, "hr") || strings.Contains(s, "hour") || fourDigitsH(s)
		if !gate && hrsClockRE.MatchString(s) {
			t.Fatalf("the gate turns %q away, but hrsClockRE finds %q", s, hrsClockRE.FindString(s))
		}
	})
}

// FuzzDottedClockMay: no text that dottedClockMay turns away holds a
// match of dottedClockRE.
func FuzzDottedClockMay(f *testing.F) {
	for _, s := range []string{
		"klo 8.00", "Kl. 07.05 – 09.25", "godz.\n7.05", "10.30 Uhr", "10.30UHR.", "a las 9.30",
		"\u212Al 8.00", "\u00c0S 9.15", "Preis 12.50 EUR am 12.05.", "um 10.30\num 11.00", "at 23.59",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !dottedClockMay(s) && dottedClockRE.MatchString(s) {
			t.Fatalf("dottedClockMay(%q) = false, but dottedClockRE finds %q", s, dottedClockRE.FindString(s))
		}
	})
}

// TestShortYearAfterMonthName: a year of two digits after a month's name,
// as text messages and booking systems print a day ("10 Jun 26, from PAT
// to BLR", "05-Nov-24 11:35", "am 21 Sep 26 um 06:35"), is the day's
// year; two digits before a clock's colon, a count or a weight are no
// year, and the day keeps none.
func TestShortYearAfterMonthName(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want string
	}{
		{"booking under PNR - QZ7TKM, 10 Jun 26, from PAT to BLR", "2026-06-10"},
		{"SG 8169 DEL-BOM 12 Jul 26 dep 06:05", "2026-07-12"},
		{"05-Nov-24 11:35", "2024-11-05"},
		{"on 03 Aug 26 at 22:40 hrs", "2026-08-03"},
		{"am 21 Sep 26 um 06:35 Uhr", "2026-09-21"},
		{"le 14 janv. 27 à 07:15", "2027-01-14"},
		{"valid 10 Jun 26 - 12 Jun 26", "2026-06-10"},
		{"Abfahrt 12 Dec 18:00", "0000-12-12"},
		{"1 Jun 20 kg baggage", "0000-06-01"},
		{"3 Mar 10 nights in Lisbon", "0000-03-03"},
		{"born 10 Jun 95", "0000-06-10"},
	} {
		ds := findDates(tc.s, false)
		got := ""
		if len(ds) > 0 {
			got = fmt.Sprintf("%04d-%02d-%02d", ds[0].y, ds[0].m, ds[0].d)
		}
		if got != tc.want {
			t.Errorf("findDates(%q) = %s, want %s", tc.s, got, tc.want)
		}
	}
}
