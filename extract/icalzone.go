package extract

import (
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-ical"
)

// A calendar's own time zones (RFC 5545 3.6.5): a TZID no zone database
// knows ("W. Europe Standard Time", as Outlook and the travel tools on
// Exchange name Windows' zones) is defined by the calendar's VTIMEZONE of
// that TZID, its STANDARD and DAYLIGHT rules each an onset and the offset
// from it. The rules are read in the one form zones use, a yearly onset on
// the nth weekday of a month (RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU), or
// a single onset; a general RRULE engine would let a hostile calendar ask
// for millions of occurrences a year.

// icalZones are the VTIMEZONE components of cal, by their TZID.
func icalZones(cal *ical.Calendar) map[string]*ical.Component {
	var out map[string]*ical.Component
	for _, comp := range cal.Children {
		if comp.Name != ical.CompTimezone {
			continue
		}
		id := comp.Props.Get(ical.PropTimezoneID)
		if id == nil || id.Value == "" {
			continue
		}
		if out == nil {
			out = map[string]*ical.Component{}
		}
		out[id.Value] = comp
	}
	return out
}

// zoneOffset is the offset from UTC, in seconds, of the wall time local
// (its fields read as written, its location ignored) under the rules of
// tz, a VTIMEZONE: the TZOFFSETTO of the rule whose last onset at or
// before local is the latest. ok is false when no rule can be read or
// none has begun.
func zoneOffset(tz *ical.Component, local time.Time) (offset int, ok bool) {
	wall := time.Date(local.Year(), local.Month(), local.Day(), local.Hour(), local.Minute(), local.Second(), 0, time.UTC)
	var latest time.Time
	for _, rule := range tz.Children {
		if rule.Name != ical.CompTimezoneStandard && rule.Name != ical.CompTimezoneDaylight {
			continue
		}
		to, ok := utcOffset(propValue(rule, ical.PropTimezoneOffsetTo))
		if !ok {
			continue
		}
		start, err := time.Parse("20060102T150405", propValue(rule, ical.PropDateTimeStart))
		if err != nil {
			continue
		}
		onset, ok := lastOnset(start, propValue(rule, ical.PropRecurrenceRule), wall)
		if !ok || onset.Before(latest) {
			continue
		}
		latest, offset = onset, to
	}
	return offset, !latest.IsZero()
}

// propValue is the value of comp's first property name, "" if none.
func propValue(comp *ical.Component, name string) string {
	if p := comp.Props.Get(name); p != nil {
		return strings.TrimSpace(p.Value)
	}
	return ""
}

// utcOffset reads a UTC offset (RFC 5545 3.3.14: "+0200", "-0500",
// "+053000") in seconds.
func utcOffset(v string) (int, bool) {
	if len(v) != 5 && len(v) != 7 || v[0] != '+' && v[0] != '-' {
		return 0, false
	}
	n, err := strconv.Atoi(v[1:])
	if err != nil || n < 0 {
		return 0, false
	}
	if len(v) == 5 {
		n *= 100
	}
	h, m, s := n/10000, n/100%100, n%100
	if h > 18 || m > 59 || s > 59 {
		return 0, false
	}
	sec := h*3600 + m*60 + s
	if v[0] == '-' {
		sec = -sec
	}
	return sec, true
}

// lastOnset is the last onset of a zone rule at or before wall: its
// DTSTART alone without a rule, else the yearly onsets of rrule from
// DTSTART (up to its UNTIL). ok is false when none is at or before wall
// or the rule is of a form zones do not use.
func lastOnset(start time.Time, rrule string, wall time.Time) (time.Time, bool) {
	if start.After(wall) {
		return time.Time{}, false
	}
	if rrule == "" {
		return start, true
	}
	month, nth, weekday, until, ok := yearlyRule(rrule)
	if !ok {
		return time.Time{}, false
	}
	for y := wall.Year(); y >= wall.Year()-1; y-- {
		d, ok := nthWeekday(y, month, nth, weekday)
		if !ok {
			return time.Time{}, false
		}
		on := time.Date(y, month, d, start.Hour(), start.Minute(), start.Second(), 0, time.UTC)
		if on.After(wall) || on.Before(start) || !until.IsZero() && on.After(until) {
			continue
		}
		return on, true
	}
	return time.Time{}, false
}

// yearlyRule reads an RRULE of a zone's onset: FREQ=YEARLY, one BYMONTH
// and one BYDAY with its week's number ("-1SU", "2SU"), an UNTIL perhaps.
func yearlyRule(rrule string) (month time.Month, nth int, weekday time.Weekday, until time.Time, ok bool) {
	yearly := false
	for part := range strings.SplitSeq(rrule, ";") {
		key, val, _ := strings.Cut(part, "=")
		switch strings.ToUpper(key) {
		case "FREQ":
			yearly = strings.EqualFold(val, "YEARLY")
		case "BYMONTH":
			m, err := strconv.Atoi(val)
			if err != nil || m < 1 || m > 12 {
				return 0, 0, 0, time.Time{}, false
			}
			month = time.Month(m)
		case "BYDAY":
			if len(val) < 3 {
				return 0, 0, 0, time.Time{}, false
			}
			n, err := strconv.Atoi(val[:len(val)-2])
			if err != nil || n == 0 || n < -5 || n > 5 {
				return 0, 0, 0, time.Time{}, false
			}
			wd, known := icalWeekdays[strings.ToUpper(val[len(val)-2:])]
			if !known {
				return 0, 0, 0, time.Time{}, false
			}
			nth, weekday = n, wd
		case "UNTIL":
			u, err := time.Parse("20060102T150405Z", val)
			if err != nil {
				if u, err = time.Parse("20060102", val); err != nil {
					return 0, 0, 0, time.Time{}, false
				}
			}
			until = u
		case "INTERVAL":
			if val != "1" {
				return 0, 0, 0, time.Time{}, false
			}
		case "BYHOUR", "BYMINUTE", "BYSECOND", "WKST":
			// The onset's clock is DTSTART's; Outlook writes these as
			// that clock again.
		default:
			return 0, 0, 0, time.Time{}, false
		}
	}
	return month, nth, weekday, until, yearly && month != 0 && nth != 0
}

var icalWeekdays = map[string]time.Weekday{"SU": time.Sunday, "MO": time.Monday, "TU": time.Tuesday, "WE": time.Wednesday,
	"TH": time.Thursday, "FR": time.Friday, "SA": time.Saturday}

// nthWeekday is the day of month of the nth weekday of a month (n < 0
// from its end: -1 the last); ok is false when the month has no such day.
func nthWeekday(year int, month time.Month, n int, wd time.Weekday) (int, bool) {
	days := time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if n > 0 {
		first := time.Date(year, month, 1, 0, 0, 0, 0, time.UTC).Weekday()
		d := 1 + (int(wd)-int(first)+7)%7 + (n-1)*7
		return d, d <= days
	}
	last := time.Date(year, month, days, 0, 0, 0, 0, time.UTC).Weekday()
	d := days - (int(last)-int(wd)+7)%7 + (n+1)*7
	return d, d >= 1
}
