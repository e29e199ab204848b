package extract

import (
	"strings"
	"time"
	"unicode"
)

// A rental platform's reservation block, as its host-guest messages and
// its guests' confirmations print it under the message: the home's title
// over its two days apart by a dash on a line of their own, the guests
// and the code below ("The Linen House" / "Thu, Sep 3, 2026 - Mon, Sep 7,
// 2026" / "2 guests" / "Confirmation code HM8KQ2ZRTW"). No label names
// the days, so only a booking's number makes them a stay's
// (issue 46, foreign-7; xf7r).

// rangeLine is a line that is a range of two days whole: each side a
// date, with at most a weekday's name besides ("jeu. 6 août 2026 – dim.
// 9 août 2026"); the dash has a space on either side, so that a date's
// own dashes ("2026-09-03") part nothing. It returns the line's index
// among lines and the two days, the start's year the end's when it
// names none.
func (c *msgContext) rangeLine(lines []string) (int, dateMatch, dateMatch, bool) {
	for i, ln := range lines {
		ln = strings.TrimSpace(ln)
		if len(ln) > 80 || !hasDigit(ln) {
			continue
		}
		var left, right string
		for _, d := range []string{" - ", " – ", " — "} {
			if a, b, ok := strings.Cut(ln, d); ok {
				left, right = a, b
				break
			}
		}
		if left == "" {
			continue
		}
		a, b := c.dates(left), c.dates(right)
		if len(a) != 1 || len(b) != 1 || !onlyWeekdayBesides(left, a[0]) || !onlyWeekdayBesides(right, b[0]) {
			continue
		}
		end := b[0].withYear(c.ref)
		start := a[0]
		if !start.hasYear {
			start.y, start.hasYear = end.y, true
			if before(end, start) {
				start.y--
			}
		}
		return i, start, end, true
	}
	return 0, dateMatch{}, dateMatch{}, false
}

// onlyWeekdayBesides reports whether s holds nothing but the date d and a
// weekday's name, commas and dots: "Thu, Sep 3, 2026", "jeu. 6 août 2026".
func onlyWeekdayBesides(s string, d dateMatch) bool {
	rest := s[:d.start] + " " + s[d.end:]
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if weekdayNames[strings.ToLower(w)] == 0 {
			return false
		}
	}
	return true
}

// blockStay reads a reservation block's days and the home's title over
// them: a title-shaped line (titleShaped) that is no heading's words
// alone ("RESERVATION", "Détails de la réservation"). The stay is at
// most 60 nights long.
func (c *msgContext) blockStay(text string, z zoneHint) (in, out *Time, title string) {
	if !strings.ContainsAny(text, "-–—") {
		return nil, nil, ""
	}
	lines := strings.Split(firstLines(text, 80), "\n")
	i, start, end, ok := c.rangeLine(lines)
	if !ok || !before(start, end) || dayCount(start, end) > 60 {
		return nil, nil, ""
	}
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		ln := strings.TrimSpace(lines[j])
		if ln == "" {
			continue
		}
		if titleShaped(ln, ":!?@|\t[]/\"«»“”") && !headingOnly(ln) {
			title = ln
		}
		break
	}
	return resolve(at(start, nil), z, c.dateLoc), resolve(at(end, nil), z, c.dateLoc), title
}

// dayCount is the number of days from a to b.
func dayCount(a, b dateMatch) int {
	t := func(d dateMatch) time.Time { return time.Date(d.y, time.Month(d.m), d.d, 0, 0, 0, 0, time.UTC) }
	return int(t(b).Sub(t(a)).Hours() / 24)
}
