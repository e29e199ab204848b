package extract

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
)

// Train legs read by their stops' markers and labels: stations under
// labels of their own ("Origen:", "Salida: 08:00"), a leg in a sentence
// ("ICE 597 ab Hamburg-Altona 06:47, an …", "afgår kl. 09:30 fra
// København H og ankommer …"), both clocks marked on one line. The
// markers are extract/lang/data's (departure.marker, arrival.marker,
// station.from, station.to, clock.of, conjunction.and).

// labelledLeg reads a leg whose stations have labels of their own and
// whose clocks stand beside them or on lines of their own that start with
// a departure's and an arrival's label ("Salida: 08:00", "Llegada:
// 10:32"), on the first date of the text. Stations without labels may
// stand as a route on a line of their own above the clocks.
func (c *msgContext) labelledLeg(lines []string, ref time.Time) *Segment {
	lines = labelCells(lines)
	var from, to, number string
	var dep, arr *clockMatch
	var timed *clockMatch // a clock after a label that is the word for "time" alone
	var day *dateMatch
	var pairFrom, pairTo string                // a route on a line of its own, before the clocks
	routeLabelled := false                     // that route after its label ("Route: A → B")
	var depDay *dateMatch                      // the day on the departure's own line
	dayLine, timedDay := -1, (*dateMatch)(nil) // the day's line; the day a "Time:" line right under it is on
	arrowLine := -1                            // the line of a route apart by an arrow, alone on it
	var routeDep *clockMatch                   // the clock of a day "at" a clock under that route
	var routeDay *dateMatch
	var dayDep *clockMatch // the clock on a day's own labelled line under the stops ("Data: 23/01/2024 23:10")
	var dayDepDay *dateMatch
	for i, ln := range lines {
		if dep == nil && from == "" && pairFrom == "" && !hasDigit(ln) && strings.Contains(ln, ":") {
			if a, b := routeLabelPair(ln); a != "" {
				pairFrom, pairTo, routeLabelled = a, b, true
				continue
			}
			// The route whole after the departure's label ("From: Kochi
			// → Trivandrum"): a route's label as any other.
			if a, b := fromRoute(ln); a != "" {
				pairFrom, pairTo, routeLabelled = a, b, true
				continue
			}
		}
		if !hasDigit(ln) && !strings.Contains(ln, ":") {
			if dep == nil && from == "" {
				if m := stationPairRE.FindStringSubmatch(strings.TrimSpace(ln)); m != nil {
					if a, b := stationName(m[1]), stationName(m[2]); a != "" && b != "" {
						pairFrom, pairTo = a, b
						if strings.ContainsAny(ln, "→>") {
							arrowLine = i
						}
					}
				} else if a, b := townPair(ln); a != "" {
					pairFrom, pairTo = a, b
				} else if a, b := looseTownPair(ln); a != "" {
					// Read only with clocks by their markers below
					// ("departs 06:30, arrives 07:00"), as any pair here.
					pairFrom, pairTo = a, b
				} else if a, b := codePair(ln); a != "" {
					pairFrom, pairTo = a, b // "NDLS TO FDB"
				}
			}
			continue
		}
		dates := c.dates(ln)
		if day == nil && len(dates) > 0 {
			d := dates[0].withYear(ref)
			day, dayLine = &d, i
		}
		clocks := findClocks(ln)
		station := func(re *lazyregexp.Regexp) (string, *clockMatch) {
			m := re.FindStringSubmatchIndex(ln)
			if m == nil {
				return "", nil
			}
			v, end := ln[m[2]:m[3]], len(ln)
			var ck *clockMatch
			if len(clocks) > 0 {
				ck, end = &clocks[0], clocks[0].start
			}
			name := v[:max(0, end-m[2])]
			if len(dates) > 0 && dates[0].start < end {
				end = dates[0].start
				name = withoutWeekday(v[:max(0, end-m[2])]) // "Helsinki, la 18.12.2027"
			}
			return stationName(name), ck
		}
		if from == "" && to == "" {
			// Both labels on one line: "From: Budapest-Keleti  To:
			// Miskolc-Tiszai".
			if m := fromStationRE.FindStringSubmatch(ln); m != nil {
				if t := toInlineRE.FindStringSubmatchIndex(m[1]); t != nil {
					if a, b := stationName(m[1][:t[0]]), stationName(m[1][t[2]:t[3]]); a != "" && b != "" {
						from, to = a, b
						continue
					}
				}
			}
		}
		if from == "" {
			if name, ck := station(fromStationRE); name != "" {
				from, dep = name, cmp.Or(dep, ck)
				continue
			}
		}
		if to == "" {
			if name, ck := station(toStationRE); name != "" {
				to, arr = name, cmp.Or(arr, ck)
				continue
			}
		}
		if number == "" {
			if m := trainLabel(ln); m != nil {
				number = m[1]
				if t := trainNumRE.FindString(ln); t != "" {
					number = normaliseTrain(t)
				}
			} else if t := trainNumRE.FindString(ln); t != "" && len(clocks) == 0 {
				number = normaliseTrain(t) // "TGV INOUI 6601" alone under the clocks
				if s := railService(ln); len(s) > len(number) && strings.HasSuffix(s, " "+number) {
					number = s // the service whole: "TGV INOUI 6601", not "INOUI 6601"
				}
			} else if t := railService(ln); t != "" && len(clocks) == 0 {
				number = t // "Iryo 06071" (railservice.go)
			}
		}
		if len(clocks) == 0 {
			continue
		}
		// A line that starts with its date ("Wednesday 20 March 2030,
		// departs 06:30, arrives 07:00") is marked after it.
		mln := ln
		if len(dates) > 0 && onlyWeekday(ln[:dates[0].start]) {
			if rest := strings.TrimLeft(ln[dates[0].end:], " ,;–-"); len(clocks) > 0 && len(ln)-len(rest) <= clocks[0].start {
				mln = rest
				clocks = findClocks(rest)
			}
		}
		marked := withoutClockWord(mln)
		if _, ok := depMarkers.starts(marked); ok && dep == nil {
			dep = &clocks[0]
			if len(dates) == 1 {
				d := dates[0].withYear(ref)
				depDay = &d
			}
			// Both on one line: "Departs 08:02, arrives 08:25".
			if rest := strings.TrimLeft(mln[clocks[0].end:], " ,;–-"); len(clocks) == 2 && arr == nil {
				if _, ok := arrMarkers.starts(withoutClockWord(rest)); ok {
					arr = &clocks[1]
				}
			}
		} else if _, ok := arrMarkers.starts(marked); ok && arr == nil {
			arr = &clocks[0]
		} else if routeDep == nil && arrowLine >= 0 && i-arrowLine <= 3 && pairFrom != "" && !routeLabelled && from == "" {
			// A day and its clock joined by a word for "at" under a
			// route apart by an arrow ("Wien Hbf > Bad Aussee Bahnhof" /
			// "gilt am 25. Mai 2017 um 15:55"), after the mail was sent:
			// the journey's departure (a booking's own time is the
			// mail's day or before it).
			if d, ok := c.dayAtClock(ln, dates, clocks, ref); ok {
				routeDep, routeDay = &clocks[0], &d
			}
		} else if timed == nil && timeLabelled(mln) {
			timed = &clocks[0]
			if day != nil && (dayLine == i || dayLine == i-1) {
				timedDay = day // "Date: March 10, 2026" over "Time: 10:00 AM"
			}
		} else if dayDep == nil && (from != "" || routeLabelled) && !besideSubjectLine(lines, i) {
			if d, ok := c.labelledDayClock(ln, dates, clocks, ref); ok {
				dayDep, dayDepDay = &clocks[0], &d
			}
		}
	}
	if dep == nil && arr == nil && number != "" {
		// A clock labelled only as the time ("TIME:05:15") after the
		// journey's date is the departure's when the train is named by
		// its label: a ticket gives no other.
		dep = timed
	}
	routeTimed := false // the departure is routeDep
	if dep == nil && arr == nil && number == "" && routeDep != nil {
		dep, depDay, routeTimed = routeDep, routeDay, true
	}
	if dep == nil && arr == nil && number == "" && routeLabelled && timedDay != nil && c.busMail(lines) {
		// So is a coach's under its labelled route, its day's label
		// right above it ("From: Kochi → Trivandrum" / "Date: March 10,
		// 2026" / "Time: 10:00 AM"): the coach's case below.
		dep, depDay = timed, timedDay
	}
	// A ticket's day and clock on a line of their own under its labelled
	// stops ("Origem: …" / "Destino: …" / "Data: 23/01/2024 23:10") or
	// its labelled route ("Journey: A to B" / "Date: Thursday 2026-10-22,
	// departs 08:05"), in a mail that names a seat: a ticket's departure.
	// A timetable's or a notice's lines name no seat.
	ticketTimed := false
	if dep == nil && arr == nil && number == "" && dayDep != nil && seatNamed(lower(strings.Join(lines, "\n"))) {
		dep, depDay, ticketTimed = dayDep, dayDepDay, true
	}
	if from == "" && to == "" {
		from, to = pairFrom, pairTo
	}
	if from == "" || to == "" || dep == nil || day == nil || isBus(number) {
		return nil
	}
	if depDay != nil && arr != nil {
		// The day on the departure's own line is the leg's, whatever
		// date the text names above it ("Payment date: 01 June 2026"
		// over "Departure: Fri 12 Jun 2026 at 09:18").
		day = depDay
	}
	if arr == nil {
		// A ticket that gives only the departure's time (Indian
		// Railways': "Train No.:12345", "Scheduled Departure:08:15
		// 02-Feb-2024", "Boarding Station:…", "To:…") is a leg when its
		// train is named by its label: without one, a lone labelled
		// clock is any booking's.
		// A coach's ticket gives its departure alone under its labelled
		// route ("Route: Berlin ZOB → Prague Florenc." / "Departure: 07:45
		// on Sept 18."), its day on the departure's line: a leg in a
		// mail that speaks of buses (the legs' reader types it a bus's).
		coach := number == "" && routeLabelled && depDay != nil && from == pairFrom && c.busMail(lines)
		if number == "" && !coach && !routeTimed && !ticketTimed {
			return nil
		}
		if coach || routeTimed || ticketTimed {
			day = depDay
		}
		seg := &Segment{Type: KindTrain, Status: StatusConfirmed, Number: number, From: &Place{Name: from}, To: &Place{Name: to}}
		w := at(*day, dep)
		z := c.stationZone(from, w)
		if z.loc == nil {
			z = c.stationZone(to, w) // a train crosses no ocean
		}
		if z.loc == nil && c.date.IsZero() {
			// Codes no data names ("NDLS TO FDB") and no Date header's
			// offset to fall back on: the clock is in no known zone.
			return nil
		}
		seg.Depart = resolve(w, z, c.dateLoc)
		return seg
	}
	return c.railLeg(number, from, to, *day, *day, dep, arr)
}

// labelledDayClock reads a line that is a day's label and one day and
// one clock after it, nothing between them but a weekday before the day
// and, between the day and the clock, a word for "at", a departure's word
// or a time's label ("Data: 11/09/2022 Horário: 01:05", "Date: 2027-03-14
// 07:30", "Date: Thursday 2026-10-22, departs 08:05, seat 42"): the day,
// with its year. Not a day before the mail's own: a ticket's journey lies
// ahead of its mail.
func (c *msgContext) labelledDayClock(ln string, dates []dateMatch, clocks []clockMatch, ref time.Time) (dateMatch, bool) {
	if len(dates) != 1 || len(clocks) != 1 || dates[0].end > clocks[0].start {
		return dateMatch{}, false
	}
	label, _, ok := strings.Cut(ln[:dates[0].start], ":")
	if !ok || !dayLabels[strings.ToLower(strings.Trim(label, " \t*•"))] || !onlyWeekday(ln[len(label)+1:dates[0].start]) {
		return dateMatch{}, false
	}
	if !dayClockJoin(ln[dates[0].end:clocks[0].start]) {
		return dateMatch{}, false
	}
	d := dates[0].withYear(ref)
	if d.y == unknownYear {
		return dateMatch{}, false
	}
	if !c.date.IsZero() {
		y, m, day := c.date.Date()
		if d.y < y || d.y == y && (d.m < int(m) || d.m == int(m) && d.d < day) {
			return dateMatch{}, false
		}
	}
	return d, true
}

// besideSubjectLine reports whether the line above or below line i is
// a subject's ("Subject: …", "Assunto: …"): "From:", "To:" and "Date:"
// over it are a forwarded mail's header block, not a ticket's fields.
func besideSubjectLine(lines []string, i int) bool {
	for _, j := range []int{i - 1, i + 1} {
		if j < 0 || j >= len(lines) {
			continue
		}
		if l, _, ok := headerLine(lines[j]); ok && slices.Contains(subjectLabels, l) {
			return true
		}
	}
	return false
}

// dayLabels are the labels of a journey's day alone (date.noun,
// journey.date): "Data", "Date", "Fecha", "Travel date".
var dayLabels = func() map[string]bool {
	m := map[string]bool{}
	for _, cat := range []string{"date.noun", "journey.date"} {
		for _, e := range lang.Entries(cat) {
			m[e] = true
		}
	}
	return m
}()

// dayClockJoin reports whether s, between a day and its clock, joins them
// and says nothing else: blank, a word for "at", a departure's word
// ("departs"), or a time's label ("Horário:").
func dayClockJoin(s string) bool {
	t := strings.Trim(s, " \t,;–-")
	if clockWordOnly(t) {
		return true
	}
	if rest, ok := depMarkers.starts(t); ok && clockWordOnly(rest) {
		return true
	}
	label, rest, ok := strings.Cut(t, ":")
	return ok && timeNouns[strings.ToLower(strings.TrimSpace(label))] && strings.TrimSpace(rest) == ""
}

// timeLabelled reports whether ln starts with a label that is a word for
// "time" alone (time.noun): "TIME:05:15", "Uhrzeit: 06:40".
func timeLabelled(ln string) bool {
	label, _, ok := strings.Cut(ln, ":")
	return ok && timeNouns[strings.ToLower(strings.TrimSpace(label))]
}

// onlyWeekday reports whether s, the text before a date, is blank or a
// weekday's name alone ("Wednesday", "Mi.,").
func onlyWeekday(s string) bool {
	f := strings.Fields(s)
	return len(f) == 0 || len(f) == 1 && weekdayNames[strings.ToLower(strings.TrimRight(f[0], ".,"))] > 0
}

// clockOfWords are the words for "the time of" that some languages put
// before a stop's label ("Hora de salida:", "Ora di partenza:"), longest
// first.
var clockOfWords = longestFirst(lang.Entries("clock.of"))

// withoutClockWord is a line without such words at its start.
func withoutClockWord(ln string) string {
	t := strings.TrimLeft(ln, " *-•")
	for _, w := range clockOfWords {
		if len(t) > len(w) && strings.EqualFold(t[:len(w)], w) && (t[len(w)] == ' ' || w[len(w)-1] == '\'') {
			return t[len(w):]
		}
	}
	return ln
}

// markedLeg reads a leg in a sentence, each stop's marker before its
// station and clock ("ICE 597 ab Hamburg-Altona 06:47, an
// Frankfurt(Main)Hbf 10:27"), before its clock and station ("ab 06:47
// Hamburg-Altona, an 10:27 Frankfurt(Main)Hbf") or between its station
// and clock ("Bern ab 08:34, Interlaken Ost an 09:28").
func (c *msgContext) markedLeg(ln string, clocks []clockMatch, d dateMatch) *Segment {
	from, to, code, ok := c.markedStops(ln, clocks)
	if !ok {
		return c.clockFromLeg(ln, clocks, d)
	}
	if from == "" || to == "" {
		return nil
	}
	number := code // the row's own, read with its first station
	if m := trainNumRE.FindString(ln); m != "" {
		number = normaliseTrain(m)
	} else if m := trainLabel(ln[:clocks[0].start]); m != nil && code == "" {
		number = m[1] // "tåg 547 avgår från …"
	} else if t := stopTrain(ln[clocks[1].end:]); t != "" && code == "" {
		number = t // "…, Příjezd: Olomouc hl.n. 07:20, vlak R 812"
	} else if m := trainLabel(ln[clocks[1].end:]); m != nil && code == "" {
		number = m[1] // "…, arrival 10:12 in London Kings Cross. Train 1A27."
	} else if t := headService(ln[:clocks[0].start]); t != "" && code == "" {
		number = t // "Voralpen-Express VAE 2417: St. Gallen ab 09:40, …"
	}
	if isBus(number) {
		return nil
	}
	return c.railLeg(number, from, to, d, d, &clocks[0], &clocks[1])
}

// markedStops reads the two stations of markedLeg's shapes, and a code
// that starts the row; ok is false when the line is none of them, and
// a sentence of clockFromLeg's shape may be.
func (c *msgContext) markedStops(ln string, clocks []clockMatch) (from, to, code string, ok bool) {
	// A word for o'clock between a marker and its clock ("afgår kl.
	// 09:30") is neither.
	head := c.withoutDayLast(clockWord.ReplaceAllString(ln[:clocks[0].start], ""))
	mid := c.withoutDayLast(clockWord.ReplaceAllString(ln[clocks[0].end:clocks[1].start], ""))
	tail := ln[clocks[1].end:]
	// The departure's day after its clock ("21:00 on Friday 22 December
	// 2028, arrive …") is not the arrival's station.
	if ds := c.dates(mid); len(ds) > 0 {
		mid = strings.TrimLeft(mid[ds[len(ds)-1].end:], " ,;")
	}
	if station, ok := depMarkers.ends(head); ok && stationName(platformFirstRE.ReplaceAllString(untilStop(tail), "")) == "" {
		// Station and marker, then the clock ("Bern ab 08:34, Interlaken
		// Ost an 09:28"): nothing after the arrival's clock.
		// The departure's platform and a slash before the arrival ("Zürich
		// HB ab 07:02 Gleis 8 / Bern an 07:58 Gleis 6").
		second, ends := arrMarkers.ends(strings.TrimLeft(platformFirstRE.ReplaceAllString(mid, ""), " ,;/|"))
		if !ends {
			return "", "", "", true
		}
		if i := strings.LastIndex(station, ": "); i >= 0 {
			station = station[i+2:] // "Voralpen-Express VAE 2417: St. Gallen"
		}
		if t := trainNumRE.FindStringIndex(station); t != nil {
			station = station[t[1]:]
		} else if t := leadingCodeRE.FindStringSubmatchIndex(station); t != nil {
			code, station = station[t[2]:t[3]], station[t[1]:] // "BV 8611  Sofia  dep. 07:00"
		}
		from, to = stationName(station), stationName(withoutAnd(second))
	} else if ok {
		// Marker and clock, then the station, up to the arrival's marker
		// that ends mid; the arrival's station after its clock.
		k := lastMarker(mid, arrMarkers)
		if _, ends := arrMarkers.ends(mid); k < 0 || !ends {
			return "", "", "", true
		}
		// "… fra København H og ankommer": the station, less the "and"
		// before the arrival's marker.
		first, _ := arrMarkers.ends(mid[:k])
		from, to = stationName(withoutAnd(first)), stationName(untilStop(tail))
	} else {
		// Marker and station, then the clock; mid starts with the
		// arrival's marker (after an "and" and an "is": "og er fremme
		// i Stavanger") and holds its station.
		k := lastMarker(head, depMarkers)
		between := strings.TrimLeft(platformFirstRE.ReplaceAllString(mid, ""), " ,;")
		rest, ok := arrMarkers.starts(withoutLeading(withoutLeading(between, andWords), copulaWords))
		if k < 0 || !ok {
			return "", "", "", false
		}
		from, to = stationName(head[k:]), stationName(rest)
	}
	return from, to, code, true
}

// withoutDayLast is s, the text before a stop's clock, less the day it
// ends with and the small words before that day: "departs San Diego on
// 12/18/2027 at" (the clock's word already gone) or "… Depot at
// 2027-12-18", an ISO 8601 timestamp's date, are "departs San Diego".
func (c *msgContext) withoutDayLast(s string) string {
	if !hasDigit(s) {
		return s
	}
	ds := c.dates(s)
	if len(ds) == 0 {
		return s
	}
	last := ds[len(ds)-1]
	if strings.Trim(s[last.end:], " ,") != "" {
		return s
	}
	t := strings.TrimRight(withoutWeekday(s[:last.start]), " ,")
	for range 2 {
		i := strings.LastIndexByte(t, ' ')
		w := t[i+1:]
		if i < 0 || len(w) > 3 || w == "" || !('a' <= w[0] && w[0] <= 'z') {
			break
		}
		t = strings.TrimRight(t[:i], " ,")
	}
	return t + " "
}

// clockFromLeg reads a sentence whose clocks each come before their
// stop, the departure's after a word for "from" or before its particle:
// "fahren Sie um 07:48 von Hannover Hbf ab und kommen um 09:01 in Uelzen
// an", "avgår kl. 07:48 från Stockholm C och ankommer kl. 09:01 till
// Uppsala C". What makes the two a leg is the "and" between them and a
// word of the arrival's: a verb after the "and" ("ankommer", "komt") or
// the particle that ends the sentence ("an").
func (c *msgContext) clockFromLeg(ln string, clocks []clockMatch, d dateMatch) *Segment {
	mid := c.withoutDayLast(clockWord.ReplaceAllString(ln[clocks[0].end:clocks[1].start], ""))
	k := firstWordOf(mid, andWords)
	if k < 0 {
		return nil
	}
	station, clause := mid[:k], mid[k:]
	rest, hasFrom := fromMarkers.starts(station)
	if !hasFrom {
		// The departure's marker before the station ("um 07:45 ab Wien
		// Westbahnhof und kommt um 10:12 in Salzburg Hbf an").
		rest, hasFrom = depMarkers.starts(station)
	}
	_, particle := depMarkers.ends(station)
	if !hasFrom && !particle || c.dates(station) != nil {
		return nil
	}
	if !hasFrom {
		rest = station
	}
	tail := untilStop(ln[clocks[1].end:])
	_, arrives := arrMarkers.ends(strings.TrimRight(tail, "."))
	at := lastMarker(clause, arrMarkers)
	// Or the arrival's marker right after its clock, before the station
	// ("… kom je om 10:05 aan in Enschede.").
	if after, ok := arrMarkers.starts(tail); !arrives && at < 0 && ok {
		for {
			next, more := arrMarkers.starts(after)
			if !more {
				break
			}
			after = next
		}
		tail, arrives = withoutLeading(strings.TrimSpace(after), inWords), true
	}
	if !arrives && at < 0 {
		return nil
	}
	from, to := stationName(rest), stationName(strings.TrimRight(tail, "."))
	if to == "" && at >= 0 && strings.Trim(tail, ". ") == "" {
		// The arrival's stop before its clock: "och du är framme i
		// Alvesta kl. 09:32", "arriving in Leeds at 10:12".
		to = stationName(withoutLeading(strings.TrimSpace(clause[at:]), inWords))
	}
	if from == "" || to == "" {
		return nil
	}
	number := ""
	if m := trainNumRE.FindString(ln); m != "" {
		number = normaliseTrain(m)
	} else if m := trainLabel(ln[:clocks[0].start]); m != nil {
		number = m[1]
	}
	if isBus(number) {
		return nil
	}
	return c.railLeg(number, from, to, d, d, &clocks[0], &clocks[1])
}

// fromMarkers are every language's words for "from" (departure.marker).
var fromMarkers = newStopMarkers("departure.marker")

// leadingCodeRE is a train's code that starts a row, before its first
// station ("BV 8611  Sofia  dep. 07:00  Plovdiv  arr. 09:41").
var leadingCodeRE = lazyregexp.New(`^\s*([A-Z]{1,4} ?\d{1,5})\s+`)

// platformFirstRE is a platform that starts the words between a
// departure's clock and the arrival ("… at 08:10 from platform 4 and
// arrives at York"): neither station.
var platformFirstRE = lazyregexp.New(`(?i)^[\s,]*(?:(?:from|von|de|da|desde|fra|från|van|z|ze)\s+)?(?:` + platformWords + `|gl\.)\s+\S+`)

// andWords are every language's "and" (conjunction.and).
var andWords = wordSet("conjunction.and")

// inWords put a stop after a verb of arriving ("framme i Alvesta",
// "arriving in Leeds": stop.in).
var inWords = wordSet("stop.in")

// withoutAnd is s less an "and" that ends it.
func withoutAnd(s string) string {
	t := strings.TrimRight(s, " ,")
	if i := strings.LastIndexByte(t, ' '); i >= 0 && andWords[strings.ToLower(t[i+1:])] {
		return t[:i]
	}
	return s
}

// pairMarkedLeg reads a leg whose stations come first as a pair and
// whose clocks each follow their marker, the arrival's with its station
// again: "Nattog 475 Oslo S–Trondheim S, avgang 23:05 fredag 23. mars
// 2029, ankomst Trondheim S 06:35 lørdag 24. mars 2029".
func (c *msgContext) pairMarkedLeg(ln string, clocks []clockMatch, d dateMatch) *Segment {
	rest, ok := depMarkers.ends(clockWord.ReplaceAllString(ln[:clocks[0].start], ""))
	if !ok {
		return nil
	}
	mid := ln[clocks[0].end:clocks[1].start]
	if ds := c.dates(mid); len(ds) > 0 {
		mid = mid[ds[len(ds)-1].end:]
	}
	if _, ok := arrMarkers.starts(strings.TrimLeft(mid, " ,;")); !ok {
		return nil
	}
	number := ""
	if m := trainLabelIndex(rest); m != nil {
		number, rest = rest[m[2]:m[3]], rest[m[1]:]
	} else if t := trainNumRE.FindStringIndex(rest); t != nil {
		number, rest = normaliseTrain(rest[t[0]:t[1]]), rest[t[1]:]
	}
	p := stationPairRE.FindStringSubmatch(strings.Trim(rest, " ,;:"))
	if p == nil || isBus(number) {
		return nil
	}
	from, to := stationName(p[1]), stationName(p[2])
	if from == "" || to == "" {
		return nil
	}
	return c.railLeg(number, from, to, d, d, &clocks[0], &clocks[1])
}

// copulaWords are every language's "is" (copula in extract/lang/data).
var copulaWords = wordSet("copula")

// lastMarker is where the text after the last stop marker of m in s
// begins, or -1.
func lastMarker(s string, m stopMarkers) int {
	at := -1
	for start, end := range letterRuns(s) {
		// A word joined to the next by a dash is part of a name: "Lyon
		// Part-Dieu" holds French "part" (departs).
		joined := end < len(s) && s[end] == '-'
		if dot, ok := m[strings.ToLower(s[start:end])]; ok && !joined && (end == len(s) || s[end] != '.' || dot) {
			at = end
		}
	}
	return at
}

// untilStop is a sentence's text up to its next clause or its end (a
// dot that ends it, not one of "hl.n.").
func untilStop(s string) string {
	if i := strings.IndexAny(s, ";,"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return strings.TrimSpace(s)
}

// headServiceRE is a service's category and number that end a leg's
// heading, before its colon ("Voralpen-Express VAE 2417").
var headServiceRE = lazyregexp.New(`(?:^|\s)(\p{Lu}{1,4}) ?(\d{2,5})$`)

// headService is the service a leg's line names in its heading, the text
// before a colon ahead of the first stop, whatever its operator.
func headService(before string) string {
	h, _, ok := strings.Cut(before, ": ")
	if !ok || !hasDigit(h) {
		return ""
	}
	m := headServiceRE.FindStringSubmatch(strings.TrimSpace(h))
	if m == nil || notService[strings.ToLower(m[1])] {
		return ""
	}
	return m[1] + " " + m[2]
}

// busMail reports whether the lines read, or the mail they are in (its
// subject too: "Your Bus Ticket - BK12345"), speak of a bus, or whether
// a coach operator sent it (busoperators.txt).
func (c *msgContext) busMail(lines []string) bool {
	return busWords.In(lower(strings.Join(lines, "\n"))) || busWords.In(lower(c.langText)) || busOperators[domainLabel(c.senderDomain)]
}

// dayAtClock reads a line that holds one day and one clock after it,
// nothing between them but a word for "at" ("25. Mai 2017 um 15:55",
// "12 March 2030 at 09:40"), the day after the mail's own (its Date
// header's; none without one): the day, with its year.
func (c *msgContext) dayAtClock(ln string, dates []dateMatch, clocks []clockMatch, ref time.Time) (dateMatch, bool) {
	if len(dates) != 1 || len(clocks) != 1 || dates[0].end > clocks[0].start || !clockWordOnly(ln[dates[0].end:clocks[0].start]) {
		return dateMatch{}, false
	}
	d := dates[0].withYear(ref)
	if d.y == unknownYear {
		return dateMatch{}, false
	}
	// Without the mail's own day nothing tells the two apart.
	if c.date.IsZero() {
		return dateMatch{}, false
	}
	y, m, day := c.date.Date()
	if d.y < y || d.y == y && (d.m < int(m) || d.m == int(m) && d.d <= day) {
		return dateMatch{}, false
	}
	return d, true
}
