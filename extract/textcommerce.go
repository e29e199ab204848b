package extract

import (
	"cmp"
	"iter"
	"mailnode/extract/lang"
	"mailnode/extract/places"
	"mailnode/extract/words"

	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Train legs from text.

var (
	// A train named by its label in the lines above its stops: "TRAIN
	// N°6857", "Train No.:12345", "Zug 1234".
	// The service's name may stand between: "Trein: Eurocity Direct 9215",
	// "Regionale Veloce 2615"; capitalised, whatever (?i) says of the rest
	// ("Train ticket for 11 December" names no train).
	// In the Nordic languages the kind of train is one word with it
	// ("SJ Snabbtåg 527", "Lyntog 12", "Pikajuna 71", "Västtågen 3009").
	trainLabelRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:train|zug|treno|tren|vlak|trein|italo|regionale?|\p{L}*t[åo]g(?:en|et)?|\p{L}*juna|pociąg|comboio|trem)\s*(?:n[°ºo]\.?|nr\.?|no\.?|number|nummer)?\s*[:.]?\s*(?-i:\p{Lu}\p{L}+\s+){0,3}(\d{2,6})\b`)
	// A leg on one line: "Tåg 421  Stockholm C 07:12 - Göteborg C 10:19".
	// The clocks may be in parentheses and written with an h: "Lyon
	// Part-Dieu (08h04) → Grenoble (09h32)".
	// The train may follow the arrival's clock ("…, Intercity direct
	// 1012", "… (ICE 654)"), and so may the days it arrives after ("(+1)").
	// The stops may also be apart by a word for "to" (arrival.marker):
	// "Manchester Victoria 08:02 to Leeds 08:55", or be a table's cells
	// apart by bars: "Madrid-Puerta de Atocha 08:30 | Barcelona-Sants
	// 11:02 | AVE 03063".
	oneLineLegRE = regexp.MustCompile(`^(.*?)\s\(?(\d{1,2}[:.h]\d{2})\)?\s*(?:-|–|—|→|->|>|\||\s(?i:` + toWords() + `)\s)\s*(\S.*?)\s+\(?(\d{1,2}[:.h]\d{2})\)?(?:\s*\(?\+\d\)?)?(?:\s*(?:[,;|]\s*|\(|\s)(\p{L}[\p{L} ]{0,30}\d{1,6})\)?)?\s*$`)
	// On a stop line, after the clock: a service category and number
	// ("R 945", "Sp 1786", "S0", "IC 147").
	// Not the end of a word ("spår 14": \b is ASCII's, and å no letter).
	stopTrainRE = regexp.MustCompile(`(?:^|[^\p{L}])([A-Za-z]{1,5})\s{0,4}(\d{1,6})\b`)
)

// trainLabelIndex is trainLabelRE's first match in s whose number is no
// date's ("Billete de tren 14/01/2030"), as FindStringSubmatchIndex.
func trainLabelIndex(s string) []int {
	if !mayHoldFolded(s, trainLabelAnchors) {
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
	m := stopTrainRE.FindStringSubmatchIndex(after)
	if m == nil || notService[strings.ToLower(after[m[2]:m[3]])] {
		return ""
	}
	if datePartNext(after[m[1]:]) {
		return ""
	}
	return after[m[2]:m[3]] + " " + after[m[4]:m[5]]
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
	below := -1                    // the line of a label read as the leg's above it
	var routeLegs []*Segment
	var stacked map[int]stackedStop // read when a clock names no station
	lines := strings.Split(text, "\n")
	wrapped := -1 // the second line of a leg's sentence read with the first
	for i, ln := range lines {
		if !hasDigit(ln) || i == wrapped {
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
		if len(clocks) == 2 && lastDate != nil {
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
				labelled, labelledAt = m[1], i
			} else if m := trainNumRE.FindString(ln); m != "" {
				labelled, labelledAt = normaliseTrain(m), i
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
		if m := trainNumRE.FindString(ln); m != "" {
			st.train = normaliseTrain(m)
		} else if labelled != "" {
			st.train, st.trainLine = labelled, labelledAt
		} else if t := stopTrain(after); t != "" {
			st.train = t
		}
		if st.date == nil {
			// The day under the stops ("Date: 18/06/2029" after them).
			for j := i + 1; j < len(lines) && j <= i+4; j++ {
				if ds := c.dates(lines[j]); len(ds) > 0 {
					d := ds[0].withYear(ref)
					st.date = &d
					break
				}
			}
		}
		st.dep, st.arr = stopMarks(before)
		st.line = i
		// The station is the text before the date and clock (table form)
		// or after the clock (list form).
		name := before
		if len(dates) > 0 && dates[0].start < ck.start {
			name = ln[:dates[0].start]
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
		if name == "" && len(dates) == 0 {
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
		if leg := c.labelledLeg(lines, ref); leg != nil {
			return []*Segment{leg}
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
			if t, j := trainUnder(lines, b.line); t != "" {
				a.train, usedBelow = t, j
			}
		}
		if a.train == "" && b.trainLine > stopEnd(a) {
			// Named between the two stops ("WB 911" between stacked
			// blocks, "RE 9" between "08:04  Augsburg Hbf" and "08:47
			// Ulm Hbf").
			a.train = b.train
		}
		if a.arr || !(a.train != "" || a.dep || stackedPair(lines, spans, i, a.station, b.station)) || b.dep || a.date == nil {
			continue
		}
		// A bus leg (a rail replacement, a coach) is a plan of its own
		// kind: trips hold train segments only.
		kind := KindTrain
		if isBus(a.train) || strings.Contains(strings.ToLower(a.station), "(bus") {
			kind = KindBus
		}
		seg := &Segment{Type: kind, Status: StatusConfirmed, Number: a.train,
			From: &Place{Name: a.station}, To: &Place{Name: b.station}}
		dw := at(*a.date, &a.clock)
		seg.Depart = resolve(dw, c.stationZone(a.station, dw), c.dateLoc)
		bd := a.date
		if b.date != nil {
			bd = b.date
		}
		aw := at(*bd, &b.clock)
		seg.Arrive = resolve(aw, c.stationZone(b.station, aw), c.dateLoc)
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
		if leg := c.labelledLeg(lines, ref); leg != nil {
			return []*Segment{leg}
		}
	}
	if len(legs) == 0 {
		return routeLegs
	}
	return legs
}

// serviceCodeRE is a train's code alone on its line: an operator's
// letters and a number ("WB 911", "RJX 165").
var serviceCodeRE = regexp.MustCompile(`^[A-Z]{1,4} ?\d{1,5}$`)

// stackedStop is a stop of a card laid out as stacked blocks: its
// station's name and line.
type stackedStop struct {
	station string
	line    int
}

// A line of text as a block of a card: a clock alone ('K'), a station
// alone ('S'), one stop on one line ('P': "07:30 Birmingham New Street"),
// or anything else ('O').
type cardBlock struct {
	line int
	kind byte
	name string
}

// cardBlocks classifies the lines of text that are not blank. Most
// mails have few clocks and many lines: the clocks' blocks are found
// first, by a byte scan before any expression, and a station's block is
// looked for only within two blocks of one.
func cardBlocks(lines []string) []cardBlock {
	var bs []cardBlock
	var clocked []int // indexes in bs of the clocks' blocks
	for i, ln := range lines {
		t := strings.TrimSpace(ln)
		if t == "" {
			continue
		}
		b := cardBlock{line: i, kind: 'O'}
		if len(t) <= 60 && clockLike(t) {
			if cks := findClocks(t); len(cks) == 1 && len(findDates(t, false)) == 0 {
				before, after := stationName(t[:cks[0].start]), stationName(t[cks[0].end:])
				switch {
				case before == "" && after == "" && len(t) <= 24:
					b.kind = 'K'
				case before == "" && after != "" && after == aloneStation(strings.TrimSpace(t[cks[0].end:])):
					b.kind, b.name = 'P', after
				case after == "" && before != "" && before == aloneStation(strings.TrimSpace(t[:cks[0].start])):
					b.kind, b.name = 'P', before
				}
				if b.kind == 'K' {
					clocked = append(clocked, len(bs))
				}
			}
		}
		bs = append(bs, b)
	}
	for _, k := range clocked {
		for j := max(0, k-2); j < min(len(bs), k+3); j++ {
			if b := &bs[j]; b.kind == 'O' && b.name == "" {
				t := strings.TrimSpace(lines[b.line])
				if b.name = aloneStation(t); b.name != "" {
					b.kind = 'S'
				}
			}
		}
	}
	return bs
}

// clockLike reports whether s holds what may be a clock: one or two
// digits, a colon, an "h" or a dot, two digits ("07:30", "7h30").
func clockLike(s string) bool {
	for i := 1; i+2 < len(s); i++ {
		if c := s[i]; (c == ':' || c == 'h' || c == '.') && isDigitByte(s[i-1]) && isDigitByte(s[i+1]) && isDigitByte(s[i+2]) {
			return true
		}
	}
	return false
}

// aloneStation is a line that is a station's name and nothing else, or "":
// no digit, no label's colon, no sentence's mark, and no words of a
// ticket's class or fare, which a card puts under a clock too ("Standard
// Class", "Sparpreis": ticket.class in extract/lang/data).
func aloneStation(t string) string {
	if hasDigit(t) || strings.ContainsAny(t, ":@/()!?") || ticketClass.In(strings.ToLower(t)) {
		return ""
	}
	if s := stationName(t); s != "" && s == strings.TrimRight(t, " .,") {
		return s
	}
	return ""
}

var ticketClass = words.NewWholeSet(lang.Entries("ticket.class"))

// stackedStops reads a card's stacked blocks, as flattened HTML lays out
// a ticket: each clock alone on its line (perhaps after a marker), its
// station alone on a line next to it. A run of blocks alternates, a clock
// and a station, with at most one other line between two of them (a
// duration, "direct", a marker, a train's code). The station is the
// one after its clock ("07:30", "Birmingham New Street"), unless the run
// starts with a station and ends with a clock ("Köln Hbf", "08:34",
// "München Hbf", "12:58"): then the one before. It maps each clock's line
// to its stop.
func stackedStops(bs []cardBlock) map[int]stackedStop {
	out := map[int]stackedStop{}
	for k := 0; k < len(bs); {
		var run []cardBlock
		skipped := false
		j := k
		for ; j < len(bs); j++ {
			b := bs[j]
			// One other line between two blocks that alternate.
			if b.kind == 'O' && len(run) > 0 && j+1 < len(bs) && !skipped &&
				(bs[j+1].kind == 'K' || bs[j+1].kind == 'S') && bs[j+1].kind != run[len(run)-1].kind {
				skipped = true
				continue
			}
			skipped = false
			if b.kind != 'K' && b.kind != 'S' || len(run) > 0 && run[len(run)-1].kind == b.kind {
				break
			}
			run = append(run, b)
		}
		stationFirst := len(run) > 0 && run[0].kind == 'S' && run[len(run)-1].kind == 'K'
		for x, b := range run {
			y := x + 1
			if stationFirst {
				y = x - 1
			}
			if b.kind == 'K' && y >= 0 && y < len(run) {
				out[b.line] = stackedStop{run[y].name, run[y].line}
			}
		}
		k = max(j, k+1)
	}
	return out
}

// markerAbove reads a stop's marker alone on the line above its first
// block ("Partenza" over "08:05"), as a card's label block.
func markerAbove(lines []string, i int) (dep, arr bool) {
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		ln := strings.TrimSpace(lines[j])
		if ln == "" {
			continue
		}
		if hasDigit(ln) || stationName(ln) != "" {
			return false, false
		}
		return stopMarks(ln)
	}
	return false, false
}

// adjacent reports whether a stop whose first line is bStart follows one
// whose last is aEnd straight away, or after one line between (a
// duration, "direct"; not a date, which makes it another day's).
func adjacent(lines []string, aEnd, bStart int) bool {
	if aEnd < 0 || bStart <= aEnd {
		return false
	}
	between := 0
	for _, ln := range lines[aEnd+1 : bStart] {
		if strings.TrimSpace(ln) == "" {
			continue
		}
		if between++; between > 1 || len(findDates(ln, false)) > 0 {
			return false
		}
	}
	return true
}

// stackedPair reports whether two adjacent stops, with no marker and no
// train to say so, are a leg: both stations are in towns the places data
// knows ("07:30 Birmingham New Street" over "09:14 Bristol Temple Meads",
// or the same as stacked blocks), not a programme's "Doors open" and
// "Main act", and no other stop is adjacent to them: a list of three and
// more is a train's calling points, not its leg.
func stackedPair(lines []string, stops [][2]int, i int, a, b string) bool {
	if !adjacent(lines, stops[i][1], stops[i+1][0]) ||
		i > 0 && adjacent(lines, stops[i-1][1], stops[i][0]) ||
		i+2 < len(stops) && adjacent(lines, stops[i+1][1], stops[i+2][0]) {
		return false
	}
	return (knownTown(a) || stationNamed(a)) && (knownTown(b) || stationNamed(b))
}

// knownTown reports whether a station's name starts with a town the
// places data knows ("Birmingham New Street").
func knownTown(station string) bool {
	_, loc := places.CityZone(station)
	return loc != nil
}

// stationWords are every language's words that make a name a station's
// ("Ulm Hbf", "Gare de Lyon", "Kraków Główny": station.word), lower case.
var stationWords = wordSet("station.word")

// stationNamed reports whether a name holds a word of stationWords, a
// letter alone only at its end ("Oslo S", "Stockholm C"): a station in a
// town the places data does not know.
func stationNamed(name string) bool {
	f := strings.Fields(strings.ToLower(name))
	for i, w := range f {
		if stationWords[w] && (len(w) > 1 || i == len(f)-1 && i > 0) {
			return true
		}
	}
	// Entries of two words ("hl. n.", "gare routière").
	for i := 0; i+1 < len(f); i++ {
		if stationWords[f[i]+" "+f[i+1]] {
			return true
		}
	}
	return false
}

// routeLineRE is a leg on one line: from, "to", to, then its departure
// and arrival clocks ("…, dep 12:40, arr 17:12", "…, departing 07:22,
// arriving 10:50").
var routeLineRE = regexp.MustCompile(`(?i)^(?:[^:]{0,40}:)?\s*(.{2,60}?)\s+(?:to|nach|naar|→|->|➞)\s+(.{2,60}?)[,;]?\s+(?:dep\.?|departs?|departing|ab)\s*(\d{1,2}:\d{2})[,;]?\s+(?:arr\.?|arrives?|arriving|an)\s*(\d{1,2}:\d{2})`)

// routeSeparated reports whether ln holds what routeLineRE needs between
// its stations: an arrow, or "to", "nach" or "naar" with white space on
// both sides.
func routeSeparated(ln string) bool {
	if strings.Contains(ln, "→") || strings.Contains(ln, "->") || strings.Contains(ln, "➞") {
		return true
	}
	l := asciiLower(ln)
	for _, w := range []string{"to", "nach", "naar"} {
		for i := 0; ; {
			j := strings.Index(l[i:], w)
			if j < 0 {
				break
			}
			j += i
			if j > 0 && isREspace(l[j-1]) && j+len(w) < len(l) && isREspace(l[j+len(w)]) {
				return true
			}
			i = j + 1
		}
	}
	return false
}

// isREspace is the regexp package's \s: ASCII white space but \v.
func isREspace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r' }

// routeLine is routeLineRE's submatches in ln, not looked for in a line
// without a clock's colon.
func routeLine(ln string) []string {
	if !digitsAround(ln, ":") || !routeSeparated(ln) {
		return nil
	}
	return routeLineRE.FindStringSubmatch(ln)
}

// oneLineLeg reads a leg whose two stops share a line: the train and
// departure station, its clock, a dash or arrow, the arrival station and
// its clock. labelled is a train named on the lines above.
func (c *msgContext) oneLineLeg(ln string, d dateMatch, labelled string) *Segment {
	// A platform after a stop's clock ("Wien Hbf 07:30 Gleis 8 →
	// Salzburg Hbf 10:00 Gleis 3") and a date that starts the line
	// ("14.1.2030 Praha hl.n. 08:02 → …") are neither station.
	ln = inlinePlatformRE.ReplaceAllString(ln, "$1")
	if ds := c.dates(ln); len(ds) > 0 && strings.TrimSpace(ln[:ds[0].start]) == "" {
		ln = ln[ds[0].end:]
	}
	m := oneLineLegRE.FindStringSubmatch(withoutTrailingDate(ln, c.usSender()))
	if m == nil {
		return nil
	}
	dep, arr := findClocks(m[2]), findClocks(m[4])
	head := m[1]
	number := labelled
	if t := trainLabelIndex(head); t != nil {
		number = head[t[2]:t[3]]
		head = head[:t[0]] + " " + head[t[1]:]
	} else if t := trainNumRE.FindStringIndex(head); t != nil {
		number = normaliseTrain(head[t[0]:t[1]])
		head = head[:t[0]] + " " + head[t[1]:]
	}
	if i := strings.LastIndex(head, ": "); i >= 0 {
		head = head[i+2:] // "Votre trajet : Lyon Part-Dieu"
	}
	if f := strings.Fields(m[5]); len(f) > 0 && notService[strings.ToLower(strings.TrimRight(f[0], "."))] {
		m[5] = "" // "Wagen 12": a coach, not a train
	}
	if number == "" && m[5] != "" {
		// The service after the arrival: its number is its last word.
		f := strings.Fields(m[5])
		number = f[len(f)-1]
		if t := trainNumRE.FindString(m[5]); t != "" {
			number = normaliseTrain(t)
		}
	}
	from, to := stationName(head), stationName(m[3])
	if len(dep) != 1 || len(arr) != 1 || from == "" || to == "" || isBus(number) {
		return nil
	}
	return c.railLeg(number, from, to, d, d, &dep[0], &arr[0])
}

// inlinePlatformRE is a platform right after a stop's clock.
var inlinePlatformRE = regexp.MustCompile(`(?i)(\d[:.h]\d\d)\s+(?:` + platformWords + `|gl\.)\s*\d{1,2}[a-z]?\b`)

// platformWords are the words for a platform, as alternatives.
const platformWords = `gleis|platform|track|voie|spor|vía|via|binario|kolej|perron|peron|quai`

// lineLeg reads line i, which holds two clocks, as a leg of the other
// one-line shapes, in the order they are tried: each clock before its
// station, markers in a sentence, the stations as a pair before marked
// clocks, a table's row under a header that names its columns or that
// names departure and arrival. labelled is a train named above.
func (c *msgContext) lineLeg(lines []string, i int, clocks []clockMatch, ref time.Time, day dateMatch, labelled string) *Segment {
	ln := lines[i]
	if leg := c.clockFirstLeg(ln, day, labelled); leg != nil {
		return leg
	}
	if leg := c.markedLeg(ln, clocks, day); leg != nil {
		leg.Number = cmp.Or(leg.Number, labelled)
		return leg
	}
	if leg := c.pairMarkedLeg(ln, clocks, day); leg != nil {
		leg.Number = cmp.Or(leg.Number, labelled)
		return leg
	}
	if leg := c.headerRowLeg(lines, i, ref, day); leg != nil {
		return leg
	}
	if leg := c.tableRowLeg(lines, i, clocks, ref, day); leg != nil {
		return leg
	}
	return c.bareRowLeg(ln, day, labelled)
}

// bareRowRE is a row of two stops, each a name and its clock, apart by
// nothing but spaces: "Lisboa Santa Apolónia 09:00 Porto Campanhã 11:49".
var bareRowRE = regexp.MustCompile(`^\s*(\p{Lu}[^\d:]{1,50}?)\s+(\d{1,2}[:.]\d{2})\s+(\p{Lu}[^\d:]{1,50}?)\s+(\d{1,2}[:.]\d{2})\s*$`)

// bareRowLeg reads bareRowRE's row as a leg when each name is a station's
// by the places data or a station's word: with no marker or arrow between
// them, only the names tell stops from "Check-in 15:00 Check-out 11:00".
func (c *msgContext) bareRowLeg(ln string, d dateMatch, labelled string) *Segment {
	m := bareRowRE.FindStringSubmatchIndex(ln)
	if m == nil {
		return nil
	}
	from, to := stationName(ln[m[2]:m[3]]), stationName(ln[m[6]:m[7]])
	for _, st := range []string{from, to} {
		if st == "" || !knownTown(st) && !stationNamed(st) {
			return nil
		}
	}
	clocks := findClocks(ln)
	if len(clocks) != 2 || isBus(labelled) {
		return nil
	}
	return c.railLeg(labelled, from, to, d, d, &clocks[0], &clocks[1])
}

// wrappedLeg reads a leg's sentence that a line break cut after its
// first clock: the next line goes on in lower case and holds the second
// clock. Only the sentence shapes (markedLeg's) are tried.
func (c *msgContext) wrappedLeg(ln, next string, d dateMatch) *Segment {
	next = strings.TrimSpace(next)
	r, _ := utf8.DecodeRuneInString(next)
	if !unicode.IsLower(r) {
		return nil
	}
	joined := strings.TrimRight(ln, " \t") + " " + next
	clocks := findClocks(joined)
	if len(clocks) != 2 {
		return nil
	}
	return c.markedLeg(joined, clocks, d)
}

// cellLabelRE is a label that starts a cell of a line whose cells are
// apart by two spaces or more: "  Partenza: 08:15".
var cellLabelRE = regexp.MustCompile(`(?:\s{2,}|\t)\p{L}[\p{L} .'’-]{0,24}:\s`)

// labelCells puts each labelled cell of a line on a line of its own when
// the line holds three or more ("Da: Lecce  A: Gallipoli  Partenza: 08:15
// Arrivo: 09:22"), so that each label is read as if it started its line.
func labelCells(lines []string) []string {
	var out []string
	for i, ln := range lines {
		cuts := cellLabelRE.FindAllStringIndex(ln, 8)
		if len(cuts) < 2 || !strings.Contains(ln[:cuts[0][0]], ":") {
			if out != nil {
				out = append(out, ln)
			}
			continue
		}
		if out == nil {
			out = append(out, lines[:i]...)
		}
		prev := 0
		for _, c := range cuts {
			out = append(out, strings.TrimSpace(ln[prev:c[0]]))
			prev = c[0]
		}
		out = append(out, strings.TrimSpace(ln[prev:]))
	}
	if out == nil {
		return lines
	}
	return out
}

// withoutTrailingDate is a line less a date that ends it, with the comma
// or dash before it: "…, 15.06.2029", "… — 17/06/2029".
func withoutTrailingDate(ln string, usFirst bool) string {
	ds := findDates(ln, usFirst)
	if len(ds) == 0 {
		return ln
	}
	d := ds[len(ds)-1]
	if strings.TrimRight(ln[d.end:], " .") != "" {
		return ln
	}
	return strings.TrimRight(ln[:d.start], " ,;–—-")
}

// clockFirstLegRE is a leg on one line with each clock before its
// station: "07:30 London Paddington → 09:02 Bristol Temple Meads".
var clockFirstLegRE = regexp.MustCompile(`^\s*(?:[^:\d]{1,30}:\s*)?(\d{1,2}[:.h]\d{2})\s+(\p{L}.*?)\s*(?:-|–|—|→|->|>)\s*(\d{1,2}[:.h]\d{2})\s+(\p{L}.*?)\s*$`)

// meridiemFirst reports whether s starts with "AM" or "p.m.": the clocks
// are a range of hours ("02:30 PM - 06:30 PM"), not two stops.
func meridiemFirst(s string) bool {
	w, _, _ := strings.Cut(s, " ")
	switch strings.ToLower(strings.ReplaceAll(w, ".", "")) {
	case "am", "pm":
		return true
	}
	return false
}

// clockFirstLeg reads a leg of clockFirstLegRE's shape; labelled is a
// train named on the lines above.
func (c *msgContext) clockFirstLeg(ln string, d dateMatch, labelled string) *Segment {
	m := clockFirstLegRE.FindStringSubmatch(ln)
	if m == nil || meridiemFirst(m[2]) || meridiemFirst(m[4]) {
		return nil
	}
	dep, arr := findClocks(m[1]), findClocks(m[3])
	number := labelled
	to := m[4]
	if t := trainNumRE.FindStringIndex(to); t != nil {
		number = normaliseTrain(to[t[0]:t[1]])
		to = to[:t[0]]
	}
	from, to := stationName(m[2]), stationName(strings.TrimRight(to, " ,;("))
	if len(dep) != 1 || len(arr) != 1 || from == "" || to == "" || isBus(number) {
		return nil
	}
	return c.railLeg(number, from, to, d, d, &dep[0], &arr[0])
}

// railLeg is a train leg from its stations and the day and clock of its
// departure and of its arrival; an arrival clock before the departure's
// is the next day's.
func (c *msgContext) railLeg(number, from, to string, depDay, arrDay dateMatch, dep, arr *clockMatch) *Segment {
	seg := &Segment{Type: KindTrain, Status: StatusConfirmed, Number: number, From: &Place{Name: from}, To: &Place{Name: to}}
	fz, tz := c.stationZone(from, at(depDay, dep)), c.stationZone(to, at(arrDay, arr))
	seg.Depart = resolve(at(depDay, dep), fz, c.dateLoc)
	// A train does not cross an ocean: a station whose name is a town's
	// on another continent too ("York") is in its departure's zone.
	if tz.loc != nil && seg.Depart != nil {
		_, a := seg.Depart.Time.In(tz.loc).Zone()
		_, b := seg.Depart.Time.Zone()
		if d := a - b; d > 4*3600 || d < -4*3600 {
			tz = fz
		}
	}
	seg.Arrive = resolve(at(arrDay, arr), tz, c.dateLoc)
	if seg.Arrive.Before(seg.Depart.Time) {
		seg.Arrive.Time = seg.Arrive.AddDate(0, 0, 1)
	}
	return seg
}

// Stations named by labels of their own (station.from and station.to in
// extract/lang/data): "Origen: Madrid-Puerta de Atocha".
var (
	fromStationRE = stationLabelRE("station.from")
	toStationRE   = stationLabelRE("station.to")
)

func stationLabelRE(category string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)^[\s*]*(?:` + strings.Join(longestFirst(lang.Entries(category)), "|") + `)\s*:\s*(\S.*)$`)
}

// routeLabelRE is a route after its label, "Strecke: München Hbf –
// Salzburg Hbf", "Relacja: Wrocław Główny – Jelenia Góra" (route.label in
// extract/lang/data): the stations of the clocks that follow it.
var routeLabelRE = regexp.MustCompile(`(?i)^[\s*]*(?:` + strings.Join(longestFirst(lang.Entries("route.label")), "|") + `)\s*:\s*(\S.*)$`)

// routeLabelPair reads the stations of a route label's line, or "", "".
func routeLabelPair(ln string) (string, string) {
	m := routeLabelRE.FindStringSubmatch(strings.TrimSpace(ln))
	if m == nil {
		return "", ""
	}
	p := stationPairRE.FindStringSubmatch(strings.TrimSpace(m[1]))
	if p == nil {
		return "", ""
	}
	a, b := stationName(p[1]), stationName(p[2])
	if a == "" || b == "" {
		return "", ""
	}
	return a, b
}

// stationPairRE is a route alone on its line: two stations apart by a
// dash or an arrow ("Montréal - Toronto", "Köln Hbf → Bonn Hbf"); an en
// dash or an arrow needs no spaces ("Oslo S–Trondheim S"), a hyphen does
// ("Hamburg-Altona" is one station).
// A hyphen inside a word is part of the name ("Bruxelles-Midi → Köln
// Hbf").
var stationPairRE = regexp.MustCompile(`^(\p{Lu}(?:[^-–→>:|]|-[^\s>-]){1,60}?)(?:\s+(?:-|–|—|→|->)\s+|\s*[–—→]\s*)(\p{Lu}(?:[^-–→>:|]|-[^\s>-]){1,60})$`)

// rangeLeg reads line i's two clocks as a span ("08:34 – 14:52") whose
// stations are a pair apart by an arrow or a dash, in a cell of the same
// line ("Mon 14 Jan · 08:34–14:52 · Amsterdam Centraal → Berlin Hbf") or
// alone on the line next to it, and returns the leg and the pair's line.
func (c *msgContext) rangeLeg(lines []string, i int, clocks []clockMatch, d dateMatch) (*Segment, int) {
	ln := lines[i]
	if !timeRange(ln, clocks[0], clocks[1]) {
		return nil, -1
	}
	var p []string
	at, number := i, ""
	cells := cellSplitRE.Split(ln[clocks[1].end:], -1)
	for k, cell := range cells {
		if p = stationPairRE.FindStringSubmatch(strings.TrimSpace(cell)); p != nil {
			// The train in a cell after the pair ("· ICE 15").
			for _, next := range cells[k+1:] {
				if t := trainNumRE.FindString(next); t != "" {
					number = normaliseTrain(t)
					break
				}
			}
			break
		}
	}
	for _, step := range []int{1, -1} {
		if p != nil || strings.TrimSpace(ln[clocks[1].end:]) != "" {
			break
		}
		// The next line that is not blank, one blank line apart at most
		// (HTML's blocks).
		j := i + step
		if j >= 0 && j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j += step
		}
		if j >= 0 && j < len(lines) && !hasDigit(lines[j]) {
			p, at = stationPairRE.FindStringSubmatch(strings.TrimSpace(lines[j])), j
		}
	}
	if p == nil {
		return nil, -1
	}
	from, to := stationName(p[1]), stationName(p[2])
	if from == "" || to == "" {
		return nil, -1
	}
	return c.railLeg(number, from, to, d, d, &clocks[0], &clocks[1]), at
}

// cellSplitRE is what keeps a line's cells apart: a middle dot, a bullet,
// a bar or a tab.
var cellSplitRE = regexp.MustCompile(`\s*[·•|\t]\s*`)

// toInlineRE is an arrival station's label after the departure's on the
// same line, apart by spaces (station.to, of two letters and more).
var toInlineRE = func() *regexp.Regexp {
	var alts []string
	for _, e := range lang.Entries("station.to") {
		if utf8.RuneCountInString(e) >= 2 {
			alts = append(alts, e)
		}
	}
	return regexp.MustCompile(`(?i)\s+(?:` + strings.Join(longestFirst(alts), "|") + `)\s*:\s*(\S.*)$`)
}()

// townPairRE is a route alone on its line with a word for "to" between
// the stations ("Edinburgh Waverley to Glasgow Queen Street").
var townPairRE = regexp.MustCompile(`^(\p{Lu}[^:|]{1,60}?)\s+(?i:` + toWords() + `)\s+(\p{Lu}[^:|]{1,60})$`)

// townPair reads a line of townPairRE's shape whose two stations are in
// towns the places data knows: "Welcome to London" names no route.
func townPair(ln string) (string, string) {
	m := townPairRE.FindStringSubmatch(strings.TrimSpace(ln))
	if m == nil {
		return "", ""
	}
	a, b := stationName(m[1]), stationName(m[2])
	if a == "" || b == "" {
		return "", ""
	}
	if !knownTown(a) || !knownTown(b) {
		return "", ""
	}
	return a, b
}

// labelledLeg reads a leg whose stations have labels of their own and
// whose clocks stand beside them or on lines of their own that start with
// a departure's and an arrival's label ("Salida: 08:00", "Llegada:
// 10:32"), on the first date of the text. Stations without labels may
// stand as a route on a line of their own above the clocks.
func (c *msgContext) labelledLeg(lines []string, ref time.Time) *Segment {
	lines = labelCells(lines)
	var from, to, number string
	var dep, arr *clockMatch
	var day *dateMatch
	var pairFrom, pairTo string // a route on a line of its own, before the clocks
	for _, ln := range lines {
		if dep == nil && from == "" && pairFrom == "" && !hasDigit(ln) && strings.Contains(ln, ":") {
			if a, b := routeLabelPair(ln); a != "" {
				pairFrom, pairTo = a, b
				continue
			}
		}
		if !hasDigit(ln) && !strings.Contains(ln, ":") {
			if dep == nil && from == "" {
				if m := stationPairRE.FindStringSubmatch(strings.TrimSpace(ln)); m != nil {
					if a, b := stationName(m[1]), stationName(m[2]); a != "" && b != "" {
						pairFrom, pairTo = a, b
					}
				} else if a, b := townPair(ln); a != "" {
					pairFrom, pairTo = a, b
				}
			}
			continue
		}
		dates := c.dates(ln)
		if day == nil && len(dates) > 0 {
			d := dates[0].withYear(ref)
			day = &d
		}
		clocks := findClocks(ln)
		station := func(re *regexp.Regexp) (string, *clockMatch) {
			m := re.FindStringSubmatchIndex(ln)
			if m == nil {
				return "", nil
			}
			v, end := ln[m[2]:m[3]], len(ln)
			var ck *clockMatch
			if len(clocks) > 0 {
				ck, end = &clocks[0], clocks[0].start
			}
			if len(dates) > 0 {
				end = min(end, dates[0].start)
			}
			return stationName(v[:max(0, end-m[2])]), ck
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
			}
		}
		if len(clocks) == 0 {
			continue
		}
		marked := withoutClockWord(ln)
		if _, ok := depMarkers.starts(marked); ok && dep == nil {
			dep = &clocks[0]
			// Both on one line: "Departs 08:02, arrives 08:25".
			if rest := strings.TrimLeft(ln[clocks[0].end:], " ,;–-"); len(clocks) == 2 && arr == nil {
				if _, ok := arrMarkers.starts(withoutClockWord(rest)); ok {
					arr = &clocks[1]
				}
			}
		} else if _, ok := arrMarkers.starts(marked); ok && arr == nil {
			arr = &clocks[0]
		}
	}
	if from == "" && to == "" {
		from, to = pairFrom, pairTo
	}
	if from == "" || to == "" || dep == nil || arr == nil || day == nil || isBus(number) {
		return nil
	}
	return c.railLeg(number, from, to, *day, *day, dep, arr)
}

// clockOfWords are the words for "the time of" that some languages put
// before a stop's label ("Hora de salida:", "Ora di partenza:"), longest
// first.
var clockOfWords = longestFirst(lang.Entries("clock.of"))

// withoutClockWord is a line without such words at its start.
func withoutClockWord(ln string) string {
	t := strings.TrimLeft(ln, " *")
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
	head := clockWord.ReplaceAllString(ln[:clocks[0].start], "")
	mid := clockWord.ReplaceAllString(ln[clocks[0].end:clocks[1].start], "")
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

// clockFromLeg reads a sentence whose clocks each come before their
// stop, the departure's after a word for "from" or before its particle:
// "fahren Sie um 07:48 von Hannover Hbf ab und kommen um 09:01 in Uelzen
// an", "avgår kl. 07:48 från Stockholm C och ankommer kl. 09:01 till
// Uppsala C". What makes the two a leg is the "and" between them and a
// word of the arrival's: a verb after the "and" ("ankommer", "komt") or
// the particle that ends the sentence ("an").
func (c *msgContext) clockFromLeg(ln string, clocks []clockMatch, d dateMatch) *Segment {
	mid := clockWord.ReplaceAllString(ln[clocks[0].end:clocks[1].start], "")
	k := firstWordOf(mid, andWords)
	if k < 0 {
		return nil
	}
	station, clause := mid[:k], mid[k:]
	rest, hasFrom := fromMarkers.starts(station)
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

// firstWordOf is where in s the first word of words starts, or -1.
func firstWordOf(s string, words map[string]bool) int {
	for start, end := range letterRuns(s) {
		if words[strings.ToLower(s[start:end])] {
			return start
		}
	}
	return -1
}

// letterRuns yields where each run of letters of s starts and ends: its
// words, as the stop markers are written.
func letterRuns(s string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < len(s); {
			j := strings.IndexFunc(s[i:], unicode.IsLetter)
			if j < 0 {
				return
			}
			start := i + j
			end := strings.IndexFunc(s[start:], func(r rune) bool { return !unicode.IsLetter(r) })
			if end < 0 {
				end = len(s) - start
			}
			if !yield(start, start+end) {
				return
			}
			i = start + end
		}
	}
}

// leadingCodeRE is a train's code that starts a row, before its first
// station ("BV 8611  Sofia  dep. 07:00  Plovdiv  arr. 09:41").
var leadingCodeRE = regexp.MustCompile(`^\s*([A-Z]{1,4} ?\d{1,5})\s+`)

// platformFirstRE is a platform that starts the words between a
// departure's clock and the arrival ("… at 08:10 from platform 4 and
// arrives at York"): neither station.
var platformFirstRE = regexp.MustCompile(`(?i)^[\s,]*(?:(?:from|von|de|da|desde|fra|från|van|z|ze)\s+)?(?:` + platformWords + `|gl\.)\s+\S+`)

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

// withoutLeading is s less a first word that is one of words.
func withoutLeading(s string, words map[string]bool) string {
	w, rest, ok := strings.Cut(s, " ")
	if ok && words[strings.ToLower(w)] {
		return strings.TrimLeft(rest, " ")
	}
	return s
}

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

// stationZone is placeZoneHint for a station at the wall time w. A train
// does not cross an ocean either way: a town whose name is also one on
// another continent ("York", whose airport is in the United States) is in
// the sender's country's zone when that is more than four hours away.
func (c *msgContext) stationZone(name string, w wallTime) zoneHint {
	z := c.placeZoneHint(name, "")
	home := c.countryZone("")
	if z.loc == nil || home.loc == nil || z.loc == home.loc {
		return z
	}
	t := time.Date(w.y, time.Month(w.mo), w.d, 12, 0, 0, 0, time.UTC)
	_, a := t.In(z.loc).Zone()
	_, b := t.In(home.loc).Zone()
	if d := a - b; d > 4*3600 || d < -4*3600 {
		return home
	}
	return z
}

// tableRowLeg reads a leg that is one row of a table under a header row
// that names the departure and the arrival ("Train From Departs To
// Arrives" over "1S09 London Kings Cross 16/07/2027 09:00 Edinburgh
// 16/07/2027 13:20"): flattened HTML keeps a table's cells on one line
// with nothing between them, so the header is what says which clock is
// which. Each station is the text before its clock, less its date (else
// the date above the table, day); a leading token with a digit is the
// train.
func (c *msgContext) tableRowLeg(lines []string, i int, clocks []clockMatch, ref time.Time, day dateMatch) *Segment {
	h := i - 1
	for h >= 0 && h > i-4 && strings.TrimSpace(lines[h]) == "" {
		h--
	}
	if h < 0 || findClocks(lines[h]) != nil || !depLabel.MatchString(lines[h]) || !arrLabel.MatchString(lines[h]) {
		return nil
	}
	ln := lines[i]
	us := c.usSender()
	cell := func(s string) (name string, d *dateMatch) {
		if ds := findDates(s, us); len(ds) > 0 {
			d = &ds[0]
			s = s[:ds[0].start] + " " + s[ds[0].end:]
		}
		return s, d
	}
	first, depDay := cell(ln[:clocks[0].start])
	second, arrDay := cell(ln[clocks[0].end:clocks[1].start])
	number := ""
	if t := trainNumRE.FindStringIndex(first); t != nil {
		number = normaliseTrain(first[t[0]:t[1]])
		first = first[:t[0]] + " " + first[t[1]:]
	} else if f := strings.Fields(first); len(f) > 1 && hasDigit(f[0]) && len(f[0]) <= 8 {
		number, first = f[0], strings.Join(f[1:], " ")
	} else if f := strings.Fields(ln[clocks[1].end:]); len(f) == 1 && allDigits(f[0]) && len(f[0]) <= 6 {
		number = f[0] // the train's column after the arrival's ("… Göteborg C 10:27 527")
	}
	from, to := stationName(first), stationName(second)
	if depDay == nil {
		depDay = &day // the row's date above the table ("Data: 10/03/2028")
	}
	if from == "" || to == "" || isBus(number) {
		return nil
	}
	if arrDay == nil {
		arrDay = depDay
	}
	return c.railLeg(number, from, to, depDay.withYear(ref), arrDay.withYear(ref), &clocks[0], &clocks[1])
}

// Words that head a table's columns: its stations' (station.from and the
// departure's marker, "From", "Von", "Origine"; the same for the
// arrival) and its clocks' ("Depart", "Ab", "Départ").
var (
	fromColumn                       = newStopMarkers("departure.marker")
	toColumn                         = newStopMarkers("arrival.marker")
	depColumn                        = newStopMarkers("departure")
	arrColumn                        = newStopMarkers("arrival")
	stationFromWords, stationToWords = wordSet("station.from"), wordSet("station.to")
)

// trainColumnRE heads the column of a train's number.
var trainColumnRE = regexp.MustCompile(`^(?:train|zug|treno|tren|vlak|trein|tåg|tog|juna|pociąg|comboio|trem)$`)

// wordSet is a category's entries of every language as a set of words.
func wordSet(category string) map[string]bool {
	m := map[string]bool{}
	for _, e := range lang.Entries(category) {
		m[e] = true
	}
	return m
}

// headerRowLeg reads a row of a table whose header names each column
// (the mime package keeps cells apart by tabs): "From To Depart Arrive",
// then "London King's Cross, Hull, 10:48, 13:35". A column's header
// says what its cell holds; the stations' columns hold no clock.
func (c *msgContext) headerRowLeg(lines []string, i int, ref time.Time, day dateMatch) *Segment {
	row := lines[i]
	if strings.Count(row, "\t") < 3 {
		return nil
	}
	h := i - 1
	for h >= 0 && h > i-4 && strings.TrimSpace(lines[h]) == "" {
		h--
	}
	if h < 0 || hasDigit(lines[h]) {
		return nil
	}
	head, cells := strings.Split(lines[h], "\t"), strings.Split(row, "\t")
	if len(head) != len(cells) {
		return nil
	}
	col := map[string]int{}
	for k, hc := range head {
		w := strings.ToLower(strings.Trim(strings.TrimSpace(hc), ".:"))
		role := ""
		switch {
		case stationFromWords[w] || fromColumn.has(w) && !depColumn.has(w):
			role = "from"
		case stationToWords[w] || toColumn.has(w) && !arrColumn.has(w):
			role = "to"
		case depColumn.has(w):
			role = "dep"
		case arrColumn.has(w):
			role = "arr"
		case trainColumnRE.MatchString(w):
			role = "train"
		}
		if _, seen := col[role]; role != "" && !seen {
			col[role] = k
		}
	}
	_, hasTrain := col["train"]
	if len(col) != 4 && !(len(col) == 5 && hasTrain) {
		return nil
	}
	dep, arr := findClocks(cells[col["dep"]]), findClocks(cells[col["arr"]])
	from, to := stationName(cells[col["from"]]), stationName(cells[col["to"]])
	if len(dep) != 1 || len(arr) != 1 || from == "" || to == "" || hasDigit(from) || hasDigit(to) {
		return nil
	}
	d := day
	if ds := c.dates(row); len(ds) > 0 {
		d = ds[0]
	}
	number := ""
	if hasTrain {
		number = strings.Join(strings.Fields(cells[col["train"]]), " ")
	} else if t := trainNumRE.FindString(row); t != "" {
		number = normaliseTrain(t)
	}
	if isBus(number) {
		return nil
	}
	return c.railLeg(number, from, to, d.withYear(ref), d.withYear(ref), &dep[0], &arr[0])
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
	}
	return "", -1
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
// seat, car or platform, not a train.
var notService = map[string]bool{"gleis": true, "voie": true, "place": true, "platz": true, "pl": true, "wg": true,
	"wagen": true, "voiture": true, "coach": true, "car": true, "seat": true, "sitz": true, "platform": true, "track": true,
	"spor": true, "peron": true, "binario": true, "vůz": true, "vuz": true, "misto": true, "km": true, "osob": true, "kl": true, "cl": true}

func isBus(service string) bool {
	f := strings.Fields(strings.ToLower(service))
	return len(f) > 0 && (f[0] == "bus" || strings.HasPrefix(f[0], "bus") && hasDigit(f[0]))
}

func hasDigit(s string) bool {
	return indexDigit(s, 0) >= 0
}

var (
	platformRE = regexp.MustCompile(`(?i)\s[-–▷]?\s*(?:(?:` + platformWords + `)\b|gl\.).*$`)
	// The word before a clock: "Milano Centrale ore 10:15", "godz. 06:15".
	clockWord = regexp.MustCompile(`(?i)(?:^|[\s,])(?:` + alternatives(clockWordList) + `)\s*$`)
)

// endsInClockWord reports whether s may end in a word of clockWord:
// whether, white space and a dot taken off its end, it ends in one of
// the words in any case. A station's name mostly does not, and the
// expression, which ends at the text's end, is tried from every place in
// it. Where the end is not ASCII, case folding may change the length of
// a letter ("K" and the Kelvin sign), so the expression decides.
func endsInClockWord(s string) bool {
	t := strings.TrimRight(s, " \t\n\f\r") // \s
	t = strings.TrimSuffix(t, ".")
	for i := max(0, len(t)-8); i < len(t); i++ {
		if t[i] >= utf8.RuneSelf {
			return true
		}
	}
	for _, w := range clockWordList {
		if len(t) >= len(w) && strings.EqualFold(t[len(t)-len(w):], w) {
			return true
		}
	}
	return false
}

// mayHoldFolded reports whether s may hold one of words (lower case) in
// any case, as an expression's (?i) reads it: whether s lowered holds
// one. Lowering maps every case of the words' letters to the one the
// words have, the Kelvin sign to "k" too, but not "ſ", which (?i) takes
// for an "s": with one in s, the expression is left to decide. It spares
// expressions that are tried from every place in a text a text without
// their words.
func mayHoldFolded(s string, words []string) bool {
	if strings.Contains(s, "ſ") {
		return true
	}
	l := lowerLine(s)
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(l, w) })
}

// trainLabelAnchors are what every match of trainLabelRE holds, one of
// its words or their endings.
var trainLabelAnchors = []string{"train", "zug", "tren", "vlak", "trein", "italo", "regional", "tåg", "tog", "juna", "pociąg", "comboio", "trem"}

// platformAnchors are what every match of platformRE holds: one of its
// words, or "gl.".
var platformAnchors = append(strings.Split(platformWords, "|"), "gl.")

// clockWordList is clockWord's words.
var clockWordList = slices.Concat(shortOclockWords, oclockWords)

// durationRE is a journey's duration between a station and the next
// stop's clock ("Amsterdam Centraal — 6h 18m — 14:52 Berlin Hbf").
var durationRE = regexp.MustCompile(`(?i)\s*[-–—(]*\s*\d{1,2}\s?h(?:rs?)?\s?\d{1,2}\s?m(?:in)?\b\)?`)

func stationName(s string) string {
	if mayHoldFolded(s, platformAnchors) {
		s = platformRE.ReplaceAllString(s, "")
	}
	if strings.IndexByte(s, 'm') >= 0 && hasDigit(s) {
		s = durationRE.ReplaceAllString(s, "")
	}
	if hasDigit(s) { // a train's number has digits
		s = trainNumRE.ReplaceAllString(s, "")
	}
	s = strings.ReplaceAll(s, "()", "") // what is left of "(ICE 16)"
	if endsInClockWord(s) {
		s = clockWord.ReplaceAllString(s, "") // "Partenza ore": the clock's word, then the marker
	}
	s, _ = allStopMarkers.ends(strings.TrimSpace(s))
	notLetter := func(r rune) bool { return !unicode.IsLetter(r) }
	s = strings.TrimLeftFunc(s, notLetter)
	// Up to two markers before the name: "aan in Leeuwarden"; a word for
	// "at" is one ("arrives at Leeds").
	for range 2 {
		if w, rest, ok := strings.Cut(s, " "); ok && clockWords[strings.ToLower(w)] {
			s = strings.TrimLeftFunc(rest, notLetter)
			continue
		}
		if rest, ok := allStopMarkers.starts(s); ok && rest != "" {
			s = strings.TrimLeftFunc(rest, notLetter)
		}
	}
	s = strings.Trim(strings.Join(strings.Fields(s), " "), " -–,.:|▷●○")
	// A parenthesis its clock's marker was in ("Szeged (dep. 06:48)").
	if t, ok := strings.CutSuffix(s, "("); ok {
		s = strings.TrimRight(t, " ")
	}
	// Only a name: letters, not a sentence, and not a day's or a month's
	// name ("Départ : mercredi 8 décembre" is a hotel's check-out).
	// Not an address either: a quoted header's "From: Anna <anna@…>".
	if len(s) < 2 || len(s) > 50 || nameWords(s) > 6 || strings.IndexFunc(s, unicode.IsLetter) < 0 || strings.Contains(s, "@") {
		return ""
	}
	if l := strings.ToLower(s); weekdayNames[l] > 0 || monthNames[l] > 0 || timeNouns[l] {
		return ""
	}
	// A label and a weekday are a date's start, not a station
	// ("Outbound: Tue 15 Jan 2030").
	if i := strings.LastIndexByte(s, ' '); i >= 0 && strings.Contains(s[:i], ":") && weekdayNames[strings.ToLower(strings.TrimRight(s[i+1:], "."))] > 0 {
		return ""
	}
	return s
}

// nameWords counts the words of a name; a dash between its parts is none
// ("New York, NY - Penn Station (NYP)" has six).
func nameWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return n
}

// timeNouns are the words for "time" (time.noun) that a label leaves
// where a station would be ("Departure time: 21/06/2029 07:13").
var timeNouns = wordSet("time.noun")

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
