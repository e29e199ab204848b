package extract

import (
	"cmp"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
)

// Train and bus legs from text (textLegs): the text's stops (a clock, a
// station, a departure's or an arrival's marker, the date above) paired
// into legs, with the readers that each know one layout: legs on one
// line (trainline.go), stops stacked as a card's blocks (trainstack.go),
// legs by their stops' markers and labels (trainmarked.go), a table's rows
// (traintable.go). Stations' names: station.go.

var (
	// A train named by its label in the lines above its stops: "TRAIN
	// N°6857", "Train No.:12345", "Zug 1234".
	// The service's name may stand between: "Trein: Eurocity Direct 9215",
	// "Regionale Veloce 2615"; capitalised, whatever (?i) says of the rest
	// ("Train ticket for 11 December" names no train).
	// In the Nordic languages the kind of train is one word with it
	// ("SJ Snabbtåg 527", "Lyntog 12", "Pikajuna 71", "Västtågen 3009").
	// A regional service's category of one to four capitals, or a
	// capital and a small letter, is part of its number ("Pociąg: R
	// 90612", "Spoj: TL 65", "Treno R 2516", "Os 259"): the category
	// list of trainNumRE cannot name every operator's. Russian and
	// Ukrainian numbers end with a letter ("Поезд 020У"), which \b, ASCII's,
	// does not see the end of.
	trainLabelRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:train|zug|treno|tren|vlak|spoj|trein|italo|regionale?|\p{L}*t[åo]g(?:en|et)?|\p{L}*juna|pociąg|comboio|trem|поезд|потяг|поїзд|влак|воз|voz\s*br\.|τρένο|τρενο|αμαξοστοιχία|αμαξοστοιχια|vonat|traukin(?:ys|io)|vilcien[sa]|rong(?:i|ile)?)\s*(?:n[°ºo]\.?|nr\.?|no\.?|number|nummer|№)?(?:\s*/\s*(?:name|nom|nombre|nome|naam)\s*)?\s*[:.]?\s*(?-i:\p{Lu}\p{L}+\s+){0,3}?((?-i:\d{2,4}\p{Cyrillic}{1,2})|(?-i:(?:\p{Lu}{1,4}|\p{Lu}\p{Ll})\s)?\d{2,6}|(?-i:\d\p{Lu}\d{2}))(?:\b|[^\p{L}\d_]|$)`)
	// A leg on one line: "Tåg 421  Stockholm C 07:12 - Göteborg C 10:19".
	// The clocks may be in parentheses and written with an h: "Lyon
	// Part-Dieu (08h04) → Grenoble (09h32)".
	// The train may follow the arrival's clock ("…, Intercity direct
	// 1012", "… (ICE 654)"), and so may the days it arrives after ("(+1)");
	// a sentence's full stop may end the line ("… to Venezia ME at 20:42.").
	// The stops may also be apart by a word for "to" (arrival.marker):
	// "Manchester Victoria 08:02 to Leeds 08:55", or be a table's cells
	// apart by bars: "Madrid-Puerta de Atocha 08:30 | Barcelona-Sants
	// 11:02 | AVE 03063".
	oneLineLegRE = lazyregexp.New(`^(.*?)\s\(?(` + clockShape + `)\)?\s*(?:-|–|—|→|->|>|\||\s(?i:` + toWords() + `)\s)\s*(\S.*?)\s+\(?(` + clockShape + `)\)?(?:\s*\(?\+\d\)?)?(?:\s*(?:[,;|·]\s*|\(|\s)(\p{L}[\p{L} ]{0,30}\d{1,6}号?)\)?)?\s*\.?\s*$`)
	// On a stop line, after the clock: a service category and number
	// ("R 945", "Sp 1786", "S0", "IC 147").
	// Not the end of a word ("spår 14": \b is ASCII's, and å no letter).
	// Nor the end of a code that starts with a digit ("1A27", a British
	// headcode, is no "A 27").
	stopTrainRE = lazyregexp.New(`(?:^|[^\p{L}\p{N}])([A-Za-z]{1,5})\s{0,4}(\d{1,6})\b`)
)

// trainLabelIndex is trainLabelRE's first match in s whose number is no
// date's ("Billete de tren 14/01/2030"), as FindStringSubmatchIndex.
func trainLabelIndex(s string) []int {
	if !mayHoldFolded(s, trainLabelAnchors) {
		if hasCJK(s) {
			return cjkTrainIndex(s)
		}
		return nil
	}
	// The first match, and only after a date's number the next ones.
	for off := 0; off < len(s); {
		m := trainLabelRE.FindStringSubmatchIndex(s[off:])
		if m == nil {
			return nil
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += off
			}
		}
		if !datePartNext(s[m[3]:]) {
			return m
		}
		off = m[3]
	}
	return nil
}

// datePartNext reports whether rest, the text after a number, goes on
// with a date's separator and digit ("14/01/2030" after "14").
func datePartNext(rest string) bool {
	return len(rest) >= 2 && strings.IndexByte("./-", rest[0]) >= 0 && isDigitByte(rest[1])
}

// trainLabel is trainLabelIndex as FindStringSubmatch.
func trainLabel(s string) []string {
	m := trainLabelIndex(s)
	if m == nil {
		return nil
	}
	return []string{s[m[0]:m[1]], s[m[2]:m[3]]}
}

// stopTrain is the service stopTrainRE finds in the text after a stop's
// clock, if it is one: not a word before a date ("del 14/01/2030").
func stopTrain(after string) string {
	t, _ := stopTrainAt(after)
	return t
}

// stopTrainAt is stopTrain and where in after the service starts.
func stopTrainAt(after string) (string, int) {
	m := stopTrainRE.FindStringSubmatchIndex(after)
	if m == nil || notService[strings.ToLower(after[m[2]:m[3]])] || monthNames[strings.ToLower(after[m[2]:m[3]])] > 0 {
		return "", -1 // nor a month before its year ("at 07:15 on Saturday 12 June 2027")
	}
	if datePartNext(after[m[1]:]) {
		return "", -1
	}
	return after[m[2]:m[3]] + " " + after[m[4]:m[5]], m[2]
}

// stopMarks reports whether the text before a stop's clock marks a
// departure or an arrival: a marker just before the clock ("ab 08:50")
// or heading the line ("Vertrek Amsterdam Centraal 08:16"). A word for
// o'clock before the clock is neither ("15/07 à 17h50": French "à" is
// also "to").
func stopMarks(before string) (dep, arr bool) {
	if strings.IndexFunc(before, unicode.IsLetter) < 0 {
		return false, false
	}
	if endsInClockWord(before) {
		before = clockWord.ReplaceAllString(before, " ")
	}
	_, depEnd := depMarkers.ends(before)
	_, arrEnd := arrMarkers.ends(before)
	_, depStart := depMarkers.starts(before)
	_, arrStart := arrMarkers.starts(before)
	return depEnd || depStart && !arrStart, arrEnd || arrStart && !depStart
}

// toWords are every language's arrival markers of two letters and more
// ("to", "nach", "till"), as alternatives.
func toWords() string {
	var out []string
	for _, w := range lang.Entries("arrival.marker") {
		if utf8.RuneCountInString(w) >= 2 {
			out = append(out, regexp.QuoteMeta(w))
		}
	}
	return strings.Join(longestFirst(out), "|")
}

// textLegs reads the stop lines of a rail itinerary: a clock time and a
// station on each line, the departure line with a train number or a
// departure marker ("ab 10:26 Frankfurt(Main)Hbf (ICE 16)"), followed by
// the arrival line ("an 11:33 Köln Hbf"). It also reads the table form
// "Düsseldorf Hbf 28.12. ab 15:52 19 ICE 943", where the train may also
// be named in the lines above the stops ("TRAIN N°6857").
//
// day, when not nil, is the date of stops that come before any date (a
// calendar event's day).
func (c *msgContext) textLegs(text string, ref time.Time, day *dateMatch) []*Segment {
	type stop struct {
		station string
		clock   clockMatch
		date    *dateMatch
		train   string
		dep     bool
		arr     bool
		line    int
		// trainLine is the line that named the train above the stop,
		// -1 when the stop's own line names it.
		trainLine int
		// stationLine is the line of a station stacked under its clock
		// (stackedStation), -1 when the clock's line names it.
		stationLine int
		// plus is the days after the journey's date that a "(+1)"
		// after the clock gives ("06:10 (+1)  Amsterdam Sloterdijk").
		plus int
		// bus: the service named above is a coach ("Service: 3612" over
		// a "Reserved Thruway Seat").
		bus bool
	}
	var stops []stop
	// The first and last line of a stop's blocks.
	stopStart := func(s stop) int {
		if s.stationLine >= 0 {
			return min(s.line, s.stationLine)
		}
		return s.line
	}
	stopEnd := func(s stop) int { return max(s.line, s.stationLine) }
	lastDate := day
	labelled, labelledAt := "", -1 // a train named since the last stop, and its line
	labelledBus := false           // that service is a coach
	below := -1                    // the line of a label read as the leg's above it
	var routeLegs []*Segment
	var stacked map[int]stackedStop // read when a clock names no station
	lines := markedStopCells(strings.Split(text, "\n"))
	wrapped := -1 // the second line of a leg's sentence read with the first
	for i, ln := range lines {
		if !hasDigit(ln) || i == wrapped {
			continue
		}
		// "Train 513, Seattle King Street → Portland Union Station," /
		// "departs 7:50 AM May 9, arrives 11:20 AM" (trainclockline.go).
		if leg, _ := c.clockLineLeg(lines, i, ref); leg != nil {
			routeLegs = append(routeLegs, leg)
			labelled = ""
			continue
		}
		// "ICE 123 von Köln Hbf nach Berlin Hbf am 12.03. um 08:15": a
		// whole trip in one sentence (trainsentence.go).
		if leg, used := c.sentenceLeg(lines, i, ref); leg != nil {
			routeLegs = append(routeLegs, leg)
			if used >= 0 {
				wrapped = used
			}
			continue
		}
		if m := routeLine(ln); m != nil && lastDate != nil {
			// "Glasgow Central (GLC) to London Euston (EUS), dep 12:40, arr 17:12"
			if leg := c.routeLeg(m, *lastDate); leg != nil {
				routeLegs = append(routeLegs, leg)
			}
			continue
		}
		dates := c.dates(ln)
		if len(dates) > 0 {
			d := dates[0].withYear(ref)
			lastDate = &d
		}
		clocks := findClocks(ln)
		if len(clocks) == 1 && lastDate != nil && i+1 < len(lines) && len(strings.Fields(ln[:clocks[0].start])) >= 5 {
			// A sentence wrapped after its first clock goes on in lower
			// case on the next line ("… kl. 09:14 från Växjö" / "och du
			// är framme i Alvesta kl. 09:32.").
			if leg := c.wrappedLeg(ln, lines[i+1], *lastDate); leg != nil {
				leg.Number = cmp.Or(leg.Number, labelled)
				if leg.Number == "" {
					leg.Number, below = trainUnder(lines, i+1)
				}
				routeLegs = append(routeLegs, leg)
				labelled, wrapped = "", i+1
				continue
			}
		}
		if len(clocks) == 2 && lastDate == nil {
			// A leg on one line with its day under it ("Liberec 06:56 –
			// Zittau 07:40" / "Datum: 25.09.2029").
			if d := c.dateBelow(lines, i, ref); d != nil {
				if leg := c.oneLineLeg(ln, *d, labelled); leg != nil {
					routeLegs = append(routeLegs, leg)
					labelled = ""
					continue
				}
				// A leg in a sentence, its day under it ("Abfahrt 07:45
				// ab Hamburg Hbf, Ankunft 10:12 in Berlin Hbf." /
				// "Datum: 18.12.2027").
				if leg := c.lineLeg(lines, i, clocks, ref, *d, labelled); leg != nil {
					routeLegs = append(routeLegs, leg)
					labelled = ""
					continue
				}
			}
		}
		if len(clocks) == 2 && lastDate != nil {
			// A connection's row, its cells apart by commas (trainrow.go).
			if leg := c.connectionRowLeg(ln, clocks, *lastDate); leg != nil {
				routeLegs = append(routeLegs, leg)
				labelled = ""
				continue
			}
			if leg := c.oneLineLeg(ln, *lastDate, labelled); leg != nil {
				if leg.Number == "" {
					// The label or the service under the leg is this
					// leg's, not the next one's ("Train 9008 - Coach 7",
					// "TER 876511").
					leg.Number, below = trainUnder(lines, i)
				}
				routeLegs = append(routeLegs, leg)
				labelled = ""
				continue
			}
			if leg := c.lineLeg(lines, i, clocks, ref, *lastDate, labelled); leg != nil {
				if leg.Number == "" {
					// As a leg on one line: the train named under it
					// ("Train 9004, Coach 7, Seat 61", "Vlak EC 171").
					leg.Number, below = trainUnder(lines, i)
				}
				routeLegs = append(routeLegs, leg)
				labelled = ""
				continue
			}
			if leg, pair := c.rangeLeg(lines, i, clocks, *lastDate); leg != nil {
				leg.Number = cmp.Or(leg.Number, labelled)
				if leg.Number == "" {
					leg.Number, below = trainUnder(lines, max(i, pair))
				}
				routeLegs = append(routeLegs, leg)
				labelled = ""
				continue
			}
		}
		if len(clocks) == 0 || len(clocks) > 2 {
			if i == below {
				continue
			}
			if m := trainLabel(ln); m != nil {
				labelled, labelledAt, labelledBus = m[1], i, false
			} else if n, bus, ok := serviceHead(lines, i); ok {
				labelled, labelledAt, labelledBus = n, i, bus // "Service: 3612"
			} else if m := trainNumRE.FindString(ln); m != "" {
				labelled, labelledAt = normaliseTrain(m), i
			} else if t := railService(ln); t != "" {
				labelled, labelledAt = t, i // "AVE - 05143 en clase Estándar" (railservice.go)
			} else if t := classedService(ln); t != "" {
				labelled, labelledAt = t, i // "Deutsche Bahn - CB 55672 Zweite Klasse"
			} else if t := brandOverDay(ln, dates); t != "" {
				labelled, labelledAt = t, i // "Alfa Pendular 131 - 24/07/2030"
			} else if n := len(stops); n > 0 && stops[n-1].stationLine >= 0 && i-stopEnd(stops[n-1]) <= 2 &&
				serviceCodeRE.MatchString(strings.TrimSpace(ln)) {
				// A code alone between stacked stops is their train's,
				// whatever its operator ("WB 911").
				labelled, labelledAt = strings.TrimSpace(ln), i
			}
			continue
		}
		ck := clocks[0]
		before, after := ln[:ck.start], ln[ck.end:]
		st := stop{clock: ck, date: lastDate, trainLine: -1, stationLine: -1}
		after, st.plus = withoutDayPlus(withoutZoneAfter(after))
		if m := trainNumRE.FindString(ln); m != "" {
			st.train = normaliseTrain(m)
		} else if labelled != "" {
			st.train, st.trainLine, st.bus = labelled, labelledAt, labelledBus
		} else if t, at := stopTrainAt(after); t != "" {
			st.train = t
			if isBus(t) && at > 0 {
				// A rail replacement bus after its stop ("ab 09:20
				// Koblenz Hbf   Bus 9305 (Ersatzverkehr)"): the bus and
				// what follows it are no part of the stop's name.
				after = after[:at]
			}
		}
		if st.date == nil {
			// The day under the stops ("Date: 18/06/2029" after them).
			st.date = c.dateBelow(lines, i, ref)
		}
		st.dep, st.arr = stopMarks(before)
		st.line = i
		// The station is the text before the date and clock (table form)
		// or after the clock (list form).
		name := before
		if len(dates) > 0 && dates[0].start < ck.start {
			name = withoutWeekday(ln[:dates[0].start]) // "Helsinki, la 18.12.2027 klo 7.12"
			// A timetable's row: the day, the station, the clock
			// ("Ср 11.09.19 | Прага, hl.n. | 16:20 | …").
			if onlyWeekday(name) && strings.IndexByte(ln[dates[0].end:ck.start], '\t') >= 0 {
				name = ln[dates[0].end:ck.start]
			}
		}
		// A station after its label says which stop it is ("Estación de
		// origen: Bilbao-Abando, 08:15 h"); the label is no name.
		if strings.IndexByte(name, ':') > 0 {
			if m := fromStationRE.FindStringSubmatch(name); m != nil {
				name, st.dep = m[1], true
			} else if m := toStationRE.FindStringSubmatch(name); m != nil {
				name, st.arr = m[1], true
			}
		}
		name = stationName(name)
		if name == "" {
			// After the clock, up to a date: "Departure 6:30 PM,
			// Wednesday, September 20, 2028" names no station.
			if len(dates) > 0 && dates[0].start >= ck.end {
				after = ln[ck.end:dates[0].start]
			}
			name = stationName(after)
		}
		if name == "" && len(dates) == 1 && dayAndClockAlone(ln, ck) {
			// The station after its label on the line above the day and
			// clock ("Departure: Chicago (Union Station), Illinois" /
			// "Wednesday May 20, 2015  2:00PM").
			var at int
			if name, st.dep, st.arr, at = labelledStopAbove(lines, i); name != "" {
				st.stationLine = at
			}
		}
		if name == "" && (len(dates) == 0 || dayAndClockAlone(ln, ck)) {
			// A card's blocks, flattened: the clock alone, its station
			// on a line next to it, a marker perhaps on the line above.
			if stacked == nil {
				stacked = stackedStops(cardBlocks(lines))
			}
			if at, ok := stacked[i]; ok {
				name, st.stationLine = at.station, at.line
				if !st.dep && !st.arr {
					st.dep, st.arr = markerAbove(lines, min(i, at.line))
				}
			}
		}
		if name == "" {
			continue
		}
		st.station = name
		stops = append(stops, st)
		labelled = ""
	}
	if len(stops) < 2 && len(routeLegs) == 0 {
		if legs := c.labelledLegs(lines, ref); legs != nil {
			return legs // each direction's block alone (traindirection.go)
		}
	}
	var legs []*Segment
	spans := make([][2]int, len(stops)) // each stop's first and last line
	for i, st := range stops {
		spans[i] = [2]int{stopStart(st), stopEnd(st)}
	}
	usedBelow := -1 // the line of a train label read as the leg's above it
	for i := 0; i+1 < len(stops); i++ {
		a, b := stops[i], stops[i+1]
		if a.trainLine >= 0 && a.trainLine == usedBelow {
			a.train = "" // the label under the leg before, not above this one
		}
		if !a.arr && a.train == "" && !b.dep {
			// A train named right under the two stops is their leg's
			// ("Trein: Eurocity Direct 9215"); without a departure
			// marker it is also what makes them a leg ("07h14 Paris Gare
			// de Lyon", "09h10 Lyon Part Dieu", "TGV INOUI n° 6603").
			// Not the next leg's own label, when every stop is marked
			// and the label stands above the next departure ("●
			// ab 14:09 …" / "○ an 14:20 Bochum Hbf" / "Bochum Hbf ➞
			// Köln Hbf" / "ICE 927" / "● ab 14:49 …": a walk, then the
			// train, in DB's calendar).
			if t, j := trainUnder(lines, stopEnd(b)); t != "" && !(a.dep && b.arr && i+2 < len(stops) && stops[i+2].dep && stops[i+2].trainLine == j) {
				a.train, usedBelow = t, j
			}
		}
		if a.train == "" && b.trainLine > stopEnd(a) {
			// Named between the two stops ("WB 911" between stacked
			// blocks, "RE 9" between "08:04  Augsburg Hbf" and "08:47
			// Ulm Hbf").
			a.train = b.train
		}
		var day *dateMatch // both stops' day, when a card prints it under each
		if a.date != nil && b.date != nil && a.date.y == b.date.y && a.date.m == b.date.m && a.date.d == b.date.d {
			day = a.date
			if d := dayUnder(lines, stopEnd(b), a.date); d != nil && dayUnder(lines, stopEnd(a), a.date) != nil {
				// Each stop's day under it: the second stop's is the
				// one under it, not the first's above it.
				b.date = d
			}
		}
		// A journey's timeline, as a booking app lays it out: each stop a
		// clock over its station, and between a leg's two stops the
		// vehicle's word alone on its line with the leg's duration, its
		// operator, its seat ("Train", "35m", "CrossCountry"); between
		// legs a change ("Change at same station"), which names none.
		vehicle := ""
		if !a.arr && !b.dep && a.train == "" && !a.dep {
			vehicle = vehicleLineBetween(lines, stopEnd(a), stopStart(b))
		}
		if a.arr || !(a.train != "" || a.dep || vehicle != "" || stackedPair(lines, spans, i, a.station, b.station, day)) || b.dep || a.date == nil {
			continue
		}
		// A long-distance train whose stops their labels name (a departure
		// over an arrival, each with its own day) may run four nights
		// ("Chicago … Wednesday May 20" to "Emeryville … Friday May 22").
		if b.date != nil && !dayOrNext(*a.date, *b.date) && !(a.stationLine >= 0 && b.stationLine >= 0 && a.dep && b.arr && withinNights(*a.date, *b.date, 4)) {
			// Stops on days apart (an outward and a return leg's first
			// stops): no leg arrives two days after it left, or before.
			continue
		}
		// A bus leg (a rail replacement, a coach) is a plan of its own
		// kind: trips hold train segments only.
		kind := KindTrain
		if isBus(a.train) || a.bus || vehicle == KindBus || strings.Contains(strings.ToLower(a.station), "(bus") {
			kind = KindBus
		}
		seg := &Segment{Type: kind, Status: StatusConfirmed, Number: a.train,
			// A state or province in full after a comma is where the
			// station lies, not its name (its zone below reads it).
			From: &Place{Name: places.WithoutRegionName(a.station)}, To: &Place{Name: places.WithoutRegionName(b.station)}}
		dw := at(*a.date, &a.clock)
		bd := a.date
		if b.date != nil {
			bd = b.date
		}
		if b.plus > 0 && bd.y == a.date.y && bd.m == a.date.m && bd.d == a.date.d {
			d := bd.plusDays(b.plus) // the days its "(+1)" says
			bd = &d
		}
		aw := at(*bd, &b.clock)
		fz, tz := c.legZones(a.station, b.station, dw, aw)
		seg.Depart = resolve(dw, fz, c.dateLoc)
		seg.Arrive = resolve(aw, tz, c.dateLoc)
		if seg.Arrive.Before(seg.Depart.Time) {
			seg.Arrive.Time = seg.Arrive.AddDate(0, 0, 1)
		}
		legs = append(legs, seg)
		i++
	}
	if len(legs) == 0 && len(routeLegs) == 0 && len(stops) >= 2 {
		// Two clocks read as stops by their labels ("Hora de salida:
		// 10:05") that made no leg: the stations have labels of their
		// own.
		if legs := c.labelledLegs(lines, ref); legs != nil {
			return legs
		}
	}
	if len(legs) == 0 {
		return routeLegs
	}
	return legs
}

// vehicleLineBetween is the kind of the vehicle whose word stands alone
// on one of the few lines between two stops (aEnd, the first's last
// line; bStart, the second's first): KindTrain for a train's word
// (vehicle.train), KindBus for a bus's or a coach's; "" when none does,
// when more than six lines part them or when one holds a clock or a
// date, another stop's or day's. A train's calling points have no such
// line between them.
func vehicleLineBetween(lines []string, aEnd, bStart int) string {
	if aEnd < 0 || bStart <= aEnd+1 || bStart-aEnd > 7 {
		return ""
	}
	kind := ""
	for _, ln := range lines[aEnd+1 : bStart] {
		t := strings.TrimSpace(ln)
		if t == "" {
			continue
		}
		if clockLike(t) || len(findDates(t, false)) > 0 {
			return ""
		}
		switch k := vehicleWord(strings.ToLower(t)); {
		case k == "":
		case kind != "":
			return "" // two vehicles: no one leg
		default:
			kind = k
		}
	}
	return kind
}

// vehicleKinds are the words of vehicle.train, vehicle.bus and
// vehicle.coach, each with its kind.
var vehicleKinds = func() map[string]string {
	m := map[string]string{}
	for _, c := range []struct{ category, kind string }{{"vehicle.bus", KindBus}, {"vehicle.coach", KindBus}, {"vehicle.train", KindTrain}} {
		for _, w := range lang.Entries(c.category) {
			m[strings.ToLower(w)] = c.kind
		}
	}
	return m
}()

// vehicleWord is the kind of the vehicle a lower-cased line names and
// nothing else ("train", "bus", "zug"), or "".
func vehicleWord(l string) string { return vehicleKinds[l] }

// withoutDayPlus is the text after a stop's clock without the days after
// the journey's date that it starts with ("(+1)", "+1"), and those days.
func withoutDayPlus(after string) (string, int) {
	t := strings.TrimLeft(after, " \t")
	paren := strings.HasPrefix(t, "(+")
	if !paren && !strings.HasPrefix(t, "+") {
		return after, 0
	}
	t = t[strings.IndexByte(t, '+')+1:]
	if t == "" || t[0] < '1' || t[0] > '2' {
		return after, 0
	}
	n, t := int(t[0]-'0'), t[1:]
	if paren {
		if !strings.HasPrefix(t, ")") {
			return after, 0
		}
		t = t[1:]
	}
	if t != "" && t[0] != ' ' && t[0] != '\t' && t[0] != ',' {
		return after, 0
	}
	return t, n
}

// plusDays is the date n days after d.
func (d dateMatch) plusDays(n int) dateMatch {
	t := time.Date(d.y, time.Month(d.m), d.d+n, 0, 0, 0, 0, time.UTC)
	d.y, d.m, d.d = t.Year(), int(t.Month()), t.Day()
	return d
}

// dayOrNext reports whether b is a's day or the day after it.
func dayOrNext(a, b dateMatch) bool {
	ta := time.Date(a.y, time.Month(a.m), a.d, 0, 0, 0, 0, time.UTC)
	tb := time.Date(b.y, time.Month(b.m), b.d, 0, 0, 0, 0, time.UTC)
	return !tb.Before(ta) && !tb.After(ta.AddDate(0, 0, 1))
}

// withinNights reports whether b is a day after a, at most n days on.
func withinNights(a, b dateMatch, n int) bool {
	ta := time.Date(a.y, time.Month(a.m), a.d, 0, 0, 0, 0, time.UTC)
	tb := time.Date(b.y, time.Month(b.m), b.d, 0, 0, 0, 0, time.UTC)
	return tb.After(ta) && !tb.After(ta.AddDate(0, 0, n))
}

// dateBelow is the first date on the four lines after line i, the day of
// stops that come before it.
func (c *msgContext) dateBelow(lines []string, i int, ref time.Time) *dateMatch {
	for j := i + 1; j < len(lines) && j <= i+4; j++ {
		if ds := c.dates(lines[j]); len(ds) > 0 {
			d := ds[0].withYear(ref)
			return &d
		}
	}
	return nil
}

// dayUnder is the day alone on the first line under line i that is not
// blank ("lørdag 13. marts 2027"), its year ref's when it gives none, or
// nil.
func dayUnder(lines []string, i int, ref *dateMatch) *dateMatch {
	for j := i + 1; j < len(lines); j++ {
		ln := strings.TrimSpace(lines[j])
		if ln == "" {
			continue
		}
		ds := findDates(ln, false)
		if len(ds) != 1 || !onlyWeekday(strings.Trim(ln[:ds[0].start]+" "+ln[ds[0].end:], " ,.-–")) {
			return nil
		}
		d := ds[0]
		if !d.hasYear {
			d.y, d.hasYear = ref.y, true
		}
		return &d
	}
	return nil
}

// serviceCodeRE is a train's code alone on its line: an operator's
// letters and a number ("WB 911", "RJX 165").
var serviceCodeRE = lazyregexp.New(`^[A-Z]{1,4} ?\d{1,5}$`)

// railLeg is a train leg from its stations and the day and clock of its
// departure and of its arrival; an arrival clock before the departure's
// is the next day's.
func (c *msgContext) railLeg(number, from, to string, depDay, arrDay dateMatch, dep, arr *clockMatch) *Segment {
	seg := &Segment{Type: KindTrain, Status: StatusConfirmed, Number: number, From: &Place{Name: from}, To: &Place{Name: to}}
	fz, tz := c.legZones(from, to, at(depDay, dep), at(arrDay, arr))
	seg.Depart = resolve(at(depDay, dep), fz, c.dateLoc)
	// A train does not cross an ocean: a station whose name is a town's
	// on another continent too ("York") is in its departure's zone.
	if tz.loc != nil && seg.Depart != nil {
		_, a := seg.Depart.Time.In(tz.loc).Zone()
		_, b := seg.Depart.Time.Zone()
		if d := a - b; d >= 4*3600 || d <= -4*3600 {
			tz = fz
		}
	}
	if tz.loc == nil {
		tz = fz // a station no data places is in its departure's zone
	}
	seg.Arrive = resolve(at(arrDay, arr), tz, c.dateLoc)
	if seg.Arrive.Before(seg.Depart.Time) {
		seg.Arrive.Time = seg.Arrive.AddDate(0, 0, 1)
	}
	return seg
}

// trainNear is the train a label names on the three lines after line i,
// before any other stop's clock.
func trainNear(lines []string, i int) (string, int) {
	for j := i + 1; j < len(lines) && j <= i+3; j++ {
		if m := trainLabel(lines[j]); m != nil {
			return m[1], j
		}
		if findClocks(lines[j]) != nil {
			break
		}
	}
	return "", -1
}

// trainUnder is trainNear that also takes a bare service and number
// ("TGV INOUI n° 6603 · Voiture 14"), with the line it is on.
func trainUnder(lines []string, i int) (string, int) {
	if t, j := trainNear(lines, i); t != "" {
		return t, j
	}
	for j := i + 1; j < len(lines) && j <= i+3 && findClocks(lines[j]) == nil; j++ {
		if m := trainNumRE.FindString(lines[j]); m != "" {
			return normaliseTrain(m), j
		}
		if t := serviceLine(lines[j]); t != "" {
			return t, j
		}
	}
	return "", -1
}

// brandOverDayRE is a service known by its brand and number, then a
// dash before the day's date: "Alfa Pendular 131 - 24/07/2030".
var brandOverDayRE = lazyregexp.New(`^(\p{Lu}\p{Ll}{2,}(?: \p{Lu}\p{Ll}{2,}){0,2}) (\d{2,5}) [-–—] $`)

// brandOverDay is the service of a line above a leg that is brandOverDayRE's
// and its one date, or "": its words are no label, weekday or month ("Reserva
// 4412 - 24/07/2030", "Saturday 18 - …").
func brandOverDay(ln string, dates []dateMatch) string {
	if len(dates) != 1 || strings.TrimSpace(ln[dates[0].end:]) != "" || strings.IndexByte(ln, ':') >= 0 {
		return ""
	}
	m := brandOverDayRE.FindStringSubmatch(ln[:dates[0].start])
	if m == nil || findReservation(ln+":") != "" {
		return ""
	}
	for _, w := range strings.Fields(m[1]) {
		l := lower(w)
		if weekdayNames[l] > 0 || monthNames[l] > 0 || notService[l] || labelWords[l] {
			return ""
		}
	}
	return m[1] + " " + m[2]
}

// labelWords are the words of the labels of a booking's, an order's, an
// invoice's or a ticket's number in every language ("Reserva", "Order",
// "Ticket"), which head a number rather than name a service.
var labelWords = func() map[string]bool {
	m := map[string]bool{}
	for _, cat := range []string{"reservation", "order", "invoice", "ticket.code", "route.label"} {
		for _, e := range lang.Entries(cat) {
			for _, w := range strings.FieldsFunc(lower(e), func(r rune) bool { return !unicode.IsLetter(r) }) {
				if utf8.RuneCountInString(w) >= 3 {
					m[w] = true
				}
			}
		}
	}
	return m
}()

// serviceLineRE is a line that opens with a service's category and
// number and holds nothing else but what follows a comma or a dot: "ALX
// 84107", "Os 259", "S 23, 2. Klasse", "RE 2".
var serviceLineRE = lazyregexp.New(`^(\p{Lu}[\p{Lu}\p{Ll}]{0,3}) ?(\d{1,5})(?:[,·(]|$)`)

// serviceLine is the service a line under a leg's stops names by its
// category and number alone, whatever its operator, if it is one: not a
// coach, seat or platform ("Wagen 12", "Gleis 5", "Koht 14").
func serviceLine(ln string) string {
	ln = strings.TrimSpace(ln)
	if ln == "" || ln[0] < 'A' || ln[0] > 'Z' {
		return ""
	}
	m := serviceLineRE.FindStringSubmatch(ln)
	if m == nil {
		return brandedService(ln)
	}
	// A seat's or a carriage's word in any language ("Koht 14", "Iste 14",
	// "Rida 3") is no service either.
	if w := strings.ToLower(m[1]); notService[w] || seatWords()[w] {
		return ""
	}
	return m[1] + " " + m[2]
}

// brandedServiceRE is a line that opens with a service's category, a
// brand's one or two words and the number after a word for it: "TGV
// Lyria n° 9761, voiture 12", "ICE Sprinter Nr. 1003".
var brandedServiceRE = lazyregexp.New(`^(\p{Lu}{1,5})((?: \p{Lu}[\p{L}-]{1,14}){1,2}) (?:n[°º]\.?|[Nn]r\.|[Nn]o\.) ?(\d{1,6})(?:[,·(]|$)`)

// trainCategorySet holds trainCategories.
var trainCategorySet = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range trainCategories {
		m[c] = true
	}
	return m
}()

// brandedService is the service of brandedServiceRE's line when its
// category is one trainNumRE knows: "Commande n° 448812" is no train.
func brandedService(ln string) string {
	m := brandedServiceRE.FindStringSubmatch(ln)
	if m == nil || !trainCategorySet[m[1]] {
		return ""
	}
	return m[1] + m[2] + " " + m[3]
}

func (c *msgContext) routeLeg(m []string, d dateMatch) *Segment {
	dep, arr := findClocks(m[3]), findClocks(m[4])
	from, to := stationName(m[1]), stationName(m[2])
	if len(dep) != 1 || len(arr) != 1 || from == "" || to == "" {
		return nil
	}
	return c.railLeg("", from, to, d, d, &dep[0], &arr[0])
}

// notService are the words before a number on a stop line that name a
// seat, car or platform, not a train: a bus's bay and a platform in any
// language among them ("(quai 4)", "(cais 12)", ", stade 3").
var notService = func() map[string]bool {
	m := map[string]bool{"gleis": true, "voie": true, "place": true, "platz": true, "pl": true, "wg": true,
		"wagen": true, "voiture": true, "coach": true, "car": true, "seat": true, "sitz": true, "bahnsteig": true, "asiento": true, "sitzplatz": true,
		"vůz": true, "vuz": true, "misto": true, "km": true, "osob": true, "kl": true, "cl": true}
	for _, w := range strings.Split(bayWords+"|"+platformWords, "|") {
		m[w] = w != "via" // VIA Rail's trains ("VIA 66")
	}
	return m
}()

func isBus(service string) bool {
	f := strings.Fields(strings.ToLower(service))
	return len(f) > 0 && (f[0] == "bus" || strings.HasPrefix(f[0], "bus") && hasDigit(f[0]))
}

// trainLabelAnchors are what every match of trainLabelRE holds, one of
// its words or their endings.
var trainLabelAnchors = []string{"train", "zug", "tren", "vlak", "spoj", "trein", "italo", "regional", "tåg", "tog", "juna", "pociąg", "comboio", "trem", "поезд", "потяг", "поїзд", "влак", "воз", "voz", "τρένο", "τρενο", "αμαξοστοιχία", "αμαξοστοιχια", "vonat", "traukin", "vilcien", "rong"}

func normaliseTrain(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	if m := trainNumRE.FindStringSubmatch(s); m != nil {
		return m[1] + " " + m[2]
	}
	return strings.Join(f, " ")
}

// trainCategories are the train categories trainNumRE knows, standing by
// their first letters, which the regexp package folds into one branch
// each: twice as fast as in no order. A category that begins another
// ("IC", "ICE") matches only before a space, "n°" or a digit, so which of
// them is tried first changes no match.
var trainCategories = []string{"ICE", "IC", "INOUI", "IRE", "IR", "Intercity", "ECE", "EC", "EIC", "EIP", "EST", "EN", "Eurostar",
	"TLK", "TGV", "THA", "TER", "Thalys", "OUIGO", "RE", "RB", "RJX", "RJ", "RRX", "Railjet", "FR", "FA", "FB", "FLX",
	"Frecciarossa", "AVE", "ALVIA", "NJ", "X2", "SJ", "SC", "D", "KTX", "SRT", "ITX", "YHT"}

// trainNumRE is a train's category and number ("ICE 1045", "EC n° 41"),
// with the service's name whole where a category is named by two ("TGV
// INOUI 8536", not "INOUI 8536").
var trainNumRE = trainNumExpr{lazyregexp.New(`\b((?:TGV )?(?:` + strings.Join(trainCategories, "|") +
	`))\s{0,4}(?:(?:n[°º]|nr\.|no\.)\s{0,2})?(\d{1,6})\b`)}

// trainNumExpr is the expression of trainNumRE behind mayHoldTrainNumber:
// every line of a journey's mail is searched for a train's number, and
// the expression, with no literal to start from, is tried at each place.
type trainNumExpr struct{ re *lazyregexp.Regexp }

func (t trainNumExpr) FindString(s string) string {
	if m := t.FindStringIndex(s); m != nil {
		return s[m[0]:m[1]]
	}
	return ""
}

func (t trainNumExpr) FindStringIndex(s string) []int {
	if !mayHoldTrainNumber(s) {
		return nil
	}
	// The first match not between slashes, looked for past each one
	// that is: a match ends at a word's end, so the rest starts at one.
	for off := 0; off < len(s); {
		m := t.re.FindStringIndex(s[off:])
		if m == nil {
			return nil
		}
		if start, end := off+m[0], off+m[1]; !slashed(s, start, end) {
			return []int{start, end}
		}
		off += m[1]
	}
	return nil
}

func (t trainNumExpr) FindStringSubmatch(s string) []string {
	m := t.FindStringIndex(s)
	if m == nil {
		return nil
	}
	return t.re.FindStringSubmatch(s[m[0]:m[1]])
}

// ReplaceAllLiteralString is the regexp's, but that a match between
// slashes stays.
func (t trainNumExpr) ReplaceAllLiteralString(s, repl string) string {
	if !mayHoldTrainNumber(s) {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range t.re.FindAllStringIndex(s, -1) {
		if slashed(s, m[0], m[1]) {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(repl)
		last = m[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// slashed reports whether s[start:end] stands between slashes, as a
// coach and berth in a booking's status do ("CNF/D7/24": coach D7, berth
// 24, no D train).
func slashed(s string, start, end int) bool {
	return start > 0 && s[start-1] == '/' && end < len(s) && s[end] == '/'
}

// mayHoldTrainNumber reports whether s holds what every match of
// trainNumRE does: a category at the start of a word, up to six spaces,
// or up to four, "n°", "nº", "nr." or "no." and up to two, then a digit.
func mayHoldTrainNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' || i > 0 && isASCIIWordByte(s[i-1]) {
			continue
		}
		for _, c := range trainCategories {
			if !strings.HasPrefix(s[i:], c) {
				continue
			}
			j := i + len(c)
			k := spacesAt(s, j)
			if k <= 6 && j+k < len(s) && isDigitByte(s[j+k]) {
				return true
			}
			if k > 4 {
				continue
			}
			for _, no := range []string{"n°", "nº", "nr.", "no."} {
				if rest, ok := strings.CutPrefix(s[j+k:], no); ok {
					if m := spacesAt(rest, 0); m <= 2 && m < len(rest) && isDigitByte(rest[m]) {
						return true
					}
				}
			}
		}
	}
	return false
}
