package extract

import (
	"mailnode/extract/lazyregexp"
	"strings"
)

// Flights told a line each, each stop by its city's name with its clock
// in parentheses after it (routeRowFlights): "18/10/26 | Salvador de
// Bahía (22:45) - Madrid (12:15) | UX0084", as Iberian and Latin
// American airlines' confirmations list a booking's flights. The date is
// the line's last before the route, the number the first after it; the
// cities are airports as a route's names are (namedPair: one main
// airport, or the one in the other end's part of the world).

// clockedRouteRE is two places, each with its clock in parentheses, apart
// by a dash or an arrow.
var clockedRouteRE = lazyregexp.New(`(\pL[^|()\d]{1,48}?)\s*\((\d{1,2}[:.h]\d{2})\)\s*(?:[-–—>→]|->)\s*(\pL[^|()\d]{1,48}?)\s*\((\d{1,2}[:.h]\d{2})\)`)

// routeRowFlights reads the legs of such lines, skipping the lines in
// skip; it returns the legs and their lines.
func (c *msgContext) routeRowFlights(lines []string, skip map[int]bool) ([]*Segment, []int) {
	var segs []*Segment
	var used []int
	for i, ln := range lines {
		// A byte test first: two brackets' pairs and a clock's colon.
		if skip[i] || len(ln) > 600 || strings.Count(ln, "(") < 2 || !strings.ContainsAny(ln, ":.h") {
			continue
		}
		m := clockedRouteRE.FindStringSubmatchIndex(ln)
		if m == nil {
			continue
		}
		ds := c.dates(ln[:m[0]])
		if len(ds) == 0 {
			continue
		}
		day := ds[len(ds)-1]
		// The date right before the route, at most a cell's bar between.
		if strings.Trim(ln[day.end:m[0]], " \t|·-–") != "" {
			continue
		}
		rest := ln[m[1]:]
		if len(rest) > 80 {
			rest = rest[:80]
		}
		n := flightNumRE.FindStringSubmatchIndex(rest)
		if n == nil || strings.Trim(rest[:n[0]], " \t|·-–") != "" || !isFlightDesignator(rest[n[2]:n[3]]) {
			continue
		}
		from, to := namedPair(ln[m[2]:m[3]], ln[m[6]:m[7]])
		if from == nil || to == nil || from.Code == to.Code {
			continue
		}
		dc, ac := findClocks(ln[m[4]:m[5]]), findClocks(ln[m[8]:m[9]])
		if len(dc) != 1 || len(ac) != 1 {
			continue
		}
		dep := flightStop{head: i, top: i, day: &day, clock: dc[0], place: from}
		arr := flightStop{head: i, top: i, clock: ac[0], place: to}
		seg := c.stackedLeg(dep, arr)
		if seg == nil {
			continue
		}
		seg.Number = rest[n[2]:n[3]] + " " + strings.TrimLeft(rest[n[4]:n[5]], "0")
		segs = append(segs, seg)
		used = append(used, i)
	}
	return segs, used
}
