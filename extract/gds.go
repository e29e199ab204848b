package extract

import (
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"time"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
	"mailnode/extract/words"
)

// Booking systems' itinerary printouts (Amadeus, Sabre, Galileo and the
// travel agencies that paste them into mail) print one flight per line,
// in English whatever the mail's language:
//
//	1  LH1792 Y 14MAR 7 MUCLIS HK1  0955 1215   O*
//	BA 2594  02APR  LONDON GATWICK    ROME FIUMICINO    0715   1050
//	14MAR  LH 1792  FRANKFURT  LISBON  0955  1215+1
//
// airline and number, an optional booking class, the day and month run
// together ("14MAR", "14MAR27", "14MAR2027"), the city pair (six
// letters, two codes, or two columns of names), then departure and
// arrival as four digits, "+1" when the arrival is on the next day. The
// month is a month here, never an airport: "MAR" after a day is March,
// not Maracaibo.

const gdsMonths = `JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC`

// gdsMonthsTitle are gdsMonths as an e-ticket receipt prints them
// beside a two-digit year ("16Aug16").
const gdsMonthsTitle = `Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec`

// gdsWeekdays are a row's day of the week before its date ("MO 24APR").
const gdsWeekdays = `(?:MO|TU|WE|TH|FR|SA|SU|MON|TUE|WED|THU|FRI|SAT|SUN)`

var (
	gdsFlightFirstRE = lazyregexp.New(`^\s*(?:\d{1,2}\.?\s+)?([A-Z][A-Z0-9]|[0-9][A-Z])\s{0,2}(\d{1,4})\s*(?:[A-Z]\s+)?(?:` + gdsWeekdays + `\s+)?(\d{1,2})(` + gdsMonths + `)(\d{4}|\d{2})?\b(.*)$`)
	gdsDateFirstRE   = lazyregexp.New(`^\s*(?:\d{1,2}\.?\s+)?(\d{1,2})(` + gdsMonths + `)(\d{4}|\d{2})?\s+([A-Z][A-Z0-9]|[0-9][A-Z])\s{0,2}(\d{1,4})\b(?:\s*[A-Z]\b)?(.*)$`)
	gdsColumnsRE     = lazyregexp.New(`\s{2,}`)
	gdsCancelledRE   = lazyregexp.New(`\b(?:HX|XX|UN|UC|NO)\d?\b`)
)

var gdsMonthNum = map[string]int{"JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6, "JUL": 7, "AUG": 8, "SEP": 9, "OCT": 10, "NOV": 11, "DEC": 12}

// gdsRow reads one printout line as a flight, or returns nil.
func (c *msgContext) gdsRow(ln string) *Segment {
	if len(ln) > 200 || !hasDigit(ln) {
		return nil
	}
	var airline, num, day, mon, yy, rest string
	// A designator that is also a word ("DE", Condor's; "FR", Ryanair's)
	// is an airline's in a row whose date stands apart from the number:
	// "24NOV  DE 2124", "FR 8354  11MAY", never "MO 24APR" (Monday).
	apart := false
	if m := gdsFlightFirstRE.FindStringSubmatchIndex(ln); m != nil {
		airline, num, day, mon, rest = ln[m[2]:m[3]], ln[m[4]:m[5]], ln[m[6]:m[7]], ln[m[8]:m[9]], ln[m[12]:m[13]]
		if m[10] >= 0 {
			yy = ln[m[10]:m[11]]
		}
		apart = m[6] > m[5]
	} else if m := gdsDateFirstRE.FindStringSubmatch(ln); m != nil {
		day, mon, yy, airline, num, rest = m[1], m[2], m[3], m[4], m[5], m[6]
		apart = true
	} else if w, after, ok := strings.Cut(strings.TrimLeft(ln, " "), " "); ok && len(w) >= 3 && len(w) <= 8 && isUpper(w) &&
		travelWordCounts(w)[0] > 0 {
		// A row after a word of flights ("FLIGHT   SK 4035   SAT 22APR
		// OSLO GARDERMOEN      BERGEN FLESLAND").
		return c.gdsRow(strings.TrimLeft(after, " "))
	} else {
		return nil
	}
	if !isFlightDesignator(airline) && !apart {
		return nil
	}
	// Two clocks, the first of them after the city pair.
	clocks := gdsClocks(rest, 2)
	if len(clocks) < 2 {
		return nil
	}
	firstClock := clocks[0].start
	from, to := gdsCityPair(rest[:firstClock])
	if from == nil || to == nil {
		return nil
	}
	d, ok := c.gdsDate(day, mon, yy)
	if !ok {
		return nil
	}
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, From: from, To: to,
		Number: airline + " " + strings.TrimLeft(num, "0")}
	seg.Depart, seg.Arrive = c.gdsTimes(d, clocks[0], clocks[1], from, to)
	if gdsCancelledRE.MatchString(rest[firstClock:]) || gdsCancelledRE.MatchString(rest[:firstClock]) {
		seg.Status = StatusCancelled
	}
	return seg
}

// gdsCityPair reads the departure and arrival airports from the part of a
// printout line before the times: "7 MUCLIS HK1", "FRA LIS", two
// columns of names set apart by two or more spaces, or two names apart by
// a slash.
func gdsCityPair(s string) (from, to *Place) {
	var cols []*Place
	for _, col := range gdsColumnsRE.Split(strings.TrimSpace(s), -1) {
		// Receipts print the pair as one column, "FRANKFURT/BARCELONA".
		if a, b, ok := strings.Cut(col, "/"); ok && !strings.Contains(b, "/") {
			if pa, pb := namedPair(a, b); pa != nil && pb != nil {
				cols = append(cols, pa, pb)
				continue
			}
		}
		// Or apart by a dash between spaces ("LONDON HEATHROW - NEW
		// YORK JFK").
		if a, b, ok := cutDash(col); ok {
			if pa, pb := gdsPlace(a), gdsPlace(b); pa != nil && pb != nil {
				cols = append(cols, pa, pb)
				continue
			}
		}
		// A column may open with the dash or arrow between the two
		// ("NEW YORK JFK   - LONDON HEATHROW").
		if p := gdsPlace(strings.TrimLeft(col, "-–>→ ")); p != nil {
			cols = append(cols, p)
		}
	}
	if len(cols) >= 2 {
		return cols[0], cols[1]
	}
	// Two names in one column, apart by one space ("SAN FRANCISCO
	// LONDON HEATHROW"): the one cut of its words into two airports.
	if len(cols) == 0 {
		if from, to := splitNames(strings.TrimSpace(s)); from != nil {
			return from, to
		}
	}
	fields := strings.Fields(s)
	code := func(f string) bool { return len(f) == 3 && isUpper(f) && places.Known(f) }
	for i, f := range fields {
		// "LONDON" is a name, not LON and DON.
		if _, name := places.AirportByName(f); name || len(places.LargeAirportsIn(f)) > 0 {
			continue
		}
		if len(f) == 6 && code(f[:3]) && code(f[3:]) && !wordInCapsName(fields, i) {
			return &Place{Code: f[:3]}, &Place{Code: f[3:]}
		}
		if len(f) == 7 && (f[3] == '-' || f[3] == '/') && code(f[:3]) && code(f[4:]) {
			return &Place{Code: f[:3]}, &Place{Code: f[4:]}
		}
		if i+1 < len(fields) && code(f) && code(fields[i+1]) {
			return &Place{Code: f}, &Place{Code: fields[i+1]}
		}
	}
	return nil, nil
}

// namedPair reads a route's two airports by name. A city with several
// large airports ("BARCELONA": Spain's and Venezuela's) is the one in the
// same part of the world as the other end, when only one is.
func namedPair(a, b string) (from, to *Place) {
	from, to = airportNamed(a), airportNamed(b)
	switch {
	case from == nil && to != nil:
		from = nearestNamed(a, to)
	case to == nil && from != nil:
		to = nearestNamed(b, from)
	}
	return from, to
}

func nearestNamed(name string, other *Place) *Place {
	region := func(code string) string {
		zone, _ := places.Zone(code)
		r, _, _ := strings.Cut(zone, "/")
		return r
	}
	want := region(other.Code)
	var found *Place
	for _, code := range places.LargeAirportsIn(strings.TrimSpace(name)) {
		if want != "" && region(code) == want {
			if found != nil {
				return nil
			}
			found = &Place{Name: strings.TrimSpace(name), Code: code}
		}
	}
	return found
}

// airportNamed reads a column that names an airport: "LONDON GATWICK",
// "ROME FIUMICINO", "FRANKFURT".
func airportNamed(col string) *Place {
	col = strings.TrimSpace(col)
	if len(col) < 3 || hasDigit(col) {
		return nil
	}
	if code, ok := places.AirportByName(col); ok {
		return &Place{Name: col, Code: code}
	}
	if code := cardCode(col); code != "" && len(col) > 5 {
		return &Place{Name: strings.TrimSpace(col[:len(col)-5]), Code: code} // "Barcelona (BCN)"
	}
	words := strings.Fields(col)
	for _, w := range []string{words[len(words)-1], words[0]} {
		if code, ok := places.AirportByName(w); ok && len(w) > 3 {
			return &Place{Name: col, Code: code}
		}
	}
	if len(words) == 2 && len(words[1]) == 3 && isUpper(words[1]) && places.Known(words[1]) {
		return &Place{Name: words[0], Code: words[1]} // "PARIS CDG"
	}
	if n := len(col); n > 5 && col[n-4] == '-' && isUpper(col[n-3:]) && places.Known(col[n-3:]) {
		return &Place{Name: col[:n-4], Code: col[n-3:]} // "Paris-CDG"
	}
	return nil
}

// codeshare phrases of every language, lower case.
var codesharePhrases = lang.Entries("codeshare")

// codeshareSelf are the codeshare phrases that name the number before
// them a codeshare (codeshare.self), not its flight's operator.
var codeshareSelf = wordSet("codeshare.self")

// codeshareAt reports whether the flight number at byte offset pos of a
// line is a codeshare's: after "operated by", "also sold as" and the
// like, or on a line that names a codeshare and gives no time.
func codeshareAt(ln string, pos int) bool {
	lower := strings.ToLower(ln)
	for _, p := range codesharePhrases {
		i := strings.Index(lower, p)
		if i < 0 {
			continue
		}
		// After the number, without a time: the line names the number a
		// codeshare ("LH 6651 CODESHARE"); an operator named after it
		// ("DL 7811 operated by Philippine Airlines") is its own flight's.
		if i < pos || findClocks(ln) == nil && codeshareSelf[p] {
			return true
		}
	}
	return false
}

// gdsTimesLineRE is a booking system's line of a flight's two times
// alone, under its row's airports: "DEP 0715   ARR 0735", "0715 0735+1".
var gdsTimesLineRE = lazyregexp.New(`(?i)^\s*(?:dep\.?\s+)?([0-2]\d[0-5]\d)\s+(?:arr\.?\s+)?([0-2]\d[0-5]\d)(\+\d)?\s*$`)

// gdsDate is a printout's date from its day, month and year columns
// ("13", "JUN", "" or "27" or "2027"); a missing year is the one that
// puts the day nearest after the mail's.
func (c *msgContext) gdsDate(day, mon, yy string) (dateMatch, bool) {
	d := dateMatch{m: gdsMonthNum[mon]}
	d.d, _ = strconv.Atoi(day)
	if yy != "" {
		y, _ := strconv.Atoi(yy)
		if y < 100 {
			y += 2000
		}
		d.y, d.hasYear = y, true
	} else {
		d = d.withYear(c.ref)
	}
	return d, validDate(d.y, d.m, d.d)
}

// gdsClock is a clock in a printout's column: 24-hour ("0955", "09:55")
// or 12-hour with the systems' one-letter suffix ("1025A", "505P",
// "10:25P", "1200N" noon, "1200M" midnight) or a spelt-out one ("10:25
// PM"), perhaps with the days the arrival is after the departure ("+1",
// "#1", as a suffix or a column of its own) or the arrival's own date in
// the column after it ("14JUN").
type gdsClock struct {
	h, m       int
	days       int  // days after the row's date, when said
	hasDays    bool // "+1" or an arrival date said so
	start, end int  // byte offsets in the text searched
	date       *dateMatch
}

var (
	gdsClockTokenRE = lazyregexp.New(`^(\d{1,2}):?([0-5]\d)([APNM]|[AP]M)?(?:([+#])(\d))?$`)
	gdsDayTokenRE   = lazyregexp.New(`^[+#](\d)$`)
	gdsDateTokenRE  = lazyregexp.New(`^(\d{1,2})(` + gdsMonths + `)(\d{4}|\d{2})?$`)
	gdsMeridianRE   = lazyregexp.New(`^(?i:[AP]\.?M\.?)$`)
)

// gdsClocks finds up to n clocks among s's columns, left to right. A
// token is a clock only as a whole: "HK1", "767" and "14JUN" are none.
func gdsClocks(s string, n int) []gdsClock {
	var out []gdsClock
	toks := fieldsAt(s)
	for i := 0; i < len(toks) && len(out) < n; i++ {
		t := toks[i]
		m := gdsClockTokenRE.FindStringSubmatch(t.text)
		if m == nil {
			continue
		}
		h, _ := strconv.Atoi(m[1])
		mi, _ := strconv.Atoi(m[2])
		suffix := m[3]
		if suffix == "" && i+1 < len(toks) && gdsMeridianRE.MatchString(toks[i+1].text) && strings.Contains(t.text, ":") {
			suffix = strings.ToUpper(toks[i+1].text[:1])
			i++
		}
		switch suffix {
		case "":
			// 24 hours: two digits of hour ("0955", "09:55"), never
			// "955" or "9:55".
			if h > 23 || len(m[1]) != 2 {
				continue
			}
		default:
			if h < 1 || h > 12 {
				continue
			}
			switch suffix[:1] {
			case "A", "M":
				if h == 12 {
					h = 0
				}
			case "P", "N":
				if h < 12 {
					h += 12
				}
			}
		}
		c := gdsClock{h: h, m: mi, start: t.start, end: toks[i].end}
		if m[5] != "" {
			c.days, _ = strconv.Atoi(m[5])
			c.hasDays = true
		} else if i+1 < len(toks) {
			if dm := gdsDayTokenRE.FindStringSubmatch(toks[i+1].text); dm != nil {
				c.days, _ = strconv.Atoi(dm[1])
				c.hasDays = true
				i++
			}
		}
		if !c.hasDays && i+1 < len(toks) {
			if dm := gdsDateTokenRE.FindStringSubmatch(toks[i+1].text); dm != nil {
				d := dateMatch{m: gdsMonthNum[dm[2]]}
				d.d, _ = strconv.Atoi(dm[1])
				c.date = &d
			}
		}
		out = append(out, c)
	}
	return out
}

// token is a run of non-space bytes and where it is.
type token struct {
	text       string
	start, end int
}

// fieldsAt is strings.Fields with each field's offsets.
func fieldsAt(s string) []token {
	var out []token
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' || s[i] == '\t' {
			if start >= 0 {
				out = append(out, token{s[start:i], start, i})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// gdsTimes is a printout flight's departure and arrival on the day d: the
// arrival on the day its "+1" or its own date says, else the next day when
// its clock is before the departure's.
func (c *msgContext) gdsTimes(d dateMatch, dep, arr gdsClock, from, to *Place) (*Time, *Time) {
	depart := resolve(at(d, &clockMatch{h: dep.h, m: dep.m}), c.airportZone(from), c.dateLoc)
	ad := d
	if dep.hasDays && dep.days > 0 {
		// "DEP 0005+1": the row's date was the check-in day's.
		ad = addDays(d, dep.days)
		depart = resolve(at(ad, &clockMatch{h: dep.h, m: dep.m}), c.airportZone(from), c.dateLoc)
	}
	days := -1
	switch {
	case arr.hasDays:
		days = arr.days
	case arr.date != nil:
		// The arrival's own date, in the departure's year or the next.
		for n := 0; n <= 3; n++ {
			if nd := addDays(ad, n); nd.m == arr.date.m && nd.d == arr.date.d {
				days = n
				break
			}
		}
	}
	arrive := resolve(at(ad, &clockMatch{h: arr.h, m: arr.m}), c.airportZone(to), c.dateLoc)
	if days > 0 {
		arrive = resolve(at(addDays(ad, days), &clockMatch{h: arr.h, m: arr.m}), c.airportZone(to), c.dateLoc)
	} else if days < 0 && arrive.Before(depart.Time) {
		arrive.Time = arrive.AddDate(0, 0, 1)
	}
	return depart, arrive
}

// addDays is d n days later.
func addDays(d dateMatch, n int) dateMatch {
	t := time.Date(d.y, time.Month(d.m), d.d+n, 12, 0, 0, 0, time.UTC)
	d.y, d.m, d.d = t.Year(), int(t.Month()), t.Day()
	return d
}

// A printout's segment as a block of lines (Travelport's and Sabre's
// itineraries, the agencies that paste them): the flight on a line of its
// own, under a heading with the date ("AIR  FRIDAY, JUNE 13"), then a
// departure line and an arrival line, each opening with its word and
// giving an airport (by name, "NEW YORK JFK" or a code) and a clock:
//
//	AIR   FRIDAY, JUNE 13
//	      DELTA AIR LINES        FLT: 1234    ECONOMY
//	      DEPART: NEW YORK JFK            10:25P
//	      ARRIVE: LONDON HEATHROW         10:40A  +1
//
//	13JUN  UA 930   Y  DEPART SAN FRANCISCO      1025A
//	                   ARRIVE LONDON HEATHROW    505P   14JUN
//
// The words that open the lines are the table below; the clocks, dates
// and airports are the rows' (gdsClocks, gdsDateTokenRE, gdsPlace).

// gdsStopWords open a block's departure (true) and arrival (false) lines.
var gdsStopWords = map[string]bool{
	"DEPART": true, "DEPARTS": true, "DEPARTURE": true, "DEP": true, "LV": true, "LEAVE": true, "LEAVES": true, "LEAVING": true,
	"ARRIVE": false, "ARRIVES": false, "ARRIVAL": false, "ARR": false, "AR": false, "ARRIVING": false,
}

// gdsFlightWords come before a flight's number when the airline is named
// apart ("DELTA AIR LINES  FLT: 1234").
var gdsFlightWords = map[string]bool{"FLT": true, "FLIGHT": true, "FLT.": true, "FLIGHT#": true, "FLT#": true, "FLIGHT:": true, "FLT:": true}

//go:embed airlines.tsv
var airlinesTSV string

// gdsAirlines are airlines' printed names and designators (airlines.tsv),
// longest name first.
var gdsAirlines = func() (out []struct{ name, code string }) {
	for _, ln := range strings.Split(airlinesTSV, "\n") {
		name, code, ok := strings.Cut(ln, "\t")
		if !ok || strings.HasPrefix(ln, "#") {
			continue
		}
		out = append(out, struct{ name, code string }{name, strings.TrimSpace(code)})
	}
	slices.SortStableFunc(out, func(a, b struct{ name, code string }) int { return len(b.name) - len(a.name) })
	return out
}()

// gdsStop is a block's departure or arrival line read.
type gdsStop struct {
	dep    bool
	place  *Place
	clock  gdsClock
	date   *dateMatch // the stop's own date ("DEPART: 13JUN …")
	before string     // the line before its word (a flight, a date)
	after  string     // the line after its clock (a date, "+1")
}

// gdsStopLine reads a block's departure or arrival line.
func gdsStopLine(ln string) (gdsStop, bool) {
	if len(ln) > 200 || !hasDigit(ln) {
		return gdsStop{}, false
	}
	toks := fieldsAt(ln)
	for i, t := range toks {
		if i > 6 {
			break
		}
		w := strings.TrimRight(t.text, ":.")
		dep, ok := gdsStopWords[w]
		if !ok {
			// "Depart:" as an HTML itinerary capitalises it.
			dep, ok = gdsStopWords[strings.ToUpper(w)]
			if !ok || w[1:] != strings.ToLower(w[1:]) {
				continue
			}
		}
		rest := ln[t.end:]
		s := gdsStop{dep: dep, before: ln[:t.start]}
		clocks := gdsClocks(rest, 1)
		if len(clocks) == 0 {
			return gdsStop{}, false
		}
		s.clock = clocks[0]
		s.after = rest[s.clock.end:]
		name := rest[:s.clock.start]
		// A date between the word and the airport ("ARRIVE: 14JUN").
		var words []string
		for _, f := range strings.Fields(name) {
			if m := gdsDateTokenRE.FindStringSubmatch(f); m != nil && s.date == nil && len(words) == 0 {
				d := dateMatch{m: gdsMonthNum[m[2]]}
				d.d, _ = strconv.Atoi(m[1])
				if m[3] != "" {
					d.y, _ = strconv.Atoi(m[3])
					if d.y < 100 {
						d.y += 2000
					}
					d.hasYear = true
				}
				s.date = &d
				continue
			}
			words = append(words, f)
		}
		// "AT:" before the clock, a column of dashes or dots.
		for len(words) > 0 {
			last := strings.ToUpper(strings.TrimRight(words[len(words)-1], ":."))
			if last != "AT" && last != "TIME" && strings.Trim(last, "-.") != "" {
				break
			}
			words = words[:len(words)-1]
		}
		s.place = gdsPlace(strings.Join(words, " "))
		if len(words) == 0 {
			return gdsStop{}, false
		}
		if s.place == nil {
			s.place = &Place{Name: strings.Join(words, " ")} // resolved against the other end
		}
		return s, true
	}
	return gdsStop{}, false
}

// gdsPlace is the airport a block's stop names: by name ("LONDON
// HEATHROW"), by name and code ("NEW YORK JFK", "San Francisco (SFO)") or
// by its code alone.
func gdsPlace(s string) *Place {
	s = strings.TrimSpace(strings.Trim(s, ",-"))
	if s == "" || hasDigit(s) {
		return nil
	}
	if p := airportNamed(s); p != nil {
		return p
	}
	words := strings.Fields(s)
	last := strings.Trim(words[len(words)-1], "()")
	if len(last) == 3 && isUpper(last) && places.Known(last) {
		if len(words) == 1 {
			return &Place{Code: last}
		}
		return &Place{Name: strings.Join(words[:len(words)-1], " "), Code: last}
	}
	return nil
}

// gdsParenDesignatorRE is an airline's designator in parentheses after
// its printed name: "(N0)", "(W4)".
var gdsParenDesignatorRE = lazyregexp.New(`\p{L}\s*\(([A-Z][A-Z0-9]|[0-9][A-Z])\)`)

// gdsFlightOn is the flight a block's line names: a designator and number
// ("UA 930", "DL1234") or an airline's printed name and its number after
// a word for a flight ("DELTA AIR LINES  FLT: 1234").
func gdsFlightOn(ln string) string {
	up := strings.ToUpper(ln)
	toks := fieldsAt(up)
	for i, t := range toks {
		if !gdsFlightWords[t.text] || i+1 >= len(toks) {
			continue
		}
		num := strings.TrimLeft(toks[i+1].text, ":#")
		if num == "" {
			continue
		}
		if _, err := strconv.Atoi(num); err != nil || len(num) > 4 {
			continue
		}
		for _, a := range gdsAirlines {
			if j := strings.Index(up, a.name); j >= 0 && !words.In(up, j, true) && !words.In(up, j+len(a.name), false) {
				return a.code + " " + strings.TrimLeft(num, "0")
			}
		}
		// An airline airlines.tsv does not name, its designator printed
		// beside its name: "NORSE ATLANTIC AIRWAYS (N0)  FLT: 301".
		if m := gdsParenDesignatorRE.FindStringSubmatch(up[:t.start]); m != nil && isFlightDesignator(m[1]) {
			return m[1] + " " + strings.TrimLeft(num, "0")
		}
	}
	for _, m := range flightNumRE.FindAllStringSubmatchIndex(ln, -1) {
		if d := ln[m[2]:m[3]]; isFlightDesignator(d) && !gdsDateTokenRE.MatchString(ln[m[0]:m[1]]) {
			return d + " " + strings.TrimLeft(ln[m[4]:m[5]], "0")
		}
	}
	// The airline's printed name right before the number, a codeshare's
	// star after it: "Wed 26SEP Delta 5115*   LV Buffalo, NY (BUF)  800A".
	for _, a := range gdsAirlines {
		j := strings.Index(up, a.name)
		if j < 0 || words.In(up, j, true) {
			continue
		}
		if m := gdsNamedNumberRE.FindStringSubmatch(up[j+len(a.name):]); m != nil {
			return a.code + " " + strings.TrimLeft(m[1], "0")
		}
	}
	return ""
}

// gdsNamedNumberRE is a flight's number right after its airline's name:
// one to four digits, a codeshare's star, then a space or the end.
var gdsNamedNumberRE = lazyregexp.New(`^[ \t]+(\d{1,4})\*?(?:[ \t]|$)`)

// gdsBlocks reads the printout's blocks among lines, skipping used ones,
// and marks the lines each block used.
func (c *msgContext) gdsBlocks(lines []string, used map[int]bool) []*Segment {
	var out []*Segment
	prevEnd := -1
	var last *Segment     // the last block's leg
	var lastDay dateMatch // and its day
	for i := 0; i < len(lines); i++ {
		if used[i] {
			continue
		}
		dep, ok := gdsStopLine(lines[i])
		if !ok || !dep.dep {
			continue
		}
		var arr gdsStop
		j := i + 1
		for ; j < len(lines) && j <= i+3; j++ {
			s, ok := gdsStopLine(lines[j])
			if ok {
				arr = s
				break
			}
		}
		if arr.place == nil || arr.dep {
			continue
		}
		// The flight: on the departure's line before its word, or on a
		// line above it, after the last block.
		num, numLine := gdsFlightOn(dep.before), i
		for k := i - 1; num == "" && k > prevEnd && k >= i-4; k-- {
			if _, ok := gdsStopLine(lines[k]); ok {
				break
			}
			num, numLine = gdsFlightOn(lines[k]), k
		}
		if num == "" {
			continue
		}
		// The date: the departure's own, else the nearest above it, else
		// the last block's, when no line came between but the
		// connection's ("THURSDAY, JANUARY 14, 2027" over both legs of a
		// change).
		var d dateMatch
		shared := false
		if dep.date != nil {
			d = *dep.date
		} else {
			found := false
			for k := i; !found && k > prevEnd && k >= numLine-4; k-- {
				ln := lines[k]
				if k == i {
					ln = dep.before
				}
				d, found = c.gdsLineDate(ln)
			}
			if !found && last != nil && numLine-prevEnd <= 10 && !c.datedBetween(lines, prevEnd+1, numLine) {
				d, found, shared = lastDay, true, true
			}
			if !found {
				continue
			}
		}
		if !d.hasYear {
			d = d.withYear(c.ref)
		}
		if !validDate(d.y, d.m, d.d) {
			continue
		}
		from, to := dep.place, arr.place
		if from.Code == "" && to.Code != "" {
			from = nearestNamed(from.Name, to)
		} else if to.Code == "" && from.Code != "" {
			to = nearestNamed(to.Name, from)
		}
		if from == nil || to == nil || from.Code == "" || to.Code == "" || from.Code == to.Code {
			continue
		}
		ac := arr.clock
		if !ac.hasDays && ac.date == nil {
			if arr.date != nil {
				ac.date = arr.date
			} else if ds := c.dates(arr.after); len(ds) > 0 {
				ac.date = &ds[0] // "ARRIVES SATURDAY, JUNE 14"
			}
		}
		seg := &Segment{Type: KindFlight, Status: StatusConfirmed, Number: num, From: from, To: to}
		seg.Depart, seg.Arrive = c.gdsTimes(d, dep.clock, ac, from, to)
		// A leg on the last one's day leaves where and after it lands.
		if shared && (seg.Depart == nil || last.Arrive == nil || last.To.Code != from.Code || !seg.Depart.After(last.Arrive.Time)) {
			continue
		}
		out = append(out, seg)
		last, lastDay = seg, d
		for k := numLine; k <= j; k++ {
			used[k] = true
		}
		prevEnd, i = j, j
	}
	return out
}

// datedBetween reports whether one of lines[from:to] holds a date.
func (c *msgContext) datedBetween(lines []string, from, to int) bool {
	for k := from; k < to; k++ {
		if _, ok := c.gdsLineDate(lines[k]); ok {
			return true
		}
	}
	return false
}

// gdsLineDate is the date a block's heading or flight line gives:
// "13JUN", "13JUN27", "FRIDAY, JUNE 13", "13 JUN 27 - FRIDAY".
func (c *msgContext) gdsLineDate(ln string) (dateMatch, bool) {
	for _, f := range strings.Fields(ln) {
		if m := gdsDateTokenRE.FindStringSubmatch(f); m != nil {
			if d, ok := c.gdsDate(m[1], m[2], m[3]); ok {
				return d, true
			}
		}
	}
	if ds := c.dates(ln); len(ds) > 0 {
		return ds[0], true
	}
	return dateMatch{}, false
}

// gdsMarkRE finds what every printout's segment holds, a day and its
// month in capitals ("13JUN", "13 JUN") or a block's departure word
// opening a line.
var gdsMarkRE = lazyregexp.New(`\d ?(?:` + gdsMonths + `)\b|(?m)^\s*(?:DEPART|DEP|LV|LEAVE)\b`)

// gdsMarkWords are the capitals every match of gdsMarkRE holds: the
// expression, which starts with a digit, runs only on text that has one
// (run from every byte of every mail it was a twentieth of a travel
// mail's extraction).
var gdsMarkWords = words.NewSet(append(strings.Split(gdsMonths, "|"), "DEP", "LV", "LEAVE"))

// gdsShaped reports whether text holds a printout's segment, a row or a
// block, that makes it a flight mail whatever its words.
func (c *msgContext) gdsShaped(text string) bool {
	if !gdsMarkWords.Any(text) || !gdsMarkRE.MatchString(text) {
		return false
	}
	lines := strings.Split(text, "\n")
	for _, ln := range lines {
		if c.gdsRow(ln) != nil {
			return true
		}
	}
	used := map[int]bool{}
	return len(c.gdsReceiptRows(lines, used)) > 0 || len(c.gdsUndatedRows(lines, used)) > 0 || len(c.gdsBlocks(lines, used)) > 0
}

// gdsAirlineLocatorRE is a printout's line for the airline's own record
// locator, perhaps after the airline's name ("AIRLINE CONFIRMATION:
// UNITED AIRLINES - HX7M4C", "Airline Reservation Code: DELTA - GHTR2K",
// "Airline reference: KLQ7X2"): the code the airline knows the booking
// by, where the printout's own is the agency's.
var gdsAirlineLocatorRE = lazyregexp.New(`(?im)^[ \t]*airline[ \t]+(?:confirmation|reservation[ \t]+code|record[ \t]+locator|locator|reference|booking[ \t]+reference)(?:[ \t]+(?:no\.?|number|code))?[ \t]*[:#]?[ \t]*(?:\p{Lu}[\p{L} .&'-]{0,40}?[ \t]+[-–/][ \t]*)?([A-Z0-9]{6})[ \t]*$`)

// gdsAirlineSlashRE is an e-ticket receipt's airline locator after the
// airline's designator: "BOOKING REF: AMADEUS: 5TNWQA, AIRLINE: LH/QX7K2M".
var gdsAirlineSlashRE = lazyregexp.New(`\bAIRLINE:?[ \t]*(?:[A-Z][A-Z0-9]|[0-9][A-Z])/([A-Z0-9]{6})\b`)

// gdsAirlineLocator is the airline's record locator a printout names, or "".
func gdsAirlineLocator(text string) string {
	if !strings.Contains(strings.ToLower(text), "airline") {
		return ""
	}
	if m := gdsAirlineLocatorRE.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	if m := gdsAirlineSlashRE.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

// Two more of the family's shapes, each a table of column shapes:
//
// a row without its date, under a heading that gives it (Sabre's and
// Worldspan's trip lists):
//
//	13 JUN 27  FRIDAY
//	  DL 1234   NEW YORK JFK   - LONDON HEATHROW      1025P  1040A+1
//
// and the e-ticket receipt's two lines a flight (Amadeus), the departure's
// airport, the flight, its class, date and clock on the first, the
// arrival's airport, clock and date on the second:
//
//	FRANKFURT FRA      LH 400  Y  13JUN 1025  YOWDE  13JUN 13JUN 1PC  OK
//	NEW YORK JFK                  ARRIVAL TIME: 1300  ARRIVAL DATE: 13JUN
var (
	gdsUndatedRowRE = lazyregexp.New(`^\s*(?:\d{1,2}\.?\s+)?([A-Z][A-Z0-9]|[0-9][A-Z])\s{0,2}(\d{1,4})\b(?:\s+[A-Z]\b)?(.*)$`)
	gdsReceiptRowRE = lazyregexp.New(`^\s*(\p{Lu}[\p{Lu} .'/()-]*?)\s{2,}([A-Z][A-Z0-9]|[0-9][A-Z])\s{0,2}(\d{1,4})\s+(?:[A-Z]\s+)?(\d{1,2})(` + gdsMonths + `)(\d{4}|\d{2})?\s+(.*)$`)
	// The departure's airport cut to its column's fifteen characters
	// fills it, one space before the flight ("STOCKHOLM ARLAN TP 783",
	// "HELSINKI VANTAA AY 1331"), as some issuers print the receipt.
	gdsReceiptFullRE = lazyregexp.New(`^\s*(\p{Lu}[\p{Lu} .'/()-]{14}) ([A-Z][A-Z0-9]|[0-9][A-Z])\s{0,2}(\d{1,4})\s+(?:[A-Z]\s+)?(\d{1,2})(` + gdsMonths + `)(\d{4}|\d{2})?\s+(.*)$`)
	// The arrival's line may give the seat before the time ("ISTANBUL
	// SEAT: 03B   ARRIVAL TIME: 2325").
	gdsReceiptArrRE = lazyregexp.New(`^\s*(\p{Lu}[\p{Lu} .'/()-]*?)\s{2,}(?:SEAT:?\s*[0-9A-Z]{1,4}\s+)?ARRIVAL\s+TIME:?\s*(.*)$`)
	// The same two lines with their columns' spaces collapsed to one, as
	// a receipt pasted into a web page or a mail's HTML shows it
	// ("MUSCAT EY 0381 L 01MAY 2335 LRTOM9 …" over "ABU DHABI ARRIVAL
	// TIME: 0035"): the airport is the words before the first designator
	// and number, read only when the arrival's line follows.
	gdsReceiptRowLooseRE = lazyregexp.New(`^\s*(\p{Lu}[\p{Lu} .'/()-]*?)\s+([A-Z][A-Z0-9]|[0-9][A-Z])\s?(\d{1,4})\s+(?:[A-Z]\s+)?(\d{1,2})(` + gdsMonths + `)(\d{4}|\d{2})?\s+(.*)$`)
	gdsReceiptArrLooseRE = lazyregexp.New(`^\s*(\p{Lu}[\p{Lu} .'/()-]*?)\s+ARRIVAL\s+TIME:?\s*(.*)$`)
	gdsReceiptArrDate    = lazyregexp.New(`ARRIVAL\s+DATE:?\s*(\d{1,2})(` + gdsMonths + `)`)
)

// gdsUndatedRows reads rows without their date under a heading that gives
// it, skipping used lines and marking those it reads.
func (c *msgContext) gdsUndatedRows(lines []string, used map[int]bool) []*Segment {
	var out []*Segment
	var day *dateMatch
	for i, ln := range lines {
		if used[i] || len(ln) > 200 || !hasDigit(ln) {
			continue
		}
		m := gdsUndatedRowRE.FindStringSubmatch(ln)
		if m == nil || !isFlightDesignator(m[1]) {
			// A heading: a line with a date and no clock.
			if ds := c.dates(ln); len(ds) > 0 && findClocks(ln) == nil {
				d := ds[0]
				day = &d
			} else if d, ok := c.gdsLineDate(ln); ok && findClocks(ln) == nil && gdsDateHeading(ln) {
				day = &d
			}
			continue
		}
		rest := m[3]
		clocks := gdsClocks(rest, 2)
		if len(clocks) < 2 {
			continue
		}
		// A row that prints its own day before its clocks ("SK 4402
		// Oslo Gardermoen (OSL)   Tromsø (TOS)   02FEB27 07:35 09:25", a
		// receipt's table) is of that day, not of a heading's above it
		// (the receipt's issue date); a row whose date stands elsewhere is
		// not read.
		own, route := day, rest[:clocks[0].start]
		if ds := c.dates(rest); len(ds) > 0 {
			if ds[0].end > clocks[0].start {
				continue
			}
			own, route = &ds[0], rest[:ds[0].start]
		}
		if own == nil {
			continue
		}
		from, to := gdsCityPair(route)
		if from == nil || to == nil || from.Code == to.Code {
			continue
		}
		d := *own
		if !d.hasYear {
			d = d.withYear(c.ref)
		}
		if !validDate(d.y, d.m, d.d) {
			continue
		}
		seg := &Segment{Type: KindFlight, Status: StatusConfirmed, From: from, To: to, Number: m[1] + " " + strings.TrimLeft(m[2], "0")}
		seg.Depart, seg.Arrive = c.gdsTimes(d, clocks[0], clocks[1], from, to)
		out = append(out, seg)
		used[i] = true
	}
	return out
}

// gdsDateHeading reports whether ln is a heading of a printout's date
// alone ("13 JUN 27  FRIDAY", "13JUN"): a date and a weekday at most.
func gdsDateHeading(ln string) bool {
	n := 0
	for _, f := range strings.Fields(ln) {
		if !hasDigit(f) {
			n++
		}
	}
	return n <= 2
}

// gdsReceiptRows reads an e-ticket receipt's two-line flights, skipping
// used lines and marking those it reads. Amadeus prints the departure's
// airport name and terminal on lines of their own under the row, before
// the arrival's line.
func (c *msgContext) gdsReceiptRows(lines []string, used map[int]bool) []*Segment {
	var out []*Segment
	for i := 0; i+1 < len(lines); i++ {
		ln := lines[i]
		if used[i] || len(ln) > 200 {
			continue
		}
		// The arrival's line next, or under the departure's airport's
		// name and terminal ("KASTRUP", "TERMINAL:3"), lines without a
		// digit but the terminal's; blank lines between each when the
		// receipt's text came double-spaced (a PDF's, a paste's), where
		// two blank lines running end the flight's lines.
		j, filled, blanks := i+1, 0, 0
		for ; j < len(lines) && !strings.Contains(lines[j], "ARRIVAL"); j++ {
			t := strings.TrimSpace(lines[j])
			if t == "" {
				if blanks++; blanks > 1 {
					j = len(lines)
				}
				continue
			}
			blanks = 0
			if filled++; filled > 2 || hasDigit(t) && !strings.HasPrefix(t, "TERMINAL") {
				j = len(lines)
			}
		}
		if j >= len(lines) {
			continue
		}
		m := gdsReceiptRowRE.FindStringSubmatch(ln)
		if m == nil {
			m = gdsReceiptFullRE.FindStringSubmatch(ln)
		}
		if m == nil {
			m = gdsReceiptRowLooseRE.FindStringSubmatch(ln)
		}
		if m == nil || !isFlightDesignator(m[2]) {
			continue
		}
		a := gdsReceiptArrRE.FindStringSubmatch(lines[j])
		if a == nil {
			a = gdsReceiptArrLooseRE.FindStringSubmatch(lines[j])
		}
		if a == nil {
			continue
		}
		dep, arr := gdsClocks(m[7], 1), gdsClocks(a[2], 1)
		from, to := gdsPlace(m[1]), gdsPlace(a[1])
		if len(dep) == 0 || len(arr) == 0 || from == nil || to == nil || from.Code == to.Code {
			continue
		}
		d, ok := c.gdsDate(m[4], m[5], m[6])
		if !ok {
			continue
		}
		ac := arr[0]
		if dm := gdsReceiptArrDate.FindStringSubmatch(a[2]); dm != nil && !ac.hasDays {
			ad := dateMatch{m: gdsMonthNum[dm[2]]}
			ad.d, _ = strconv.Atoi(dm[1])
			ac.date = &ad
		}
		seg := &Segment{Type: KindFlight, Status: StatusConfirmed, From: from, To: to, Number: m[2] + " " + strings.TrimLeft(m[3], "0")}
		seg.Depart, seg.Arrive = c.gdsTimes(d, dep[0], ac, from, to)
		out = append(out, seg)
		for k := i; k <= j; k++ {
			used[k] = true
		}
		i = j
	}
	return out
}

// cutDash cuts s at its one dash between spaces.
func cutDash(s string) (before, after string, ok bool) {
	for _, d := range []string{" - ", " – "} {
		if a, b, found := strings.Cut(s, d); found && !strings.Contains(b, d) {
			return a, b, true
		}
	}
	return "", "", false
}

// splitNames reads a column of two airports' names apart by one space:
// the one cut of its words whose two sides each name an airport, or none
// when no cut or more than one does.
func splitNames(s string) (from, to *Place) {
	// Not the status ("HK1") nor a day's letter.
	var words []string
	for _, w := range strings.Fields(s) {
		if len(w) > 1 && !hasDigit(w) {
			words = append(words, w)
		}
	}
	if len(words) < 2 || len(words) > 8 {
		return nil, nil
	}
	return oneCut(words, func(a, b string) (*Place, *Place) { return gdsPlace(a), gdsPlace(b) })
}

// oneCut is the one cut of words, names run together, into two airports
// that pair reads from the two sides: two places with codes, apart; nils
// when no cut or cuts into other airports give them. Cuts into the same
// two are one ("SAO PAULO GUARULHOS INTL LISBON AIRPORT" is GRU and LIS
// cut before "INTL" or after it): the last is kept, as an airport's
// words (INTL, AIRPORT) end its name.
func oneCut(words []string, pair func(a, b string) (*Place, *Place)) (from, to *Place) {
	for i := 1; i < len(words); i++ {
		a, b := pair(strings.Join(words[:i], " "), strings.Join(words[i:], " "))
		if a == nil || b == nil || a.Code == "" || b.Code == "" || a.Code == b.Code {
			continue
		}
		if from != nil && (from.Code != a.Code || to.Code != b.Code) {
			return nil, nil
		}
		from, to = a, b
	}
	return from, to
}
