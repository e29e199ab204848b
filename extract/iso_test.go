package extract

import (
	"testing"
	"time"
)

// TestISOTimestamps: the date and clock of an ISO 8601 timestamp in text,
// with the offset written after it; the offset is no clock of its own.
func TestISOTimestamps(t *testing.T) {
	for _, tc := range []struct {
		line       string
		date       string // y-m-d of the first date, "" for none
		clocks     []string
		offsetSecs []int // of each clock; -1 for none
	}{
		{"Departure: 2026-12-18T07:45:00+01:00", "2026-12-18", []string{"07:45"}, []int{3600}},
		{"arrival=2031-01-20T08:25:00Z", "2031-01-20", []string{"08:25"}, []int{0}},
		{"2027-03-01T23:05-0500 to 2027-03-02T06:10:30.5+00:00", "2027-03-01", []string{"23:05", "06:10"}, []int{-18000, 0}},
		{"2027-03-01T09:00", "2027-03-01", []string{"09:00"}, []int{-1}},
		{"Date: 2027-03-01 at 09:00", "2027-03-01", []string{"09:00"}, []int{-1}},
		{"Reference 2027-03-01T", "", nil, nil}, // a T and no clock: no timestamp
	} {
		ds := findDates(tc.line, false)
		got := ""
		if len(ds) > 0 {
			got = time.Date(ds[0].y, time.Month(ds[0].m), ds[0].d, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
		}
		if got != tc.date {
			t.Errorf("%q: date %q, want %q", tc.line, got, tc.date)
		}
		cs := findClocks(tc.line)
		if len(cs) != len(tc.clocks) {
			t.Errorf("%q: %d clocks, want %v", tc.line, len(cs), tc.clocks)
			continue
		}
		for i, c := range cs {
			w := at(dateMatch{y: 2027, m: 1, d: 1}, &c)
			if g := time.Date(2027, 1, 1, w.h, w.mi, 0, 0, time.UTC).Format("15:04"); g != tc.clocks[i] {
				t.Errorf("%q: clock %s, want %s", tc.line, g, tc.clocks[i])
			}
			off := -1
			if w.hasOffset {
				off = w.offset
			}
			if off != tc.offsetSecs[i] {
				t.Errorf("%q: clock %d offset %d, want %d", tc.line, i, off, tc.offsetSecs[i])
			}
			// Cut out, the clock leaves the date as written alone.
			if rest := tc.line[:c.start]; i == 0 && len(findDates(rest, false)) == 0 {
				t.Errorf("%q: %q before the clock holds no date", tc.line, rest)
			}
		}
	}
}

// TestKeyValueLabels: a machine's key=value lines read as labels, only in
// text with three of them; links and sums keep their "=".
func TestKeyValueLabels(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"pnr=K7TQ2M\ndeparture_time = 2026-12-18T07:45\norigin=ZRH\n", "pnr: K7TQ2M\ndeparture time: 2026-12-18T07:45\norigin: ZRH\n"},
		{"pnr=K7TQ2M\norigin=ZRH\n", "pnr=K7TQ2M\norigin=ZRH\n"},
		{"a=1\nb=2\nhttps://x.example/?q=1&r=2\nc=3\n", "a: 1\nb: 2\nhttps://x.example/?q=1&r=2\nc: 3\n"},
		{"x == y\n1+1=2\ntotal=3=3\n", "x == y\n1+1=2\ntotal=3=3\n"},
	} {
		if got := keyValueLabels(tc.in); got != tc.want {
			t.Errorf("keyValueLabels(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
