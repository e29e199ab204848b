package extract

import "testing"

// TestWeekdayDecidesDate: a weekday before a slashed date of two readings
// says which one it is, whoever sends it; a date of one reading, or
// without a weekday, is read as before.
func TestWeekdayDecidesDate(t *testing.T) {
	for _, tc := range []struct {
		s       string
		usFirst bool
		m, d    int
	}{
		{"Sat 12/05/2026  3:25 PM", false, 12, 5},
		{"Sat 12/05/2026  3:25 PM", true, 12, 5},
		{"Tue 12/05/2026", true, 5, 12},
		{"Tue 12/05/2026", false, 5, 12},
		{"samedi 05/12/2026", true, 12, 5},
		{"12/05/2026", false, 5, 12},
		{"12/05/2026", true, 12, 5},
		{"Sat 25/12/2026", false, 12, 25},
		{"Mon 12/05/2026", false, 5, 12},
	} {
		ds := findDates(tc.s, tc.usFirst)
		if len(ds) != 1 || ds[0].m != tc.m || ds[0].d != tc.d {
			t.Errorf("findDates(%q, %v) = %+v, want month %d day %d", tc.s, tc.usFirst, ds, tc.m, tc.d)
		}
	}
}
