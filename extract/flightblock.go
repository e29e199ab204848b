package extract

import (
	"strings"
	"unicode/utf8"
)

// Stops stacked one field a line, as low-cost carriers' HTML mails
// flatten under their "Departing / Arriving" headers (blockStopAt): the
// city ("Ho Chi Minh City"), the day ("Mon 11 Feb 2019"), the clock,
// perhaps in both its twelve- and 24-hour forms ("5:20am / 05:20"), the
// airport by its name or code, perhaps with its terminal ("Tan Son Nhat
// International Airport - Domestic Terminal"). The flight's number is
// above the block, under the leg's date and beside its aircraft and fare.

// blockStopAt reads a stop whose first line, i, names a place: the next
// non-blank lines (at most four, a departure's or an arrival's label
// among them skipped) hold the day alone and the clock alone or doubled,
// and perhaps the airport's own line. The airport a later line names
// (the airport under its city) is the stop's.
//
// An e-ticket's table flattened row by row may start the place's line
// with the stop's label and end it with the terminal ("Departure
// Санкт-Петербург, Пулково (LED) Терминал: 1"), and give the clock
// before the day, the day's line ending in the fare's class ("14:10"
// over "16 сентября 2019 Эконом (O)"): read the same.
func (c *msgContext) blockStopAt(lines []string, i int) (flightStop, bool) {
	ln := strings.TrimSpace(lines[i])
	// The day's line is next: byte tests before the label's and the
	// terminal's, which every line of a mail would pay for.
	if len(ln) < 3 || len(ln) > 120 || strings.HasSuffix(ln, ":") || !digitNext(lines, i) {
		return flightStop{}, false
	}
	ln = withoutTerminal(withoutStopLabel(ln))
	if len(ln) < 3 || len(ln) > 80 || hasDigit(ln) {
		return flightStop{}, false
	}
	// The city may be one the places data does not know ("Ha Noi"),
	// when the airport's line under the clock names the stop.
	p := blockPlace(ln)
	if p == nil {
		if len(ln) > 40 {
			return flightStop{}, false
		}
		p = &Place{Name: ln}
	}
	s := flightStop{head: i, top: i, place: p, end: i, reach: blockReach(lines, i)}
	clocked := false
	for j, tried := i+1, 0; j < len(lines) && j <= i+10 && tried < 4; j++ {
		l := strings.TrimSpace(lines[j])
		if l == "" {
			continue
		}
		tried++
		switch {
		case stopLabelAlone(l):
			continue
		case s.day == nil && !clocked && c.dateAlone(l):
			d := c.dates(l)[0]
			s.day = &d
		case s.day == nil && clocked && c.dateLeads(l):
			// The clock first, the day right under it.
			d := c.dates(l)[0]
			s.day, s.end = &d, j
			return s, s.place.Code != ""
		case !clocked && (clockAlone(l) || doubleClock(l)):
			s.clock, clocked, s.end = findClocks(l)[0], true, j
			if s.day == nil && !c.dateLeads(nextNonBlank(lines, j, 2)) {
				return flightStop{}, false // the day first, then the clock
			}
		case clocked:
			// The airport's own line under the clock names the stop
			// better than its city; anything else ends it.
			if q := blockPlace(l); q != nil {
				s.place, s.end = q, j
			}
			return s, s.place.Code != ""
		default:
			return flightStop{}, false
		}
	}
	return s, clocked && s.place.Code != ""
}

// blockPlace is the airport a stacked stop's line names, by its code or
// a name that means one airport, its terminal beside it left off
// ("Tan Son Nhat International Airport - Domestic Terminal", "London
// Luton, Terminal 1"); nil when it names none.
func blockPlace(l string) *Place {
	l = withoutTerminal(l)
	if p, _ := stopPlace(l); p != nil && p.Code != "" {
		return p
	}
	return nil
}

// withoutTerminal is l without a terminal after a dash or a comma, or
// after the airport's code in parentheses in any language
// (airport.terminal: "(LED) Терминал: 1", "(CDG) Terminal 2E").
func withoutTerminal(l string) string {
	for _, sep := range []string{" - ", " – ", ", "} {
		if k := strings.LastIndex(l, sep); k > 0 && strings.Contains(strings.ToLower(l[k:]), "terminal") {
			return strings.TrimSpace(l[:k])
		}
	}
	if k := strings.LastIndex(l, ") "); k > 0 {
		rest := strings.TrimSpace(l[k+2:])
		w, _, _ := strings.Cut(rest, " ")
		if len(rest) <= 24 && terminalWords.In(lower(strings.TrimRight(w, ":"))) {
			return l[:k+1]
		}
	}
	return l
}

// withoutStopLabel is l without a departure's or an arrival's word that
// starts it before a name ("Departure Санкт-Петербург, Пулково (LED)"),
// as a table's row flattened puts its label's cell before the place's.
func withoutStopLabel(l string) string {
	w, rest, ok := strings.Cut(l, " ")
	if !ok || !stopWords[strings.ToLower(strings.TrimSuffix(w, ":"))] {
		return l
	}
	rest = strings.TrimSpace(rest)
	if !startsUpper(rest) {
		return l
	}
	return rest
}

// dateLeads reports whether l starts with a day and goes on with a few
// words and no digit ("16 сентября 2019 Эконом (O)": the fare's class
// beside the day in a flattened row), or is the day alone.
func (c *msgContext) dateLeads(l string) bool {
	l = strings.TrimSpace(l)
	if c.dateAlone(l) {
		return true
	}
	ds := c.dates(l)
	if len(ds) == 0 || ds[0].start != 0 {
		return false
	}
	rest := l[ds[0].end:]
	return !hasDigit(rest) && utf8.RuneCountInString(rest) <= 24
}

// stopLabelAlone reports whether l is a departure's or an arrival's label
// alone ("Departing", "Arrive:"), which a stacked stop may print.
func stopLabelAlone(l string) bool {
	l = strings.TrimSuffix(l, ":")
	return len(l) <= 24 && stopWords[strings.ToLower(strings.TrimSpace(l))]
}

// doubleClock reports whether l is one clock in two forms and nothing
// else ("5:20am / 05:20", "17:05 (5:05 PM)"): two clocks of one minute.
func doubleClock(l string) bool {
	cs := findClocks(l)
	if len(cs) != 2 || cs[0].h != cs[1].h || cs[0].m != cs[1].m {
		return false
	}
	rest := []byte(l)
	blank(rest, cs[0].start, cs[0].end)
	blank(rest, cs[1].start, cs[1].end)
	return strings.Trim(string(rest), " /|()-–") == ""
}

// blockReach is how many lines above a block stop's first line its
// number may be: six lines that are not blank (the leg's aircraft, fare
// and duration between them).
func blockReach(lines []string, i int) int {
	n := 0
	for j := i - 1; j >= 0; j-- {
		if strings.TrimSpace(lines[j]) != "" {
			if n++; n == 6 {
				return i - j + 1
			}
		}
	}
	return i + 1
}

// digitNext reports whether the next line after i that is not blank is
// short and holds a digit (a day's line under a city's).
func digitNext(lines []string, i int) bool {
	for j := i + 1; j < len(lines) && j <= i+3; j++ {
		if l := strings.TrimSpace(lines[j]); l != "" {
			return len(l) <= 40 && hasDigit(l)
		}
	}
	return false
}
