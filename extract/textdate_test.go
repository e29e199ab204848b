package extract

import (
	"fmt"
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
