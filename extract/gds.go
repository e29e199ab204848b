package extract

import (
	"regexp"
	"strconv"
	"strings"

	"mailnode/extract/lang"
	"mailnode/extract/places"
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

// gdsWeekdays are a row's day of the week before its date ("MO 24APR").
const gdsWeekdays = `(?:MO|TU|WE|TH|FR|SA|SU|MON|TUE|WED|THU|FRI|SAT|SUN)`

var (
	gdsFlightFirstRE = regexp.MustCompile(`^\s*(?:\d{1,2}\.?\s+)?([A-Z][A-Z0-9]|[0-9][A-Z])\s?(\d{1,4})\s*(?:[A-Z]\s+)?(?:` + gdsWeekdays + `\s+)?(\d{1,2})(` + gdsMonths + `)(\d{4}|\d{2})?\b(.*)$`)
	gdsDateFirstRE   = regexp.MustCompile(`^\s*(?:\d{1,2}\.?\s+)?(\d{1,2})(` + gdsMonths + `)(\d{4}|\d{2})?\s+([A-Z][A-Z0-9]|[0-9][A-Z])\s?(\d{1,4})\b(?:\s*[A-Z]\b)?(.*)$`)
	gdsClockRE       = regexp.MustCompile(`(?:^|\s)([01]\d|2[0-3]):?([0-5]\d)(\+\d|#\d)?(?:\s|$)`)
	gdsColumnsRE     = regexp.MustCompile(`\s{2,}`)
	gdsCancelledRE   = regexp.MustCompile(`\b(?:HX|XX|UN|UC|NO)\d?\b`)
)

var gdsMonthNum = map[string]int{"JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6, "JUL": 7, "AUG": 8, "SEP": 9, "OCT": 10, "NOV": 11, "DEC": 12}

// gdsRow reads one printout line as a flight, or returns nil.
func (c *msgContext) gdsRow(ln string) *Segment {
	if len(ln) > 200 || !hasDigit(ln) {
		return nil
	}
	var airline, num, day, mon, yy, rest string
	if m := gdsFlightFirstRE.FindStringSubmatch(ln); m != nil {
		airline, num, day, mon, yy, rest = m[1], m[2], m[3], m[4], m[5], m[6]
	} else if m := gdsDateFirstRE.FindStringSubmatch(ln); m != nil {
		day, mon, yy, airline, num, rest = m[1], m[2], m[3], m[4], m[5], m[6]
	} else {
		return nil
	}
	if !isFlightDesignator(airline) {
		return nil
	}
	// Two clocks, the first of them after the city pair.
	var clocks [][]string
	var firstClock int
	// The regexp eats the space before and after a clock: look again from
	// the space it ended on, so that "0955 1215" gives two.
	for i := 0; i < len(rest) && len(clocks) < 2; {
		loc := gdsClockRE.FindStringSubmatchIndex(rest[i:])
		if loc == nil {
			break
		}
		if len(clocks) == 0 {
			firstClock = i + loc[0]
		}
		sub := []string{rest[i+loc[2] : i+loc[3]], rest[i+loc[4] : i+loc[5]], ""}
		if loc[6] >= 0 {
			sub[2] = rest[i+loc[6] : i+loc[7]]
		}
		clocks = append(clocks, sub)
		i += max(loc[1]-1, loc[0]+1)
	}
	if len(clocks) < 2 {
		return nil
	}
	from, to := gdsCityPair(rest[:firstClock])
	if from == nil || to == nil {
		return nil
	}
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
	if !validDate(d.y, d.m, d.d) {
		return nil
	}
	clock := func(c []string) *clockMatch {
		h, _ := strconv.Atoi(c[0])
		mi, _ := strconv.Atoi(c[1])
		return &clockMatch{h: h, m: mi}
	}
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, From: from, To: to,
		Number: airline + " " + strings.TrimLeft(num, "0")}
	seg.Depart = resolve(at(d, clock(clocks[0])), c.airportZone(from), c.dateLoc)
	arr := resolve(at(d, clock(clocks[1])), c.airportZone(to), c.dateLoc)
	if days, err := strconv.Atoi(strings.TrimLeft(clocks[1][2], "+#")); err == nil && days > 0 {
		arr.Time = arr.AddDate(0, 0, days)
	} else if arr.Before(seg.Depart.Time) {
		arr.Time = arr.AddDate(0, 0, 1)
	}
	seg.Arrive = arr
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
		if p := airportNamed(col); p != nil {
			cols = append(cols, p)
		}
	}
	if len(cols) >= 2 {
		return cols[0], cols[1]
	}
	fields := strings.Fields(s)
	code := func(f string) bool { return len(f) == 3 && isUpper(f) && places.Known(f) }
	for i, f := range fields {
		// "LONDON" is a name, not LON and DON.
		if _, name := places.AirportByName(f); name {
			continue
		}
		if len(f) == 6 && code(f[:3]) && code(f[3:]) {
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
		if i < pos || findClocks(ln) == nil {
			return true
		}
	}
	return false
}

// gdsTimesLineRE is a booking system's line of a flight's two times
// alone, under its row's airports: "DEP 0715   ARR 0735", "0715 0735+1".
var gdsTimesLineRE = regexp.MustCompile(`(?i)^\s*(?:dep\.?\s+)?([0-2]\d[0-5]\d)\s+(?:arr\.?\s+)?([0-2]\d[0-5]\d)(\+\d)?\s*$`)
