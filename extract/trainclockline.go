package extract

import (
	"strings"
	"time"
	"unicode"
)

// A leg told in two lines under its direction's heading ("OUTBOUND:",
// "RETURN:", "IDA:", "HINFAHRT:"): the route, its train's label before
// it ("Train 513, Seattle King Street → Portland Union Station,"), over a
// line that marks the departure's clock and the day and the arrival's
// clock ("departs 7:50 AM May 9, arrives 11:20 AM", "sale 8:05 a.m. 12
// de abril, llega 10:40 a.m.", "Abfahrt 07:45 am 18. April, Ankunft
// 08:58"). The day has no year as often as not: the Date header's gives
// it (withYear).

// clockLineLeg is the leg whose marked clocks line i is, with the route
// on one of the two lines above it that are not blank; and the route's
// line. nil when line i is not such a line or no route stands above.
// A line of the departure alone ("Depart 7:00 AM, Monday, April 6,
// 2026") is a leg without its arrival under a route that its train's
// label heads ("TRAIN 90: New York, NY - Moynihan to Washington, DC -
// Union Station (One-Way)").
func (c *msgContext) clockLineLeg(lines []string, i int, ref time.Time) (*Segment, int) {
	ln := strings.TrimSpace(lines[i])
	rest, ok := depMarkers.starts(ln)
	if !ok || !depLabelWords.has(strings.ToLower(strings.TrimLeftFunc(ln[:len(ln)-len(rest)], notLetter))) {
		return nil, -1 // a departure's word, not "from" or "de", opens the line
	}
	body := len(ln) - len(rest)
	clocks := findClocks(ln)
	dates := c.dates(ln)
	if len(clocks) == 0 || len(clocks) > 2 || len(dates) != 1 || dates[0].start < body {
		return nil, -1
	}
	d, dep := dates[0], clocks[0]
	var arr *clockMatch
	if len(clocks) == 2 {
		arr = &clocks[1]
		if d.end > arr.start {
			return nil, -1
		}
	}
	// The departure's clock and the day in either order, a word for "on"
	// or o'clock or a weekday between; then the arrival's word and clock;
	// after them nothing but a sentence's end.
	dayEnd := d.end
	if d.start < dep.start {
		// "departs on May 9 at 7:50 AM, arrives 11:20 AM"
		if !dayWordsOnly(strings.Trim(ln[body:d.start], " ,")) || !clockWordOnly(ln[d.end:dep.start]) {
			return nil, -1
		}
		dayEnd = dep.end
	} else if !clockWordOnly(ln[body:dep.start]) || !dayWordsOnly(strings.Trim(afterClockWord(ln[dep.end:d.start]), " ,.")) {
		// "departs 7:50 AM May 9", "sale 8:05 a.m. 12 de abril": "a.m."
		// ends in a dot the clock leaves.
		return nil, -1
	}
	end := dayEnd
	if arr != nil {
		if !arrivalWordRE.MatchString(strings.Trim(afterClockWord(ln[dayEnd:arr.start]), " \t,;.()")) {
			return nil, -1
		}
		end = arr.end
	}
	if strings.Trim(afterClockWord(ln[end:]), " \t,.;") != "" {
		return nil, -1
	}
	// The route: one of the two lines above that are not blank.
	seen := 0
	for j := i - 1; j >= 0 && seen < 2; j-- {
		up := strings.TrimSpace(lines[j])
		if up == "" {
			continue
		}
		seen++
		number, from, to := routeWithTrain(up)
		if from == "" {
			continue
		}
		if arr == nil && number == "" {
			return nil, -1 // a departure alone under a route its train's label does not head
		}
		if !c.langBooked() {
			// A friend's "my train details so you can pick me up" is
			// laid out so too: no booking's sign, no leg (the ninth
			// outside review).
			return nil, -1
		}
		if number == "" {
			number, _ = trainUnder(lines, i)
		}
		day := d.withYear(ref)
		if arr == nil {
			// The arrival on a line of its own under the departure's
			// ("Arrives 10:39 AM, Saturday, March 6, 2027").
			if ack, aday := c.arrivalLineUnder(lines, i, ref, day); ack != nil {
				return c.railLeg(number, from, to, day, aday, &dep, ack), j
			}
			seg := c.railLeg(number, from, to, day, day, &dep, &dep)
			seg.Arrive = nil
			return seg, j
		}
		return c.railLeg(number, from, to, day, day, &dep, arr), j
	}
	return nil, -1
}

// arrivalLineUnder is the arrival's clock and day on the line under a
// departure's line i, the next that is not blank: a word for "arrival"
// opens it, then its clock and its day in either order, as the
// departure's line has them ("Arrives 10:39 AM, Saturday, March 6,
// 2027"); without a day of its own, the departure's day dep. nil when the
// line is no such line.
func (c *msgContext) arrivalLineUnder(lines []string, i int, ref time.Time, dep dateMatch) (*clockMatch, dateMatch) {
	j := i + 1
	for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
		j++
	}
	if j >= len(lines) || j > i+2 {
		return nil, dep
	}
	ln := strings.TrimSpace(lines[j])
	rest, ok := arrMarkers.starts(ln)
	if !ok || !arrivalWordRE.MatchString(strings.ToLower(strings.TrimLeftFunc(ln[:len(ln)-len(rest)], notLetter))) {
		return nil, dep
	}
	body := len(ln) - len(rest)
	clocks := findClocks(ln)
	dates := c.dates(ln)
	if len(clocks) != 1 || len(dates) > 1 || !clockWordOnly(ln[body:clocks[0].start]) {
		return nil, dep
	}
	ck := clocks[0]
	tail := afterClockWord(ln[ck.end:])
	day := dep
	if len(dates) == 1 {
		d := dates[0]
		if d.start < ck.end || !dayWordsOnly(strings.Trim(ln[ck.end:d.start], " ,.")) && !dayWordsOnly(strings.Trim(afterClockWord(ln[ck.end:d.start]), " ,.")) {
			return nil, dep
		}
		day, tail = d.withYear(ref), ln[d.end:]
	}
	if strings.Trim(tail, " \t,.;") != "" {
		return nil, dep
	}
	return &ck, day
}

// afterClockWord is s, the text after a clock, without the word for
// o'clock that may start it ("07:12 Uhr, Freitag", "08:58 uur").
func afterClockWord(s string) string {
	t := strings.TrimLeft(s, " \t.")
	w, rest, _ := strings.Cut(t, " ")
	if afterClockWords[strings.ToLower(strings.TrimRight(w, ".,"))] {
		return strings.TrimLeft(w[len(strings.TrimRight(w, ".,")):], ".") + " " + rest
	}
	return s
}

// notLetter reports whether r is no letter.
func notLetter(r rune) bool { return !unicode.IsLetter(r) }

// routeWithTrain reads a route alone on its line, apart by an arrow or a
// dash or a word for "to" between places' names (stationPairRE,
// townPair), after its train's label ("Train 175, A → B,", "Zug 2417: A
// – B"); the train's number, or "", and the two stations.
func routeWithTrain(ln string) (number, from, to string) {
	ln = strings.TrimRight(ln, " \t,;.")
	if t := trainLabelIndex(ln); t != nil && strings.TrimSpace(ln[:t[0]]) == "" {
		number = ln[t[2]:t[3]]
		ln = strings.TrimLeft(ln[t[1]:], " \t,;:–—-")
	} else if t := trainNumRE.FindStringIndex(ln); t != nil && t[0] == 0 {
		number = normaliseTrain(ln[t[0]:t[1]])
		ln = strings.TrimLeft(ln[t[1]:], " \t,;:–—-")
	}
	if hasDigit(ln) {
		return "", "", ""
	}
	if number != "" {
		// A trip's kind after the route ("(One-Way)", "(Hinfahrt)").
		if k := strings.LastIndexByte(ln, '('); k > 0 && strings.HasSuffix(ln, ")") && !hasDigit(ln[k:]) {
			ln = strings.TrimSpace(ln[:k])
		}
	}
	if m := townPairRE.FindStringSubmatch(ln); m != nil && number != "" {
		// Under its train's label a word for "to" parts the stations,
		// whose names may hold a dash ("New York, NY - Moynihan to
		// Washington, DC - Union Station").
		from, to = stationName(m[1]), stationName(m[2])
	} else if m := stationPairRE.FindStringSubmatch(ln); m != nil {
		from, to = stationName(m[1]), stationName(m[2])
	} else {
		from, to = townPair(ln)
	}
	if from == "" || to == "" {
		return "", "", ""
	}
	return number, from, to
}
