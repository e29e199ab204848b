package extract

import (
	"fmt"
	"testing"
)

// TestDateForms: dates written year first with slashes or dots, and a
// day "of" its month with a comma before the year; a version or a
// number whose groups are no month and day is no date.
func TestDateForms(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"Due date: 2030/03/25", "2030-03-25"},
		{"Zahlungsziel 2030.03.25", "2030-03-25"},
		{"Payment due on the 25th of March, 2030", "2030-03-25"},
		{"Due: 25 March, 2030", "2030-03-25"},
		{"Aanslagnummer: 2030.44.10871", ""},
		{"Ref 2030/03-25", ""},
		{"build 12030/03/25", ""},
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
