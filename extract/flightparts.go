package extract

import (
	"slices"
	"strings"
	"unicode"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
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
// the last resort for the numbers of a booking's mail that no reader
// read: each number's parts are gathered from the lines it owns,
// whatever their order, and the side of the numbers their parts lie on
// (below each number, or above it) is chosen once for the whole mail
// (partsScore).

// partsWindow is how many lines with text a number's parts may lie
// from it, on its side.
const partsWindow = 14

// partsFlights reads each hit's flight from its parts, for the numbers
// the mail's readers left; ref is the booking's code, known the flights
// the readers read, by number.
func (c *msgContext) partsFlights(lines []string, hits []hit, ref string, known map[string]*Segment) []*Segment {
	// A booking's code the number reader took for a flight's
	// ("Lufthansa booking code:", "ZZ0016") is none, nor is a gate's or
	// a seat's ("B12" under a column of labels: gateShaped), nor a
	// number its line names as another booking's ("Arriving flight: LH
	// 1234" in a transfer's mail) or the lines above it offer ("Seats
	// are still available on:").
	hits = slices.DeleteFunc(slices.Clone(hits), func(h hit) bool {
		d, n, _ := strings.Cut(h.num, " ")
		return ref != "" && strings.HasPrefix(ref, d) && strings.HasSuffix(ref, n) && strings.Contains(lines[h.line], ref) ||
			gateShaped(d, n) || flightReferenceWords.In(lower(lines[h.line])) || offeredAbove(lines, h.line)
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
			floor := 0 // the previous number's line, which no day is read above
			if i > 0 {
				floor = hits[i-1].line + 1
			}
			if seg := c.flightFromParts(lines, from, to, floor, !below); seg != nil {
				seg.Number = h.num
				out = append(out, seg)
			}
		}
		return out
	}
	below, above := read(true), read(false)
	if partsScore(above, known) > partsScore(below, known) {
		return above
	}
	return below
}

// partsScore is how well a side's reading fits a mail: a flight for each
// number it reads, and the flights the layouts' readers read (known,
// by number) count twice, for it when it reads them alike, against it
// when it reads them otherwise: the side a mail's own layout puts its
// flights' parts on reads the flights a reader could read as that
// reader did.
func partsScore(segs []*Segment, known map[string]*Segment) int {
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
var dayPlusRE = lazyregexp.New(`^\s*(?:h\b)?\s*\(?\+\s?([1-3])\b`)

// flightFromParts reads one flight from lines[from:to]: the first two
// airports its lines name and its clocks labelled as departure and
// arrival, else its first two, or the last two of each when the number
// ends the lines (last: the parts nearest the number are its flight's,
// those further up a header's or a passenger's), and the departure's
// day (see below); floor is the first line after the previous number's.
func (c *msgContext) flightFromParts(lines []string, from, to, floor int, last bool) *Segment {
	// The places in the order the lines name them: an airport's code,
	// or a name that means no one airport ("Aberdeen": Scotland's and
	// South Dakota's), which the other end's country chooses between.
	type part struct {
		code, name string
		at         int // the line's index
	}
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
		// A not-stop's word counts for the clocks after it: "06:45, 14 okt
		// 2026 08:30, 14 okt 2026 | Reistijd: 1h 45min" keeps its two.
		notStop := len(cs) > 0 && notStopWords.In(lower(ln))
		for _, ck := range cs {
			notStop := notStop && notStopWords.In(lower(ln[:ck.start]))
			pc := partClock{clock: ck, at: i, dep: stopLabelOn(depLabel, ln), arr: stopLabelOn(arrLabel, ln)}
			if m := dayPlusRE.FindStringSubmatch(ln[ck.end:]); m != nil {
				pc.plus = int(m[1][0] - '0')
			}
			// A desk's, a gate's or a bag drop's clock is no stop's, nor
			// a duration's, an office's hours, advice's ("be at the
			// airport by 05:30") or the old time of a changed flight
			// ("Previous: … 11:40 - 13:40").
			if checkLineRE.MatchString(ln) || len(cs) == 1 && !pc.dep && !pc.arr && serviceClockLine(ln) || notStop {
				continue
			}
			clocks = append(clocks, pc)
		}
		// A passenger's line names no airport ("Passenger: MR BEN
		// LEE": Benghazi and Leesburg by their codes).
		if passengerLine(ln) {
			continue
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
			} else {
				for _, code := range gluedCodes(ln) {
					parts = append(parts, part{code: code})
				}
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
			parts = append(parts, part{code: p.Code, name: strings.TrimSpace(ln), at: i})
		} else if t, n := strings.TrimSpace(ln), len(parts); len(t) == 3 && places.Known(t) && !commonUpperWord[t] && n > 0 && parts[n-1].name != "" && parts[n-1].at == prevTextLine(lines, i) {
			// An airport's code alone under a city's name ("Tokyo" over
			// "NRT", a card's stop): the stop is that airport, not the
			// one the city's name means (HND), which the code refines.
			parts[n-1] = part{code: t, at: i}
		} else if name := strings.TrimSpace(ln); p == nil && len(name) <= 40 && !hasDigit(name) && len(strings.Fields(name)) <= 4 && !strings.HasSuffix(name, ":") && len(places.CityAirports(name)) > 1 {
			parts = append(parts, part{name: name, at: i})
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
	// The clocks labelled as the departure's and the arrival's, else the
	// first two in the order the lines give them: labels differ from
	// airline to airline, the order of a flight's stops does not.
	dep, arr := 0, -1
	if len(clocks) > 1 {
		arr = 1
	}
	ld, la := -1, -1
	for i, pc := range clocks {
		if ld < 0 && pc.dep && !pc.arr {
			ld = i
		}
		if la < 0 && pc.arr && !pc.dep {
			la = i
		}
	}
	if ld >= 0 && la > ld {
		dep, arr = ld, la
	}
	dc := clocks[dep]
	// The departure's day: on its clock's line, else the nearest above
	// it in the number's lines, else the first below it there ("Boston
	// BOS 17:05 - Roma FCO 07:35", then "14 maggio 2026"), else the
	// nearest above them, within four lines and never above the previous
	// number's (a leg's heading). A day the mail was booked or issued on
	// is none.
	var day dateMatch
	var colDay *dateMatch // the arrival's day, in the column of its clock
	found := false
	take := func(i int) bool {
		ds := c.dates(lines[i])
		if len(ds) == 0 || bookedDayLine(lines[i]) {
			return false
		}
		switch cs := findClocks(lines[dc.at]); {
		case i == dc.at:
			// The last date before the clock on its line, else its first.
			day = ds[0]
			for _, d := range ds {
				if d.start < dc.clock.start {
					day = d
				}
			}
		case len(cs) == len(ds) && len(cs) > 1:
			// Columns: a row of days over a row of clocks, each clock's
			// day the one in its column ("Sat, Oct 9, 2027 \t Fri, Oct
			// 8, 2027" over "09:50 PM \t 11:05 AM").
			for k, ck := range cs {
				if ck.start == dc.clock.start {
					day = ds[k]
				}
				if arr >= 0 && clocks[arr].at == dc.at && ck.start == clocks[arr].clock.start {
					colDay = &ds[k]
				}
			}
		case i < dc.at:
			day = ds[len(ds)-1]
		default:
			day = ds[0]
		}
		return true
	}
	for i := dc.at; !found && i >= from; i-- {
		found = take(i)
	}
	for i := dc.at + 1; !found && i < to; i++ {
		found = take(i)
	}
	for i := from - 1; !found && i >= max(floor, from-4); i-- {
		found = take(i)
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
	if from, to := oneCut(words, namedPair); from != nil {
		return from.Code, to.Code
	}
	return "", ""
}

// gluedCodes are the airports a booking system's printout glues to
// their cities' names or to each other, in a line's order: a code run
// into its city in capitals ("BNKBALLINA, AUSTRALIA": Ballina's BNK),
// two codes run together ("SYDADL"). A word counts only when its code
// serves its city, or both halves are codes; nil unless two are found.
func gluedCodes(ln string) []string {
	var out []string
	ws := strings.FieldsFunc(ln, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	// A printout's row is in capitals; a word of capitals in a sentence
	// is a heading's or a name's ("TRAVEL Kutchery Road, Multan This
	// reservation will be held …": no Taramajima and Vernal).
	lowerWords := 0
	for _, w := range ws {
		if len(w) >= 3 && strings.IndexFunc(w, unicode.IsLower) >= 0 {
			lowerWords++
		}
	}
	if lowerWords >= 3 {
		return nil
	}
	for k, w := range ws {
		if len(w) < 6 || !isUpper(w) {
			continue
		}
		switch {
		case len(w) == 6 && places.Known(w[:3]) && places.Known(w[3:]) && !commonUpperWord[w[:3]] && !commonUpperWord[w[3:]] && !wordInCapsName(ws, k):
			out = append(out, w[:3], w[3:])
		case places.Known(w[:3]) && places.Serves(w[3:], w[:3]):
			out = append(out, w[:3])
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// wordInCapsName reports whether word k of ws is a word of a name printed in
// capitals, not two codes run together: the word beside it is one of
// three capitals or more ("BUENOS AIRES", "MEXICO CITY", "A MERINO
// BENITEZ": BUE and NOS, MEX and ICO, MER and INO are airports too), or
// the word alone names an airport's city.
func wordInCapsName(ws []string, k int) bool {
	for _, j := range []int{k - 1, k + 1} {
		if j >= 0 && j < len(ws) && len(ws[j]) >= 3 && isUpper(ws[j]) && !hasDigit(ws[j]) {
			return true
		}
	}
	_, ok := places.AirportByName(ws[k])
	return ok
}

// airportNear is the one airport open today of the city name in the
// same country as the airport code, or "".
//
// A city with a large airport elsewhere is that city: "London" to
// Toronto is no flight to London, Ontario, nor "Paris" to Dallas one
// from Paris, Texas (the fourteenth outside review, HIGH-5); the choice
// is between namesakes none of which is a large airport's city.
func airportNear(name, code string) string {
	country := places.CountryOf(code)
	if country == "" {
		return ""
	}
	found := ""
	for _, a := range places.CityAirports(name) {
		if a.Large && a.Country != country {
			return ""
		}
		if a.Country == country {
			if found != "" {
				return ""
			}
			found = a.Code
		}
	}
	return found
}

// groundVehicleWords are the words of a train and a bus (vehicle.* in
// extract/lang); a coach's are not: "Coach" is a cabin's class too.
var groundVehicleWords = words.NewWholeSet(append(lang.Entries("vehicle.train"), lang.Entries("vehicle.bus")...))

// groundHeading reports whether a line is a train's or a bus's word
// alone, as a heading ("Treno", "Train:", "Bus"), or names one with its
// number (surfaceVehicleRE), but for a service's line ("Boarding by bus
// 2 from gate 4").
func groundHeading(ln string) bool {
	if wordHeading(ln, groundVehicleWords) {
		return true
	}
	return len(ln) < 400 && surfaceVehicleRE.MatchString(ln) && !serviceClockLine(ln)
}

// legStatusWords label a leg's status (leg.status in extract/lang).
var legStatusWords = words.NewWholeSet(lang.Entries("leg.status"))

// cancelLegs marks cancelled the flights of out whose number's own lines
// (up to the next number, eight at most) say so ("LX 1579", "Status:",
// "cancelled"), whatever their neighbours say (the fourteenth outside
// review, MEDIUM-11).
func cancelLegs(lines []string, hits []hit, out []Fact) {
	for i, h := range hits {
		end := min(len(lines), h.line+8)
		if i+1 < len(hits) {
			end = min(end, hits[i+1].line)
		}
		if !legCancelled(lines[h.line+1 : end]) {
			continue
		}
		for _, f := range out {
			if f.Segment.Number == h.num {
				f.Segment.Status = StatusCancelled
			}
		}
	}
}

// legCancelled reports whether a leg's lines label its status as
// cancelled: "Status: Cancelled", or "Status:" over "cancelled".
func legCancelled(lines []string) bool {
	for i, ln := range lines {
		label, value, ok := strings.Cut(ln, ":")
		if !ok || len(label) > 20 || !legStatusWords.In(lower(label)) {
			continue
		}
		if strings.TrimSpace(value) == "" && i+1 < len(lines) {
			value = lines[i+1]
		}
		return cancelledWords.In(lower(value))
	}
	return false
}

// boardingPassWords name a boarding pass (boarding.pass in extract/lang),
// a booked flight's sign where its card prints the booking's code in a
// column of labels the locator reader cannot pair.
var boardingPassWords = words.NewWholeSet(lang.Entries("boarding.pass"))

// notStopWords are the words of a line whose clock is no stop's
// (clock.notstop in extract/lang): a duration's, an office's hours, a
// time to be at the airport by, a changed flight's old time.
var notStopWords = words.NewWholeSet(lang.Entries("clock.notstop"))

// bookedDayWords label the day a booking was made or a ticket issued
// (date.booked in extract/lang), which is no flight's.
var bookedDayWords = words.NewWholeSet(lang.Entries("date.booked"))

func bookedDayLine(ln string) bool { return bookedDayWords.In(lower(ln)) }

// flightReferenceWords label a flight another booking refers to (a
// transfer's "Arriving flight: LH 1234": flight.reference in
// extract/lang); offeredWords offer a flight (flight.offered).
var (
	flightReferenceWords = words.NewWholeSet(lang.Entries("flight.reference"))
	offeredWords         = words.NewWholeSet(lang.Entries("flight.offered"))
	passengerWords       = words.NewWholeSet(lang.Entries("label.passenger"))
)

// offeredAbove reports whether the number's line or one of the two lines
// with text above it offers flights ("Seats are still available on:").
func offeredAbove(lines []string, i int) bool {
	for n := 0; i >= 0 && n < 3; i-- {
		if strings.TrimSpace(lines[i]) == "" {
			continue
		}
		if offeredWords.In(lower(lines[i])) {
			return true
		}
		n++
	}
	return false
}

// passengerLine reports whether a line is labelled as a passenger's
// ("Passenger: MR BEN LEE", "Name: …").
func passengerLine(ln string) bool {
	label, _, ok := strings.Cut(ln, ":")
	return ok && len(label) <= 30 && passengerWords.In(lower(label))
}

// gateShaped reports whether a number is shaped as a gate's or a seat's
// ("B12", "C4"): a letter, a digit and at most two digits more. Flights
// with a designator of letters keep one digit ("EK 1", "BA1").
func gateShaped(designator, digits string) bool {
	return len(designator) == 2 && designator[0] >= 'A' && designator[0] <= 'Z' && isDigitByte(designator[1]) && len(digits) <= 2
}

// wordHeading reports whether a line is one word of set alone, a colon
// after it or none, as a heading ("Treno", "Train:").
func wordHeading(ln string, set *words.WholeSet) bool {
	t := strings.TrimRight(strings.TrimSpace(ln), ":")
	return len(t) > 0 && len(t) <= 12 && !strings.Contains(t, " ") && set.In(lower(t))
}

// serviceClockWords are the words of a line whose clock is a service's,
// not the flight's: check-in, bag drop, boarding, a gate's closing
// (clock.service in extract/lang).
var serviceClockWords = words.NewWholeSet(lang.Entries("clock.service"))

func serviceClockLine(ln string) bool { return serviceClockWords.In(lower(ln)) }

// prevTextLine is the index of the last line before i that is not blank,
// or -1.
func prevTextLine(lines []string, i int) int {
	for j := i - 1; j >= 0; j-- {
		if strings.TrimSpace(lines[j]) != "" {
			return j
		}
	}
	return -1
}
