package extract

import (
	"fmt"
	"strings"
	"unicode"

	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
)

// A booking's one leg by what its whole text names once (bookedRouteLeg):
// a PDF's table whose cells came out scrambled (a cell wrapped around its
// row, the departure's and the arrival's clocks on one line with a
// weekday's stub between them, "9:00 p.m. Dom. 10:00 p.m.", the day on
// the line under them) gives no reader a window, and an airline that
// prints its flight's digits without its designator ("No. Vuelo" over
// "6915") gives none a number to start from. What is sure is what the
// mail names once: its booking's code, one route by two airports' codes
// ("Tramo: AQP-LIM", a fare's line), one day of travel from the mail's
// day on; and, when the mail has no other clocks, its two clocks on one
// line. The leg carries no number: a brand's designator is not guessed.

// routeCodesRE is a route by two airports' codes apart by a dash or an
// arrow ("AQP-LIM", "NCL – BHX", "OPO→FNC").
var routeCodesRE = lazyregexp.New(`(?:^|[^\pL\d])([A-Z]{3}) ?(?:-|–|→|->|>) ?([A-Z]{3})(?:[^\pL\d]|$)`)

// bookedRouteLeg reads the leg of a booking's mail (text) that no flight
// reader read: its route is the one route line the text prints (no
// digit on it, every other airport's code the text names one of its
// two), its day the one day the text names on the mail's day or after it
// (a line of the day a ticket was issued aside), its clocks the text's
// only two, on one line; without them the leg has its day alone. Nil
// unless the mail names its booking's code.
func (c *msgContext) bookedRouteLeg(text string) *Segment {
	if c.date.IsZero() || len(text) > 64<<10 || !strings.ContainsAny(text, "-–→>") {
		return nil
	}
	lines := strings.Split(text, "\n")
	var from, to string
	var named []string // the airports the text names in a sure form
	for _, ln := range lines {
		if !threeCapitals(ln) {
			continue
		}
		for _, m := range parenCode.FindAllStringSubmatch(ln, -1) {
			if places.Known(m[1]) {
				named = append(named, m[1])
			}
		}
		named = append(named, commaCellCodes(ln)...)
		ms := routeCodesRE.FindAllStringSubmatch(ln, -1)
		var pairs [][2]string
		for _, m := range ms {
			if routeCode(m[1]) && routeCode(m[2]) && m[1] != m[2] {
				named = append(named, m[1], m[2])
				pairs = append(pairs, [2]string{m[1], m[2]})
			}
		}
		// The route's own line: one route, no digit ("Tramo: AQP-LIM";
		// not a fare's "LHR-JFK from 299").
		if len(pairs) != 1 || len(ms) != 1 || len(ln) > 60 || hasDigit(ln) {
			continue
		}
		if from != "" && (from != pairs[0][0] || to != pairs[0][1]) {
			return nil // two routes: a return's, or a choice
		}
		from, to = pairs[0][0], pairs[0][1]
	}
	if from == "" {
		return nil
	}
	for _, code := range named {
		if code != from && code != to {
			return nil // a third airport: a connection, or another trip
		}
	}
	ref := c.recordLocator(text)
	if ref == "" {
		return nil
	}
	// The day: one, from the mail's own day on.
	sent := c.date.Format("2006-01-02")
	var day *dateMatch
	var clocks []clockMatch
	clockLine := -1
	for i, ln := range lines {
		if !hasDigit(ln) {
			continue
		}
		if cs := findClocks(ln); len(cs) > 0 {
			if clockLine >= 0 && clockLine != i {
				clockLine = -2 // clocks on two lines: none is sure
			} else if clockLine != -2 {
				clockLine = i
			}
			clocks = append(clocks, cs...)
		}
		if bookedDayLine(ln) {
			continue
		}
		for _, d := range c.dates(ln) {
			d = d.withYear(c.ref)
			if d.y == unknownYear || dayString(d) < sent {
				continue
			}
			if day != nil && dayString(*day) != dayString(d) {
				return nil // two days: which is the flight's?
			}
			day = &d
		}
	}
	if day == nil {
		return nil
	}
	dep, arr := &Place{Code: from}, &Place{Code: to}
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, From: dep, To: arr, Reservation: ref}
	if clockLine < 0 || len(clocks) != 2 || !clockPairLine(lines[clockLine], clocks) {
		seg.Depart = resolve(at(*day, nil), c.airportZone(dep), c.dateLoc)
		return seg
	}
	seg.Depart = resolve(at(*day, &clocks[0]), c.airportZone(dep), c.dateLoc)
	seg.Arrive = resolve(at(*day, &clocks[1]), c.airportZone(arr), c.dateLoc)
	if seg.Arrive.Before(seg.Depart.Time) {
		// Past midnight: the next day's arrival.
		seg.Arrive = resolve(at(day.plusDays(1), &clocks[1]), c.airportZone(arr), c.dateLoc)
	}
	if seg.Arrive.Before(seg.Depart.Time) {
		seg.Arrive = nil
	}
	return seg
}

// routeCode reports whether w, three capitals, is an airport's code a
// route may name: known, and no label's or common word's capitals.
func routeCode(w string) bool {
	return places.Known(w) && !labelCode[w] && !commonUpperWord[w]
}

// dayString is d as "2006-01-02", which orders as days do.
func dayString(d dateMatch) string {
	return fmt.Sprintf("%04d-%02d-%02d", d.y, d.m, d.d)
}

// clockPairLine reports whether ln is a departure's and an arrival's
// clocks (cs, the line's two) and nothing else but a dash, an arrow, or
// day words between them: a weekday whole or cut short by a table's
// column ("9:00 p.m. Dom. 10:00 p.m.", "6:40 am Tues 7:45 am").
func clockPairLine(ln string, cs []clockMatch) bool {
	if len(cs) != 2 || cs[0].end > cs[1].start || strings.TrimSpace(ln[:cs[0].start]) != "" ||
		strings.Trim(ln[cs[1].end:], " \t.") != "" {
		return false
	}
	for _, w := range strings.FieldsFunc(ln[cs[0].end:cs[1].start], func(r rune) bool { return !unicode.IsLetter(r) }) {
		if !weekdayStub(w) {
			return false
		}
	}
	return true
}

// weekdayStub reports whether w is a weekday's name, or its first three
// letters or more ("Domi", "Mitt").
func weekdayStub(w string) bool {
	lw := strings.ToLower(w)
	if _, ok := weekdayNames[lw]; ok {
		return true
	}
	if len([]rune(lw)) < 3 {
		return false
	}
	for name := range weekdayNames {
		if strings.HasPrefix(name, lw) {
			return true
		}
	}
	return false
}

// commaCellCodes are the airports a table's cells name as a city, its
// airport's code and the airport's name apart by commas, without spaces
// ("Medellín,MDE,José María Córdova", "Bogotá,BOG,Puente Aéreo", as a
// PDF's text gives a Colombian e-ticket's cells): a known code between
// two commas, whose city's name before it (up to three words) or the
// word after it is one the code serves. Nil on a line with fewer than
// two commas, most lines.
func commaCellCodes(ln string) []string {
	if strings.Count(ln, ",") < 2 {
		return nil
	}
	var out []string
	for i := 0; i+4 < len(ln); i++ {
		if ln[i] != ',' || ln[i+4] != ',' || !isUpper(ln[i+1:i+4]) {
			continue
		}
		code := ln[i+1 : i+4]
		if !places.Known(code) || labelCode[code] || commonUpperWord[code] {
			continue
		}
		before := strings.Fields(ln[:i])
		after, _, _ := strings.Cut(ln[i+5:], ",")
		if f := strings.Fields(after); len(f) > 0 && places.Serves(f[0], code) {
			out = append(out, code)
			continue
		}
		for n := 1; n <= 3 && n <= len(before); n++ {
			if name := strings.Join(before[len(before)-n:], " "); !strings.Contains(name, ",") && places.Serves(name, code) {
				out = append(out, code)
				break
			}
		}
	}
	return out
}
