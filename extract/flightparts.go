package extract

import (
	"regexp"
	"slices"
	"strings"

	"mailnode/extract/lang"
	"mailnode/extract/places"
	"mailnode/extract/words"
)

// Flights read by their parts (issue 46, class "a new layout gives
// nothing"). The readers of textFlights each know a layout: a number
// over its window, stops stacked under their clocks, a table, a row.
// An airline's layout none of them knows gave no flight at all, though
// its parts were all there: the number, two airports (by code or by
// name, on lines of their own, in parentheses, or a route "Da Roma
// Fiumicino a Londra Gatwick"), the clocks and a day. partsFlights is
// the last resort of a booking's mail whose numbers no reader could
// read: each number's parts are gathered from the lines it owns,
// whatever their order, and the side of the numbers their parts lie on
// (below each number, or above it) is the one on which most numbers
// find whole flights, one side for the whole mail.

// partsWindow is how many lines with text a number's parts may lie
// from it, on its side.
const partsWindow = 14

// partsFlights reads each hit's flight from its parts, for the numbers
// the mail's readers left; known are the flights they read, by number.
func (c *msgContext) partsFlights(lines []string, hits []hit, known map[string]*Segment) []*Segment {
	// A booking's code the number reader took for a flight's
	// ("Lufthansa booking code:", "ZZ0016") is none.
	// Nor is a gate's or a seat's three characters ("B12" under a
	// column of labels): no layout of these tells a flight so short.
	ref := c.recordLocator(strings.Join(lines, "\n"))
	hits = slices.DeleteFunc(slices.Clone(hits), func(h hit) bool {
		d, n, _ := strings.Cut(h.num, " ")
		return ref != "" && strings.HasPrefix(ref, d) && strings.HasSuffix(ref, n) && strings.Contains(lines[h.line], ref) ||
			len(d+n) <= 3
	})
	read := func(below bool) []*Segment {
		var out []*Segment
		for i, h := range hits {
			var from, to int
			if below {
				from, to = h.line, len(lines)
				if i+1 < len(hits) {
					to = hits[i+1].line
				}
				to = textLinesEnd(lines, h.line, to, partsWindow)
				// A route by names right above the number heads its
				// flight ("Da Roma Fiumicino (T1) a Londra Gatwick",
				// "EZY8330", "Partenza: …"), and so does a departure's
				// day and clock alone on the line right above it
				// ("06:50 - 14 May 2026", "KL1187", "08:25 - 14 May
				// 2026"): its line is this flight's, when no earlier
				// number owns it.
				for j := h.line - 1; j >= 0 && j >= h.line-3 && (i == 0 || j > hits[i-1].line); j-- {
					if routeAbove(lines[j]) {
						from = j
						break
					}
					if strings.TrimSpace(lines[j]) != "" {
						if c.dayClockLine(lines[j]) {
							from = j
						}
						break
					}
				}
			} else {
				from, to = 0, h.line+1
				if i > 0 {
					from = hits[i-1].line + 1
				}
				from = max(from, textLinesStart(lines, h.line, from, partsWindow))
			}
			if seg := c.flightFromParts(lines, from, to, !below); seg != nil {
				seg.Number = h.num
				out = append(out, seg)
			}
		}
		return out
	}
	below, above := read(true), read(false)
	if score(above, known) > score(below, known) {
		return above
	}
	return below
}

// score is how well a side's reading fits a mail: a flight for each
// number it reads, and the flights the layouts' readers read (known,
// by number) count twice, for it when it reads them alike, against it
// when it reads them otherwise: the side a mail's own layout puts its
// flights' parts on reads the flights a reader could read as that
// reader did.
func score(segs []*Segment, known map[string]*Segment) int {
	n := len(segs)
	for _, s := range segs {
		if k, ok := known[s.Number]; ok {
			if k.From != nil && k.To != nil && k.From.Code == s.From.Code && k.To.Code == s.To.Code {
				n += 2
			} else {
				n -= 2
			}
		}
	}
	return n
}

// textLinesStart is where n lines with text above line i begin, at
// least at limit.
func textLinesStart(lines []string, i, limit, n int) int {
	for i--; i > limit; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			if n--; n <= 0 {
				return i
			}
		}
	}
	return limit
}

// partClock is a clock of a flight's window, on line at.
type partClock struct {
	clock    clockMatch
	at       int
	dep, arr bool // its line carries a departure's or an arrival's label
	plus     int  // the days after the departure's that "+1" after it says
}

// dayPlusRE is a count of days after a clock ("09:30 h +1", "06:10
// (+1)").
var dayPlusRE = regexp.MustCompile(`^\s*(?:h\b)?\s*\(?\+\s?([1-3])\b`)

// flightFromParts reads one flight from lines[from:to]: the first two
// airports its lines name and its first two clocks, or the last two of
// each when the number ends the lines (last: the parts nearest the
// number are its flight's, those further up a header's or a
// passenger's), and the departure's day on its clock's line or the
// nearest above it.
func (c *msgContext) flightFromParts(lines []string, from, to int, last bool) *Segment {
	// The places in the order the lines name them: an airport's code,
	// or a name that means no one airport ("Aberdeen": Scotland's and
	// South Dakota's), which the other end's country chooses between.
	type part struct{ code, name string }
	var parts []part
	var clocks []partClock
	for i := from; i < to; i++ {
		ln := lines[i]
		if len(ln) > 200 || strings.TrimSpace(ln) == "" {
			continue
		}
		// A train's or a bus's heading ends the flight's lines: what
		// follows is a ground leg of the same trip ("Treno", "15.05.2026",
		// "Partenza 10:15 Roma Termini").
		if i > from && groundHeading(ln) {
			to = i
			break
		}
		cs := findClocks(ln)
		for _, ck := range cs {
			pc := partClock{clock: ck, at: i, dep: stopLabelOn(depLabel, ln), arr: stopLabelOn(arrLabel, ln)}
			if m := dayPlusRE.FindStringSubmatch(ln[ck.end:]); m != nil {
				pc.plus = int(m[1][0] - '0')
			}
			// A desk's, a gate's or a bag drop's clock is no stop's.
			if checkLineRE.MatchString(ln) || len(cs) == 1 && !pc.dep && !pc.arr && serviceClockLine(ln) {
				continue
			}
			clocks = append(clocks, pc)
		}
		if ac := airportCodes(ln); len(ac) > 0 {
			for _, code := range ac {
				parts = append(parts, part{code: code})
			}
			continue
		}
		if len(cs) > 0 {
			// A printed receipt's row: the two cities' names run
			// together before the number ("BRASILIA JOAO PESSOA O66342
			// K 17Aug 11:55 14:40").
			if a, b := runTogetherPair(ln); a != "" {
				parts = append(parts, part{code: a}, part{code: b})
			}
			continue
		}
		if a, b := namedRoute(ln); a != "" {
			parts = append(parts, part{code: a}, part{code: b})
			continue
		}
		// A line that only looks like a code before its city ("ITA
		// Airways" under "Operated by") names no airport.
		if p := placeAlone(ln); p != nil && p.Code != "" && places.Serves(p.Name, p.Code) {
			parts = append(parts, part{code: p.Code})
		} else if name := strings.TrimSpace(ln); p == nil && len(name) <= 40 && !hasDigit(name) && len(strings.Fields(name)) <= 4 && !strings.HasSuffix(name, ":") && len(places.CityAirports(name)) > 1 {
			parts = append(parts, part{name: name})
		}
	}
	if last {
		slices.Reverse(parts)
	}
	var codes []string
	for i, p := range parts {
		code := p.code
		if code == "" {
			// Its country is the other end's: the next code's, else the
			// last one's.
			for _, q := range append(slices.Clone(parts[i+1:]), parts[:i]...) {
				if q.code != "" {
					code = airportNear(p.name, q.code)
					break
				}
			}
		}
		if code != "" && !slices.Contains(codes, code) {
			codes = append(codes, code)
		}
		if len(codes) == 2 {
			break
		}
	}
	if last {
		slices.Reverse(codes)
		if len(clocks) > 2 {
			clocks = clocks[len(clocks)-2:]
		}
	}
	if len(codes) < 2 || len(clocks) == 0 {
		return nil
	}
	// The first two clocks in the order the lines give them: labels
	// differ from airline to airline, the order of a flight's stops
	// does not.
	dep, arr := 0, -1
	if len(clocks) > 1 {
		arr = 1
	}
	dc := clocks[dep]
	// The departure's day: on its clock's line, else the nearest above
	// it, in the window and then a few lines above it (a leg's heading).
	var day dateMatch
	var colDay *dateMatch // the arrival's day, in the column of its clock
	found := false
	for i := dc.at; !found && i >= max(0, from-4); i-- {
		if ds := c.dates(lines[i]); len(ds) > 0 {
			day, found = ds[0], true
			if i == dc.at {
				// The last date before the clock on its line.
				for _, d := range ds {
					if d.start < dc.clock.start {
						day = d
					}
				}
			} else if cs := findClocks(lines[dc.at]); len(cs) == len(ds) && len(cs) > 1 {
				// Columns: a row of days over a row of clocks, each
				// clock's day the one in its column ("Sat, Oct 9, 2027
				// \t Fri, Oct 8, 2027" over "09:50 PM \t 11:05 AM").
				for k, ck := range cs {
					if ck.start == dc.clock.start {
						day = ds[k]
					}
					if arr >= 0 && clocks[arr].at == dc.at && ck.start == clocks[arr].clock.start {
						colDay = &ds[k]
					}
				}
			} else {
				day = ds[len(ds)-1]
			}
		}
	}
	// Else the first below it ("Boston BOS 17:05 - Roma FCO 07:35",
	// then "14 maggio 2026").
	for i := dc.at + 1; !found && i < to; i++ {
		if ds := c.dates(lines[i]); len(ds) > 0 {
			day, found = ds[0], true
		}
	}
	if !found {
		return nil
	}
	day = day.withYear(c.ref)
	depPlace, arrPlace := &Place{Code: codes[0]}, &Place{Code: codes[1]}
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, From: depPlace, To: arrPlace}
	seg.Depart = resolve(at(day, &dc.clock), c.airportZone(depPlace), c.dateLoc)
	if arr < 0 {
		return seg
	}
	ac := clocks[arr]
	aday := day.plusDays(ac.plus)
	explicit := ac.plus > 0
	if colDay != nil {
		aday, explicit = colDay.withYear(c.ref), true
	}
	if ds := c.dates(lines[ac.at]); len(ds) > 0 {
		// The arrival's own date: the last before its clock on its line
		// ("14/05/2026 09:35 14/05/2026 11:00").
		for _, d := range ds {
			if d.start < ac.clock.start && (ac.at != dc.at || d.start > dc.clock.end) {
				aday, explicit = d.withYear(c.ref), true
			}
		}
	}
	seg.Arrive = resolve(at(aday, &ac.clock), c.airportZone(arrPlace), c.dateLoc)
	if !explicit && seg.Arrive.Before(seg.Depart.Time) {
		seg.Arrive = resolve(at(aday.plusDays(1), &ac.clock), c.airportZone(arrPlace), c.dateLoc)
	}
	if seg.Arrive.Before(seg.Depart.Time) {
		seg.Arrive = nil
	}
	return seg
}

// runTogetherPair reads the two airports whose names stand run together
// before a line's flight number, split where exactly one split gives two
// airports ("BRASILIA JOAO PESSOA": Brasília and João Pessoa); "" when
// none or several do.
func runTogetherPair(ln string) (string, string) {
	m := flightNumRE.FindStringIndex(ln)
	if m == nil {
		if m = icaoFlightRE.FindStringIndex(ln); m == nil {
			return "", ""
		}
	}
	words := strings.Fields(ln[:m[0]])
	if len(words) < 2 || len(words) > 6 || hasDigit(ln[:m[0]]) {
		return "", ""
	}
	from, to := "", ""
	for i := 1; i < len(words); i++ {
		a, b := namedPair(strings.Join(words[:i], " "), strings.Join(words[i:], " "))
		if a == nil || b == nil || a.Code == "" || b.Code == "" || a.Code == b.Code {
			continue
		}
		if from != "" {
			return "", ""
		}
		from, to = a.Code, b.Code
	}
	return from, to
}

// airportNear is the one airport open today of the city name in the
// same country as the airport code, or "".
func airportNear(name, code string) string {
	country := places.CountryOf(code)
	if country == "" {
		return ""
	}
	found := ""
	for _, a := range places.CityAirports(name) {
		if a.Country == country {
			if found != "" {
				return ""
			}
			found = a.Code
		}
	}
	return found
}

// groundVehicleWords are the words of a train, a bus and a coach
// (vehicle.* in extract/lang).
var groundVehicleWords = words.NewWholeSet(append(append(lang.Entries("vehicle.train"), lang.Entries("vehicle.bus")...), lang.Entries("vehicle.coach")...))

// groundHeading reports whether a line is a train's, a bus's or a
// coach's word alone, as a heading ("Treno", "Train:", "Bus"), or names
// one with its number (surfaceVehicleRE).
func groundHeading(ln string) bool {
	t := strings.TrimRight(strings.TrimSpace(ln), ":")
	if len(t) > 0 && len(t) <= 12 && !strings.Contains(t, " ") && groundVehicleWords.In(lower(t)) {
		return true
	}
	return len(ln) < 400 && surfaceVehicleRE.MatchString(ln)
}

// serviceClockWords are the words of a line whose clock is a service's,
// not the flight's: check-in, bag drop, boarding, a gate's closing
// (clock.service in extract/lang).
var serviceClockWords = words.NewWholeSet(lang.Entries("clock.service"))

func serviceClockLine(ln string) bool { return serviceClockWords.In(lower(ln)) }
