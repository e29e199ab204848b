package extract

import (
	"testing"
	"time"
)

func TestNthWeekday(t *testing.T) {
	for _, tt := range []struct {
		year  int
		month time.Month
		n     int
		wd    time.Weekday
		want  int
		ok    bool
	}{
		{2024, time.March, -1, time.Sunday, 31, true},   // Europe's summer time, 2024
		{2024, time.October, -1, time.Sunday, 27, true}, // and its end
		{2024, time.March, 2, time.Sunday, 10, true},    // the United States'
		{2024, time.November, 1, time.Sunday, 3, true},
		{2024, time.February, 5, time.Monday, 0, false}, // February 2024 has four Mondays
		{2023, time.April, -5, time.Sunday, 2, true},    // April 2023 has five Sundays
	} {
		got, ok := nthWeekday(tt.year, tt.month, tt.n, tt.wd)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("nthWeekday(%d, %v, %d, %v) = %d, %v; want %d, %v", tt.year, tt.month, tt.n, tt.wd, got, ok, tt.want, tt.ok)
		}
	}
}

func TestUTCOffset(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"+0200", 7200, true}, {"-0500", -18000, true}, {"+0530", 19800, true}, {"+053000", 19800, true},
		{"0200", 0, false}, {"+2500", 0, false}, {"+02", 0, false}, {"+0a00", 0, false}, {"+-100", 0, false},
	} {
		if got, ok := utcOffset(tt.in); ok != tt.ok || got != tt.want {
			t.Errorf("utcOffset(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestYearlyRuleRefuses: rules of forms a zone does not take, which a
// general engine would expand, are not read.
func TestYearlyRuleRefuses(t *testing.T) {
	for _, r := range []string{
		"FREQ=SECONDLY", "FREQ=YEARLY;BYMONTH=3", "FREQ=YEARLY;BYMONTH=3;BYDAY=SU", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;INTERVAL=2",
		"FREQ=YEARLY;BYMONTH=3,4;BYDAY=-1SU", "FREQ=YEARLY;BYMONTH=13;BYDAY=-1SU", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1XX", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;COUNT=5",
	} {
		if _, _, _, _, ok := yearlyRule(r); ok {
			t.Errorf("yearlyRule(%q) read", r)
		}
	}
	if m, n, wd, _, ok := yearlyRule("FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;BYHOUR=3;BYMINUTE=0"); !ok || m != time.October || n != -1 || wd != time.Sunday {
		t.Errorf("Outlook's rule not read: %v %d %v %v", m, n, wd, ok)
	}
}
