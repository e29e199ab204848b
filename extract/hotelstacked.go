package extract

import (
	"strings"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
)

// A stay card whose days stand over their labels, which give only the
// clock: a chain's confirmation ("Tuesday" / "Jul 07" / "Check In: 3:00
// PM" … "Monday" / "Jul 13" / "Check Out: 12:00 PM"), its lines apart by
// blank ones.

// stackedCheckRE is a check-in's or check-out's label alone on its line,
// spelt with a space, a hyphen or neither ("Check In:", "Check-out"),
// then perhaps a clock: group 1 the check-in's label, group 2 the
// check-out's, group 3 the rest of the line.
var stackedCheckRE = lazyregexp.New(`(?i)^[ \t]*(?:(` + spacedLabels("checkin") + `)|(` + spacedLabels("checkout") + `))[ \t]*:?[ \t]*(.{0,24})$`)

// clockWordsRE is up to three short words before a label's clock, a
// word for "from", "by" or "until" ("from", "before", "à partir de",
// "fra kl."); with no clock after them the rest is no clock.
var clockWordsRE = lazyregexp.New(`^(?:\p{L}{1,9}\.?[ \t]+){1,3}`)

// spacedLabels is a label category's alternatives that spell "check-in"
// as one word with a hyphen or not, with a space allowed in its place.
func spacedLabels(category string) string {
	var alts []string
	for _, e := range lang.Entries(category) {
		if strings.Contains(e, "-?") {
			alts = append(alts, strings.ReplaceAll(e, "-?", "[ -]?"))
		}
	}
	return strings.Join(longestFirst(alts), "|")
}

// stackedCheckDates reads a stay from such a card: each label's clock on
// the day alone on a line among the four lines above it (a weekday's
// line between), the year the mail's. Both or neither, the check-out
// after the check-in.
func (c *msgContext) stackedCheckDates(text string, z zoneHint) (in, out *Time) {
	if !strings.Contains(text, "heck") && !strings.Contains(text, "HECK") {
		return nil, nil
	}
	lines := strings.Split(firstLines(text, 80), "\n")
	for i, ln := range lines {
		m := stackedCheckRE.FindStringSubmatch(ln)
		if m == nil {
			continue
		}
		rest := strings.TrimSpace(m[3])
		var ck *clockMatch
		if rest != "" {
			// "Check-in from 12:00", "Check out before 13:00", "Check-in
			// ab 15:00": a word or three for "from" or "by" before it.
			rest = clockWordsRE.ReplaceAllString(rest, "")
			if !clockAlone(rest) {
				continue
			}
			cs := findClocks(rest)
			ck = &cs[0]
		}
		day := c.dayAbove(lines, i)
		if day == nil {
			continue
		}
		t := resolve(at(day.withYear(c.ref), ck), z, c.dateLoc)
		switch {
		case m[1] != "" && in == nil:
			in = t
		case m[2] != "" && in != nil && out == nil:
			out = t
		}
	}
	if in == nil || out == nil || !out.After(in.Time) {
		return nil, nil
	}
	return in, out
}

// dayAbove is the date alone on a line among the four lines with text
// above line i, weekdays' lines passed over; nil at a line that is
// neither (the card's other label, its nights, its address).
func (c *msgContext) dayAbove(lines []string, i int) *dateMatch {
	for j, n := i-1, 0; j >= 0 && n < 4; j-- {
		ln := strings.TrimSpace(lines[j])
		if ln == "" {
			continue
		}
		n++
		if c.dateAlone(ln) {
			ds := c.dates(ln)
			return &ds[0]
		}
		if weekdayNames[strings.ToLower(strings.Trim(ln, ",."))] == 0 {
			return nil
		}
	}
	return nil
}
