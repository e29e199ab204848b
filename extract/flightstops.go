package extract

import (
	"slices"
	"strings"
	"unicode"

	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
)

// Flights whose stops are stacked as lines of their own (stopFlights):
// each stop a line with its date and clock ("zaterdag 27 juni 2026 -
// 12:45", "18.09.2025 - 08:25") and its airport under it, by its code
// ("Rome, Fiumicino Airport (FCO)", "(AMS)" on the line after the name,
// "…, FCO") or by a name that means one airport ("Munich"; a second name
// line, "Luxemburg" over "Luxembourg", when the first means none); an
// arrival on the departure's day may give its clock alone ("15:10"). The
// flight's number is on a line of its own, often with its operating
// airline or class, after the departure's stop and before the next leg's
// ("LH2460 Durchgeführt von: Lufthansa", "KL1604 |"), or above each leg
// when the mail prints the numbers first. Airlines' and agencies' booking
// and e-ticket mails lay their legs out so, outward, return and a change
// alike.

// flightStop is a stop of a stacked leg: its head line (the date and
// clock, or the clock alone), its day (nil for a clock alone), its clock
// and its airport, named on the lines up to end.
type flightStop struct {
	head, end int
	// top is the first line the stop reads (its day's line above its
	// head, or the head): a number above the leg is looked for above it.
	top int
	// reach is how many lines above top the leg's number may be; 0 for
	// five.
	reach int
	day   *dateMatch
	clock clockMatch
	place *Place
	coded bool // the airport by its code, not by a name alone
}

// stopFlights reads the legs laid out as stacked stops, of airports named
// by their codes only when coded is set. It returns the legs and the
// lines of their numbers, which the number's other readers must not read
// again.
func (c *msgContext) stopFlights(lines []string, skip map[int]bool, coded bool) ([]*Segment, []int) {
	var stops []flightStop
	var nums []hit
	text, trainWords := "", -1 // the mail's text and its words of trains, once asked
	code := "?"                // the airline's designator, once asked
	for i := 0; i < len(lines); i++ {
		if skip[i] {
			continue
		}
		if n := stackedNumber(lines, i); n != "" {
			// A regional train's number in a mail with words of trains
			// ("RE 4711" to the airport's station) is no flight's.
			if d, _, _ := strings.Cut(n, " "); railProducts[d] {
				if text == "" {
					text = strings.Join(lines, "\n")
				}
				if railProduct(d, text, &trainWords) {
					continue
				}
			}
			nums = append(nums, hit{i, n})
			continue
		}
		// "Flight 1123" alone in an airline's mail: the airline's
		// designator before the digits.
		if d := flightWordNumber(lines[i]); d != "" {
			if code == "?" {
				code = c.airlineDesignator(lines)
			}
			if code != "" {
				nums = append(nums, hit{i, code + " " + d})
				continue
			}
		}
		if s, ok := c.clockDateStopAt(lines, i); ok {
			stops = append(stops, s)
			i = s.end
		} else if s, ok := c.stopAt(lines, i); ok && (s.coded || !coded) {
			stops = append(stops, s)
			i = s.end
		} else if s, ok := c.codeStopAt(lines, i); ok {
			stops = append(stops, s)
			i = s.end
		} else if s, ok := c.blockStopAt(lines, i); ok && (s.coded || !coded) {
			stops = append(stops, s)
			i = s.end
		}
	}
	if len(nums) == 0 || len(stops) < 2 {
		return nil, nil
	}
	// A mail prints its numbers under their legs' departures, or each
	// above its leg; read both ways, the way that pairs more legs is the
	// mail's (a number above the first leg that opens a mail with the
	// numbers under their departures would pair each leg with the number
	// of the leg before it), the numbers under them on a tie.
	segs, used := c.stopLegs(stops, nums, false)
	if nums[0].line < stops[0].head {
		if s, u := c.stopLegs(stops, nums, true); len(s) > len(segs) {
			segs, used = s, u
		}
	}
	return segs, used
}

// stopLegs pairs stops into legs, each with its number: the one number
// after its departure and before the stop after its arrival, or with
// above set the number nearest above its departure, at most four lines
// up and below the leg before.
func (c *msgContext) stopLegs(stops []flightStop, nums []hit, above bool) ([]*Segment, []int) {
	var segs []*Segment
	var used []int
	last := -1 // the line where the last leg read ends
	for k := 0; k+1 < len(stops); {
		dep, arr := stops[k], stops[k+1]
		if dep.day == nil {
			k++
			continue
		}
		lo, hi := dep.head, arr.end+8
		if k+2 < len(stops) {
			hi = stops[k+2].head
		}
		if above {
			reach := 5
			if dep.reach > 0 {
				reach = dep.reach
			}
			lo, hi = max(last, dep.top-reach), dep.head
		}
		var found []hit
		for _, n := range nums {
			if n.line > lo && n.line < hi {
				found = append(found, n)
			}
		}
		if above && len(found) > 1 {
			found = found[len(found)-1:] // the one nearest its departure
		}
		if len(found) != 1 {
			k++
			continue
		}
		seg := c.stackedLeg(dep, arr)
		if seg == nil {
			k++
			continue
		}
		seg.Number = found[0].num
		segs = append(segs, seg)
		used = append(used, found[0].line)
		last = max(arr.end, found[0].line)
		k += 2
	}
	return segs, used
}

// stackedLeg is the leg from dep to arr: each clock at its airport's
// local time, the arrival on its own day or on the departure's (the next
// when its clock is earlier).
func (c *msgContext) stackedLeg(dep, arr flightStop) *Segment {
	if dep.place.Code == arr.place.Code {
		return nil
	}
	d := dep.day.withYear(c.ref)
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, From: dep.place, To: arr.place}
	seg.Depart = resolve(at(d, &dep.clock), c.airportZone(dep.place), c.dateLoc)
	ad := d
	if arr.day != nil {
		ad = arr.day.withYear(c.ref)
	}
	seg.Arrive = resolve(at(ad, &arr.clock), c.airportZone(arr.place), c.dateLoc)
	if seg.Depart == nil || seg.Arrive == nil {
		return nil
	}
	if arr.day == nil && seg.Arrive.Before(seg.Depart.Time) {
		seg.Arrive.Time = seg.Arrive.AddDate(0, 0, 1)
	}
	// A flight lands after it leaves and within a day: two stops of
	// other legs are no leg.
	if gap := seg.Arrive.Sub(seg.Depart.Time); gap <= 0 || gap > 24*60*60*1e9 {
		return nil
	}
	return seg
}

// stopAt reads a stop whose head is line i: a date and a clock alone on
// the line (or a clock alone), its airport on the next line or the one
// after it.
func (c *msgContext) stopAt(lines []string, i int) (flightStop, bool) {
	ln := strings.TrimSpace(lines[i])
	if len(ln) < 4 || len(ln) > 64 || !hasDigit(ln) {
		return flightStop{}, false
	}
	day, clock, ok := c.stopHead(ln)
	if !ok {
		return flightStop{}, false
	}
	s := flightStop{head: i, top: i, clock: clock, day: day}
	// The airport: on the next line, or the one after when the first is
	// a name that means none ("Luxemburg", then "Luxembourg"; "Amsterdam,
	// Schiphol Airport", then "(AMS)"). Blank lines between are a
	// flattened paragraph's.
	for j, tried := i+1, 0; j < len(lines) && j <= i+4 && tried < 2; j++ {
		l := strings.TrimSpace(lines[j])
		if l == "" {
			continue
		}
		tried++
		if findClocks(l) != nil || stackedNumber(lines, j) != "" {
			break
		}
		if p, coded := stopPlace(l); p != nil {
			s.place, s.end, s.coded = p, j, coded
			return s, true
		}
		if len(codeWord.FindAllStringIndex(l, 3)) > 1 {
			break // "LUX MUC": a leg's route, not a stop
		}
	}
	return flightStop{}, false
}

// codeStopAt reads a stop told one value a line, as an airline's app
// prints it: the airport's code alone (or in parentheses) on line i, its
// name perhaps under it, then its clock alone ("HSV", "Huntsville",
// "7:37 PM"); its day the date alone on a line above it, the leg's
// heading ("Monday, August 3, 2026"), unless a clock comes between (the
// leg's departure: an arrival takes the departure's day).
func (c *msgContext) codeStopAt(lines []string, i int) (flightStop, bool) {
	ln := strings.TrimSpace(lines[i])
	// A code alone or in parentheses at the line's end, tested by its
	// bytes before any expression runs on the line.
	if len(ln) < 3 || len(ln) > 64 || !(len(ln) == 3 && isUpper(ln) || ln[len(ln)-1] == ')' || len(ln) > 4 && ln[3] == ' ' && isUpper(ln[:3])) {
		return flightStop{}, false
	}
	var p *Place
	coded := false
	if len(ln) > 4 && ln[3] == ' ' && ln[len(ln)-1] != ')' {
		p, coded = labelledCodeName(lines, i, ln)
	} else {
		p, coded = stopPlace(ln)
	}
	if p == nil || !coded {
		return flightStop{}, false
	}
	s := flightStop{head: i, top: i, place: p, coded: true}
	found := false
	for j, tried := i+1, 0; j < len(lines) && j <= i+6 && tried < 3; j++ {
		l := strings.TrimSpace(lines[j])
		if l == "" {
			continue
		}
		tried++
		if clockAlone(l) {
			// A clock right over an airport heads a stop of its own
			// ("KLM", "09:20", "Kopenhagen, Kastrup", "(CPH)": the
			// operating airline above an arrival).
			if placeUnder(lines, j) {
				return flightStop{}, false
			}
			s.clock, s.end, found = findClocks(l)[0], j, true
			break
		}
		// The clock after its label ("Hora de salida:16:39", "Horário
		// de chegada: 10:20"): the label says whose clock it is.
		if cl, ok := labelledClock(l); ok {
			s.clock, s.end, found = cl, j, true
			break
		}
		// The day and the clock together under the name ("VCP", "São
		// Paulo, Viracopos-Campinas", "02/03/2026 - 13:20": an
		// airline's card that prints each airport over its time).
		if d, cl, ok := c.dayClockAlone(l); ok {
			s.day, s.clock, s.end, found = &d, cl, j, true
			break
		}
		// A name under the code; a number, a date or another code ends
		// the stop.
		if hasDigit(l) || cardCode(l) != "" {
			return flightStop{}, false
		}
		if s.place.Name == "" && tried == 1 {
			s.place.Name = l
		}
	}
	if !found {
		return flightStop{}, false
	}
	for j := i - 1; j >= 0 && j >= i-8 && s.day == nil; j-- {
		l := strings.TrimSpace(lines[j])
		if findClocks(l) != nil {
			break
		}
		if d, ok := c.stopDay(l); ok {
			s.day, s.top = &d, j
			// A leg's two days as a range over two lines ("jueves, 01
			// octubre -", "viernes, 02 octubre"): the departure's is the
			// first.
			for k := j - 1; k >= 0 && k >= j-2; k-- {
				l := strings.TrimSpace(lines[k])
				if l == "" {
					continue
				}
				if e, ok := c.stopDay(l); ok && strings.HasSuffix(strings.TrimRight(l, " "), "-") {
					s.day, s.top = &e, k
				}
				break
			}
			break
		}
	}
	return s, true
}

// stopHead reads a stop's head line: one clock, at most one date apart
// from it (nil without), nothing else but the words and marks a day is
// written with ("zaterdag 27 juni 2026 - 12:45", "15:10").
func (c *msgContext) stopHead(ln string) (*dateMatch, clockMatch, bool) {
	cs := findClocks(ln)
	if len(cs) != 1 {
		return nil, clockMatch{}, false
	}
	rest := []byte(ln)
	blank(rest, cs[0].start, cs[0].end)
	var day *dateMatch
	if ds := c.dates(ln); len(ds) == 1 {
		if ds[0].start < cs[0].end && cs[0].start < ds[0].end {
			return nil, clockMatch{}, false
		}
		day = &ds[0]
		blank(rest, day.start, day.end)
	} else if len(ds) > 1 {
		return nil, clockMatch{}, false
	}
	if !onlyDayWords(string(rest)) {
		return nil, clockMatch{}, false
	}
	return day, cs[0], true
}

// dayClockAlone reads a line that is one date and one clock, nothing
// else but the words and marks a day is written with ("02/03/2026 -
// 13:20", "Mon 2 Mar 2026, 13:20"): a stop's head with its day.
func (c *msgContext) dayClockAlone(l string) (dateMatch, clockMatch, bool) {
	if len(l) > 48 || !hasClockShape(l, ":.h") {
		return dateMatch{}, clockMatch{}, false
	}
	day, cl, ok := c.stopHead(l)
	if !ok || day == nil {
		return dateMatch{}, clockMatch{}, false
	}
	return *day, cl, true
}

// stopDay is the day of a line that is a date alone, or a date after a
// date's label at the line's end ("DETALLE RESERVA Fecha: 08/10/2026",
// "Data: 12/11/2026"), as an app's card heads its leg.
func (c *msgContext) stopDay(l string) (dateMatch, bool) {
	if c.dateAlone(l) {
		return c.dates(l)[0], true
	}
	k := strings.LastIndexByte(l, ':')
	if k < 0 || len(l) > 80 || !c.dateAlone(l[k+1:]) {
		return dateMatch{}, false
	}
	ws := strings.Fields(l[:k])
	if len(ws) == 0 || !dateColumnWords[strings.ToLower(ws[len(ws)-1])] {
		return dateMatch{}, false
	}
	return c.dates(l[k+1:])[0], true
}

// stopWords are the words of a departure's or an arrival's label
// ("Salida", "Llegada", "Partida", "Chegada", "Departure").
var stopWords = func() map[string]bool {
	m := wordSet("departure")
	for w := range wordSet("arrival") {
		m[w] = true
	}
	return m
}()

// labelledClock reads a clock after its label at the line's end: up to
// four words without a digit, one of them a departure's or an arrival's,
// and a colon ("Hora de salida:16:39", "Horário de partida: 07:15",
// "Salida: 20:05").
func labelledClock(l string) (clockMatch, bool) {
	k := strings.IndexByte(l, ':')
	if k < 0 || len(l) > 48 || hasDigit(l[:k]) || !clockAlone(l[k+1:]) {
		return clockMatch{}, false
	}
	ws := strings.Fields(l[:k])
	if len(ws) == 0 || len(ws) > 4 || !slices.ContainsFunc(ws, func(w string) bool { return stopWords[strings.ToLower(w)] }) {
		return clockMatch{}, false
	}
	return findClocks(l[k+1:])[0], true
}

// labelledCodeName reads a stop's line that opens with its airport's code
// before the name ("MAD MADRID, SPAIN", "EZE AEROPUERTO INTERNACIONAL DE
// EZEIZA") under a departure's or an arrival's label alone ("Salida:",
// "Chegada"), where stopPlace wants the name's city in the code's zone:
// the label says a stop follows (such a line is read only so: without the
// label it is no code stop's head). A line that is a place's name whole
// ("LOS ANGELES, CA": LOS is Lagos) of another airport, or a name of a
// city in another zone, is none.
func labelledCodeName(lines []string, i int, ln string) (*Place, bool) {
	// The label first: a map's look-up, where the places' are dearer.
	above := ""
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		if above = strings.TrimSpace(lines[j]); above != "" {
			break
		}
	}
	if above = strings.TrimSuffix(strings.TrimSpace(above), ":"); len(above) > 16 || !stopWords[strings.ToLower(above)] {
		return nil, false
	}
	code := ln[:3]
	zone, _ := places.Zone(code)
	if zone == "" || !places.Known(code) {
		return nil, false
	}
	name := strings.TrimSpace(ln[4:])
	if p := placeAlone(ln); p != nil && p.Code != code || hasDigit(name) {
		return nil, false
	}
	if city, _ := places.CityZone(name); city != "" && city != zone {
		return nil, false
	}
	return &Place{Name: name, Code: code}, true
}

// clockDateStopAt reads a stop told one value a line, its clock first
// (an agency's app: "17:20", "Mon 28 Dec", "London", "LTN"): the clock
// alone on line i, the date alone on the next line, then at most two
// names and the airport's code alone (or in parentheses at the line's
// end), blank lines between.
func (c *msgContext) clockDateStopAt(lines []string, i int) (flightStop, bool) {
	if !clockAlone(lines[i]) {
		return flightStop{}, false
	}
	s := flightStop{head: i, top: i, clock: findClocks(strings.TrimSpace(lines[i]))[0], coded: true}
	var names []string
	for j, tried := i+1, 0; j < len(lines) && j <= i+8 && tried < 4; j++ {
		l := strings.TrimSpace(lines[j])
		if l == "" {
			continue
		}
		tried++
		if tried == 1 {
			if !c.dateAlone(l) {
				return flightStop{}, false
			}
			ds := c.dates(l)
			s.day = &ds[0]
			continue
		}
		if len(l) == 3 && isUpper(l) || strings.HasSuffix(l, ")") {
			if p, coded := stopPlace(l); p != nil && coded {
				if p.Name == "" {
					p.Name = strings.Join(names, " ")
				}
				s.place, s.end = p, j
				return s, true
			}
			return flightStop{}, false
		}
		if hasDigit(l) {
			return flightStop{}, false
		}
		names = append(names, l)
	}
	return flightStop{}, false
}

// placeUnder reports whether one of the two lines under line j (blank
// lines skipped) names an airport before any line with a digit (a date,
// a number, a seat).
func placeUnder(lines []string, j int) bool {
	for k, tried := j+1, 0; k < len(lines) && tried < 2; k++ {
		l := strings.TrimSpace(lines[k])
		if l == "" {
			continue
		}
		tried++
		if hasDigit(l) {
			return false
		}
		if p, _ := stopPlace(l); p != nil {
			return true
		}
	}
	return false
}

// stopPlace is the airport a stop's line names: a code in parentheses
// ("Rome, Fiumicino Airport (FCO)", "(AMS)"), a known code alone or after
// the name and a comma ("…, FCO"), or a name that means one airport.
func stopPlace(l string) (*Place, bool) {
	if len(l) > 80 {
		return nil, false
	}
	// A code in parentheses proves the airport, a terminal's number
	// beside it or not ("München (MUC) Terminal 2").
	if codes := airportCodes(l); len(codes) == 1 {
		return &Place{Name: strings.Trim(strings.TrimSpace(parenCode.ReplaceAllString(l, "")), " ,"), Code: codes[0]}, true
	} else if len(codes) > 1 || hasDigit(l) {
		return nil, false
	}
	if code := cardCode(l); code != "" {
		return &Place{Code: code}, true
	}
	if k := strings.LastIndexByte(l, ','); k > 0 {
		if code := strings.TrimSpace(l[k+1:]); cardCode(code) != "" {
			return &Place{Name: strings.TrimSpace(l[:k]), Code: code}, true
		}
	}
	// One code beside the airport's name, before or after it ("FCO Rome
	// Fiumicino", "Rome Fiumicino – FCO"), the name's city in the code's
	// zone ("KLM Royal Dutch Airlines" names no place); two are a route
	// ("LUX MUC").
	if ws := codeWord.FindAllStringIndex(l, 2); len(ws) == 1 {
		code := l[ws[0][0]:ws[0][1]]
		name := strings.Trim(l[:ws[0][0]]+l[ws[0][1]:], " ,-–|·")
		if zone, _ := places.Zone(code); zone != "" && name != "" {
			if city, _ := places.CityZone(name); city == zone {
				return &Place{Name: name, Code: code}, true
			}
		}
		return nil, false
	} else if len(ws) > 1 {
		return nil, false
	}
	if p := placeAlone(l); p != nil && p.Code != "" {
		return p, false
	}
	return nil, false
}

// onlyDayWords reports whether what a stop's head holds besides its date
// and clock is punctuation, a weekday and the words for "at" and
// "o'clock" ("zaterdag", "Sa.,", "à", "Uhr").
func onlyDayWords(rest string) bool {
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) }) {
		lw := strings.ToLower(w)
		if !calendarWord(lw) && !afterClockWords[lw] && !slices.Contains(clockWordList, lw) && lw != "a" && lw != "las" {
			return false
		}
	}
	return true
}

// stackedNumber is the flight number that opens line i, alone or before
// its operating airline, class or a bar ("KL1604", "KL1602 |", "LH2460
// Durchgeführt von: Lufthansa"), perhaps after a word of flights
// ("Flight BA 2490"), as "KL 1604"; or "".
func stackedNumber(lines []string, i int) string {
	ln := strings.TrimSpace(lines[i])
	if len(ln) < 3 || len(ln) > 80 || !hasDigit(ln) {
		return ""
	}
	m := flightNumRE.FindStringSubmatchIndex(ln)
	if m == nil {
		return ""
	}
	if m[0] > 0 {
		pre := ln[:m[0]]
		if len(pre) > 24 || (hasDigit(pre) || travelWordCounts(pre)[0] == 0) && !airlineNamed(pre, ln[m[2]:m[3]]) {
			return ""
		}
	}
	rest := ln[m[1]:]
	// A clock, a date or a long number after it: a line of another
	// layout ("LH 400 FRA 10:05", "LH 400 18.09.2025"), or no flight
	// ("A4 210 x 297 mm"); an aircraft's type is its own ("· Airbus
	// A320").
	if len(rest) > 0 && unicode.IsLetter(rune(rest[0])) || hasDigit(rest) && !aircraftOnly(rest) {
		return ""
	}
	// The operating airline after it names the carrier of this number
	// ("Durchgeführt von: Lufthansa"): no codeshare's own line, which
	// starts with its phrase ("Also sold as SK 5711").
	if !isFlightDesignator(ln[m[2]:m[3]]) && !aboutFlights(lines, i) {
		return ""
	}
	return ln[m[2]:m[3]] + " " + strings.TrimLeft(ln[m[4]:m[5]], "0")
}

// airlineNamed reports whether pre, the words before a flight's number,
// are its airline's name: airlines.tsv's for the number's designator, or
// words that end in an airline's word ("S7 Airlines S7 6003", "Aegean
// Airlines A3 602"), as e-tickets print the carrier before its number.
func airlineNamed(pre, designator string) bool {
	ws := strings.Fields(pre)
	if len(ws) == 0 || len(ws) > 4 {
		return false
	}
	if airlineCodes[strings.ToUpper(strings.Join(ws, " "))] == designator {
		return true
	}
	return airlineNameWords[strings.ToLower(ws[len(ws)-1])] && isFlightDesignator(designator)
}

// flightWordNumber is the digits of a line that is a word for a flight
// (column.flight: not "Terminal 1") and a number alone ("Flight 1123", "Flug Nr. 4711", "Vol n° 1232"), as an
// airline's own mail prints its flights without its designator; or "".
func flightWordNumber(ln string) string {
	ln = strings.TrimSpace(ln)
	if len(ln) < 5 || len(ln) > 24 || !isDigitByte(ln[len(ln)-1]) {
		return ""
	}
	m := flightWordNumberRE.FindStringSubmatch(ln)
	if m == nil || m[3] != "" || !flightColumnWords[strings.ToLower(m[1])] {
		return ""
	}
	return strings.TrimLeft(m[2], "0")
}

// flightWordNumberRE is a word, perhaps a number's sign, and up to four
// digits (flightWordNumber), and what follows them after a separator, for
// a card's heading (flightWordHead).
var flightWordNumberRE = lazyregexp.New(`^(\pL+)\.?\s*(?:#|(?i:n[or]?\.?|n[°º]|nr\.?|no\.?)\s*)?:?\s*(\d{1,4})(?:\s*(?:[→·|,–—-]\s*|\s)(\S.*))?$`)

// flightWordHead is flightWordNumber of a card's heading that goes on
// with the flight's day ("Flight # 1834 → Sat, Oct 24, 2026", "Vol 8812 ·
// 14 oct. 2026"), or "": what follows the digits must be a date.
func (c *msgContext) flightWordHead(ln string) string {
	ln = strings.TrimSpace(ln)
	if len(ln) > 64 || !hasDigit(ln) {
		return ""
	}
	m := flightWordNumberRE.FindStringSubmatch(ln)
	if m == nil || m[3] == "" || !flightColumnWords[strings.ToLower(m[1])] || len(c.dates(m[3])) == 0 {
		return ""
	}
	return strings.TrimLeft(m[2], "0")
}

// labelledAirline is the airline's name a line gives after an airline's
// label (airline.label: "Airline: Wizz Air", "Luchtvaartmaatschappij: Wizz
// Air Vluchtnummer: 1999"), of up to four words as airlines.tsv holds it;
// or "".
func labelledAirline(ln string) string {
	i := strings.IndexAny(ln[:min(len(ln), 33)], ":\t") // a label of a few words
	if i <= 0 || !airlineLabels[strings.ToLower(strings.TrimSpace(strings.TrimLeft(ln[:i], "|*• ")))] {
		return ""
	}
	ws := strings.Fields(ln[i+1:])
	for k := min(4, len(ws)); k >= 1; k-- {
		if name := strings.Join(ws[:k], " "); airlineCodes[strings.ToUpper(name)] != "" {
			return name
		}
	}
	return ""
}

// airlineLabels are every language's labels of a flight's airline.
var airlineLabels = wordSet("airline.label")

// airlineDesignator is the designator of the airline whose mail lines
// are: its sender's name, else a line that is an airline's name alone
// ("JetBlue"), as airlines.tsv prints them; "" when none, or lines name
// two airlines.
func (c *msgContext) airlineDesignator(lines []string) string {
	if code := airlineCodes[strings.ToUpper(strings.TrimSpace(c.senderName))]; code != "" {
		return code
	}
	found := ""
	for _, ln := range lines {
		ln = strings.TrimSpace(ln)
		if name := labelledAirline(ln); name != "" {
			ln = name
		}
		if len(ln) < 3 || len(ln) > 40 || hasDigit(ln) {
			continue
		}
		if code := airlineCodes[strings.ToUpper(ln)]; code != "" {
			if found != "" && found != code {
				return ""
			}
			found = code
		}
	}
	if found == "" {
		// Else the airline the sender's domain is named for
		// ("flyfrontier.com", "jetblue.com"): the one name an airline's
		// card of cells may print of itself.
		label, _, _ := strings.Cut(orgDomain(strings.ToLower(c.senderDomain)), ".")
		label = strings.ToUpper(label)
		if code := airlineDomainCodes[label]; code != "" {
			return code
		}
		return airlineDomainCodes[strings.TrimPrefix(label, "FLY")]
	}
	return found
}

// airlineCodes are airlines.tsv's designators by the names it prints.
var airlineCodes = func() map[string]string {
	m := map[string]string{}
	for _, a := range gdsAirlines {
		m[a.name] = a.code
	}
	return m
}()

// airlineDomainCodes are airlines.tsv's designators by the names it
// prints as a domain writes them ("JETBLUE" for "JET BLUE"), of names of
// five letters or more: a short one ("AA") is too many domains' label.
var airlineDomainCodes = func() map[string]string {
	m := map[string]string{}
	for _, a := range gdsAirlines {
		if k := strings.ReplaceAll(a.name, " ", ""); len(k) >= 5 {
			m[k] = a.code
		}
	}
	return m
}()

// blank sets b[from:to] to spaces.
func blank(b []byte, from, to int) {
	for i := from; i < to && i < len(b); i++ {
		b[i] = ' '
	}
}

// stopsShaped reports whether a text whose words name no flight lays one
// out as stacked stops all the same, each airport by its code ("Madrid
// (MAD)", "…, FCO"): an airport's name alone may be a station's town too.
// A byte test first: two lines that end in a clock.
func (c *msgContext) stopsShaped(text string) bool {
	n := 0
	for ln := range strings.Lines(text) {
		if endsInClock(strings.TrimSpace(ln)) {
			if n++; n == 2 {
				break
			}
		}
	}
	if n < 2 {
		return false
	}
	lines := strings.Split(text, "\n")
	segs, _ := c.stopFlights(lines, nil, true)
	return len(segs) > 0
}

// endsInClock reports whether ln ends in a clock of one or two digits, a
// colon and two digits ("… - 10:15", "7:37 PM").
func endsInClock(ln string) bool {
	// A twelve-hour clock's mark after it ("7:37 PM", "8:00 am").
	if n := len(ln); n >= 3 && (ln[n-1] == 'M' || ln[n-1] == 'm') && (ln[n-2]|0x20 == 'a' || ln[n-2]|0x20 == 'p') {
		ln = strings.TrimRight(ln[:n-2], " ")
	}
	n := len(ln)
	return n >= 4 && ln[n-3] == ':' && isDigitByte(ln[n-1]) && isDigitByte(ln[n-2]) && isDigitByte(ln[n-4])
}

// aircraftOnly reports whether the digits of a number line's rest are an
// aircraft type's ("· Airbus A320neo", "| Boeing 737-800", "(E190)"): each
// run of digits at most four long, inside or right after a word, and no
// clock.
func aircraftOnly(rest string) bool {
	if findClocks(rest) != nil {
		return false
	}
	for i := 0; i < len(rest); {
		if !isDigitByte(rest[i]) {
			i++
			continue
		}
		j := i
		for j < len(rest) && isDigitByte(rest[j]) {
			j++
		}
		if j-i > 4 || i == 0 || rest[i-1] == '.' || rest[i-1] == '/' || j < len(rest) && (rest[j] == '.' || rest[j] == '/' || rest[j] == ':') {
			return false
		}
		// Right after a letter, or after a word and a space ("Boeing
		// 737"), or after a dash inside a type ("737-800").
		if prev := rest[i-1]; !(prev >= 'A' && prev <= 'Z' || prev >= 'a' && prev <= 'z' || prev == '-' ||
			prev == ' ' && i >= 2 && (rest[i-2] >= 'a' && rest[i-2] <= 'z' || rest[i-2] >= 'A' && rest[i-2] <= 'Z')) {
			return false
		}
		i = j
	}
	return true
}
