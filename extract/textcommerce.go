package extract

import (
	"cmp"
	"iter"
	"mailnode/extract/carriers"
	"mailnode/extract/lang"
	"mailnode/extract/places"
	"mailnode/extract/words"

	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Train legs, hotel stays, orders and bills from text.

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

// textHotel reads a stay: check-in and check-out dates next to their
// labels, and the hotel's name.
func (c *msgContext) textHotel(subject, text string) (Fact, bool) {
	in := c.labelledDate(checkinLabels, text, c.countryZone(""))
	out := c.labelledDate(checkoutLabels, text, c.countryZone(""))
	if in == nil {
		in, out = c.spacedCheckDates(text)
	}
	if in == nil {
		in, out = c.columnDates(text, c.countryZone(""))
	}
	if in == nil {
		in, out = c.rangeDates(text, c.countryZone(""))
	}
	if in == nil {
		in, out = c.nightsFromDate(text, c.countryZone(""))
	}
	if in == nil || reviewWords.In(lower(subject+"\n"+firstLines(text, 6))) {
		return Fact{}, false
	}
	if out == nil && in.DateOnly {
		// "Arrival: Friday 12 November 2027", "Number of nights: 2".
		if n := stayNights(text); n > 0 {
			t := *in
			t.Time = t.AddDate(0, 0, n)
			out = &t
		}
	}
	seg := &Segment{Type: KindHotel, Status: StatusConfirmed, CheckIn: in, CheckOut: out,
		Reservation: findReservation(text)}
	for _, v := range hotelLabels.after(text) {
		if v != "" && len(v) < 80 && !strings.ContainsAny(v, "@") {
			seg.Hotel = hotelName(v)
			break
		}
	}
	if seg.Hotel == "" {
		seg.Hotel = c.nameOverAddress(subject, text)
	}
	// The sender's name when it names a place to stay ("Hostal La
	// Giralda"), else such a name in the subject or text ("à l'Auberge du
	// Lac").
	if seg.Hotel == "" && lodgingRE.MatchString(c.senderName) && !chainWords.In(strings.ToLower(c.senderName)) {
		seg.Hotel = c.senderName
	}
	if seg.Hotel == "" {
		seg.Hotel = stayAtName(subject + "\n" + firstLines(text, 40))
	}
	if seg.Hotel == "" {
		seg.Hotel = lodgingName(subject + "\n" + firstLines(text, 40))
	}
	if seg.Hotel == "" {
		for _, ln := range strings.Split(subject+"\n"+text, "\n") {
			ln = strings.TrimSpace(ln)
			if l := strings.ToLower(ln); strings.Contains(l, "hotel") && len(ln) < 60 && !strings.Contains(l, "booking") {
				seg.Hotel = ln
				break
			}
		}
	}
	// The sender's name last, if the text names it too and it names no
	// chain or desk ("Pestana Hotels & Resorts", "Hilton Reservations",
	// "ALL - Accor Live Limitless"): no name is better than another's.
	if seg.Hotel == "" && (strings.Contains(text, c.senderName) || c.senderNamesDomain()) && !chainWords.In(strings.ToLower(c.senderName)) {
		seg.Hotel = c.senderName
	}
	return Fact{Kind: KindHotel, From: FromText, Segment: seg}, true
}

// spacedCheckRE is "Check in" or "Check out" spelt apart and without a
// colon at a line's start, with the rest of the line: "Check in Fri 13
// April 2029 from 2pm".
var spacedCheckRE = regexp.MustCompile(`(?im)^[ \t]*check (in|out)[ \t]+(\S[^\n]{0,60})$`)

// spacedCheckDates reads a stay's dates from spacedCheckRE's lines, only
// when a date starts the rest of the line: a table's header "Check In
// Check Out" over its dates is a hotel invoice's, not this.
func (c *msgContext) spacedCheckDates(text string) (in, out *Time) {
	if !strings.Contains(text, "heck ") {
		return nil, nil
	}
	for _, m := range spacedCheckRE.FindAllStringSubmatch(firstLines(text, 60), 4) {
		ds := c.dates(m[2])
		if len(ds) == 0 || ds[0].start > 16 || strings.Contains(strings.ToLower(m[2][:ds[0].start]), "check") {
			continue
		}
		t := resolve(at(ds[0].withYear(c.ref), nil), c.countryZone(""), c.dateLoc)
		if strings.EqualFold(m[1], "in") && in == nil {
			in = t
		} else if strings.EqualFold(m[1], "out") && out == nil {
			out = t
		}
	}
	if in == nil || out == nil || !out.After(in.Time) {
		return nil, nil
	}
	return in, out
}

// bookingPlatforms are the domains of sites that book stays for others:
// their senders' names are theirs, not the place's.
var bookingPlatforms = map[string]bool{"booking": true, "expedia": true, "hotels": true, "agoda": true, "airbnb": true,
	"trivago": true, "kayak": true, "hrs": true, "lastminute": true, "opodo": true, "edreams": true, "ebookers": true,
	"tripadvisor": true, "trip": true, "hostelworld": true, "momondo": true, "travelzoo": true, "holidaycheck": true}

// senderNamesDomain reports whether a word of the sender's name (four
// letters or more) is in its mail domain's own label ("The Hoxton, Paris"
// from hoxton-paris.com): a place that writes from its own domain, not a
// platform that books it.
func (c *msgContext) senderNamesDomain() bool {
	label := strings.ToLower(domainLabel(c.senderDomain))
	if c.senderName == "" || label == "" || bookingPlatforms[label] {
		return false
	}
	folded := strings.ReplaceAll(label, "-", "")
	for _, w := range strings.FieldsFunc(strings.ToLower(places.Fold(c.senderName)), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) >= 4 && strings.Contains(folded, w) {
			return true
		}
	}
	return false
}

// hotelName is a hotel label's value without the address that may follow
// the name on the same line ("Hotel: Copenhagen Strand, Havnegade 37, 1058
// København K"): from the first comma whose part holds a number (a street's,
// a postcode). A comma before words alone ("Adlon Kempinski, Berlin") stays.
func hotelName(v string) string {
	for i := 0; ; {
		j := strings.IndexByte(v[i:], ',')
		if j < 0 {
			return v
		}
		i += j
		part, _, _ := strings.Cut(v[i+1:], ",")
		if hasDigit(part) && i > 0 {
			return strings.TrimSpace(v[:i])
		}
		i++
	}
}

// lodgingRE is a place to stay by name: a lodging word of any language
// (extract/lang) and the capitalised words after it on its line, "Hotel
// Riviera", "Auberge du Lac", "Parador de Granada".
var lodgingRE = regexp.MustCompile(`(?:^|[^\p{L}])(?i:` + strings.Join(longestFirst(lang.Entries("lodging")), "|") +
	`)(?:[ \t]+(?:(?:` + nameLinks + `)[ \t]+)*\p{Lu}[\p{L}'’&-]*){1,4}`)

// stayAtRE is a place to stay named after a phrase that says it is one
// (stay.at: "Thank you for choosing Courtyard Vienna Prater/Messe", "bij
// WestCord Hotels Art Plaza Amsterdam"): capitalised words, with the small
// words inside names, up to the sentence's punctuation.
var stayAtRE = regexp.MustCompile(`(?:^|[^\p{L}])(?i:` + strings.Join(longestFirst(lang.Entries("stay.at")), "|") +
	`)[ \t]+(?:[ld]['’])?((?:\p{Lu}|\d)[\p{L}\p{N}'’&./-]*(?:[ \t]+(?:(?:` + nameLinks + `)[ \t]+)*(?:\p{Lu}|\d)[\p{L}\p{N}'’&./-]*){0,6})`)

// stayAtName is the first name stayAtRE finds that is no chain's or
// desk's own ("Radisson Hotels", "Booking.com"): a name that ends with a
// chain's word is one.
func stayAtName(s string) string {
	for _, m := range stayAtRE.FindAllStringSubmatch(s, 4) {
		n := strings.TrimRight(m[1], ".,")
		f := strings.Fields(n)
		if last := strings.ToLower(f[len(f)-1]); chainWords.In(last) || strings.Contains(last, ".") {
			continue
		}
		return n
	}
	return ""
}

// lodgingBeforeRE is a name that ends with its lodging word: "Radisson
// Blu Royal Hotel", "The Savoy Hotel".
var lodgingBeforeRE = regexp.MustCompile(`(?:^|[^\p{L}])((?:\p{Lu}[\p{L}'’&-]*[ \t]+){1,4}(?i:` + strings.Join(longestFirst(lang.Entries("lodging")), "|") + `))(?:[^\p{L}]|$)`)

// lodgingName is the first place to stay a text names, the lodging word
// before or after the name, that names no chain or group ("Hotel Group").
func lodgingName(s string) string {
	best, at := "", len(s)
	for _, m := range lodgingRE.FindAllStringIndex(s, 8) {
		if n := strings.TrimSpace(s[m[0]:m[1]]); m[0] < at && !chainWords.In(strings.ToLower(n)) {
			best, at = n, m[0]
			break
		}
	}
	for _, m := range lodgingBeforeRE.FindAllStringSubmatchIndex(s, 8) {
		if n := s[m[2]:m[3]]; m[2] < at && !chainWords.In(strings.ToLower(n)) {
			best = n
			break
		}
	}
	return best
}

// nameLinks are the small words inside a place's name: "Auberge du Lac",
// "Pousada de Óbidos".
const nameLinks = `du|de|la|le|les|del|della|di|do|da|dos|das|des|am|an|im|zum|zur|the|of|los|las|el|van|von|vom|der|den`

var (
	// lodgingWords are the lodging words of every language, whole;
	// chainWords name a chain or a booking desk rather than one place
	// (extract/lang, lodging.chain: "Hotels", "Reservations").
	lodgingWords = words.NewWholeSet(lang.Entries("lodging"))
	chainWords   = words.NewWholeSet(lang.Entries("lodging.chain"))
	// reviewWords ask about a stay that is over (stay.review): "Wie war
	// Ihr Aufenthalt im Hotel Adler vom 12. bis 14. Januar?" books nothing.
	reviewWords = words.NewWholeSet(lang.Entries("stay.review"))
	linkWords   = words.NewWholeSet(strings.Split(nameLinks, "|"))
)

// addressRE is the start of a street address: words and a house number
// ("Apollolaan 138", "Rua Jau 54"), or a number and words before a comma
// ("1 King Street,", "31 bis rue Diderot,").
var addressRE = regexp.MustCompile(`^(?:\p{Lu}[\p{L}'’.-]*,?[ \t]+(?:[\p{L}'’.-]+,?[ \t]+){0,3}(?:\d{1,4}[a-zA-Z]?|s/n)(?:[ \t]*[,/–-]|[ \t]*$)|\d{1,4}[a-zA-Z]?(?:[ \t]+(?:bis|ter))?,?[ \t]+[\p{L}'’.-]+(?:[ \t]+[\p{L}'’.-]+){0,4}[ \t]*,)`)

// nameOverAddress finds a place's name the way letterheads and signatures
// print it: on the line over its street address, or before the address
// after a comma on its own line ("Cabinn Copenhagen, Kongens Nytorv 30").
// The name is the capitalised words that end the line ("Ihr Team vom
// Best Western Hotel Bremen City"), and it must be a lodging's or share a
// word with the sender's name or the subject: a company's footer
// ("Booking.com B.V., Herengracht 597") names no hotel.
func (c *msgContext) nameOverAddress(subject, text string) string {
	lines := strings.Split(text, "\n")
	about := strings.ToLower(c.senderName + " " + subject)
	for i, ln := range lines {
		ln = strings.TrimSpace(ln)
		name, rest, ok := strings.Cut(ln, ",")
		if !ok || !isAddress(rest) {
			// The next line with words, past a paragraph's blank line.
			next := i + 1
			for next < len(lines) && next < i+3 && strings.TrimSpace(lines[next]) == "" {
				next++
			}
			if ln == "" || next >= len(lines) || !isAddress(lines[next]) {
				continue
			}
			name = ln
		}
		n := trailingName(name)
		if n == "" || chainWords.In(strings.ToLower(n)) {
			// A chain's or group's own address ("Radisson Hotel Group",
			// its seat), not the stay's.
			continue
		}
		// A brand in lower case before the name ("ibis Paris Gare de
		// Lyon"): the whole line, when the text names it again.
		if whole := strings.TrimRight(name, " .!:;"); whole != n && strings.HasSuffix(whole, " "+n) &&
			!strings.Contains(whole[:len(whole)-len(n)-1], " ") && strings.Count(text, whole) > 1 {
			n = whole
		}
		if lodgingWords.In(strings.ToLower(n)) || sharesWord(n, about) || strings.Count(text, n) > 1 {
			return n
		}
	}
	return ""
}

// columnDates reads a stay's dates from a table whose header row names
// check-in and check-out ("Entrada Salida Noches") over a row of values:
// the dates in the headers' order.
func (c *msgContext) columnDates(text string, z zoneHint) (in, out *Time) {
	lines := strings.Split(text, "\n")
	for i, ln := range lines {
		if hasDigit(ln) || len(ln) > 120 {
			continue
		}
		ci, co := headerAt(checkinWordRE, ln), headerAt(checkoutWordRE, ln)
		if ci < 0 || co < 0 || ci == co {
			continue
		}
		for j := i + 1; j < len(lines) && j <= i+2; j++ {
			ds := c.dates(lines[j])
			if len(ds) < 2 {
				continue
			}
			a, b := ds[0].withYear(c.ref), ds[1].withYear(c.ref)
			if co < ci {
				a, b = b, a
			}
			// A row is written in one order: "12/02/2028 15/02/2028" is
			// not the 2nd of December to the 15th of February.
			if before(b, a) {
				if ds := findDates(lines[j], !c.usSender()); len(ds) >= 2 {
					if x, y := ds[0].withYear(c.ref), ds[1].withYear(c.ref); !before(y, x) && co > ci {
						a, b = x, y
					}
				}
			}
			return resolve(at(a, nil), z, c.dateLoc), resolve(at(b, nil), z, c.dateLoc)
		}
	}
	return nil, nil
}

// rangeDates reads a stay's dates from a sentence that gives them as a
// range ("vom 10. bis 13. Dezember 2027", "from Thursday 18 November to
// Sunday 21 November 2027", "del 26 al 28 de noviembre"): the end is a
// date, the start a date or a day whose month and year are the end's.
func (c *msgContext) rangeDates(text string, z zoneHint) (in, out *Time) {
	head := firstLines(text, 60)
	matches := stayRangeRE.FindAllStringSubmatch(head, 5)
	if dl := dashRangeLines(head); dl != "" {
		matches = append(matches, stayDashRE.FindAllStringSubmatch(dl, 5)...)
	}
	if strings.ContainsAny(head, "-–") {
		matches = append(matches, compactRangeRE.FindAllStringSubmatch(head, 5)...)
	}
	for _, m := range matches {
		// Each language's pair has its own two groups: the pair that took part.
		var first, second string
		for k := 1; k+1 < len(m); k += 2 {
			if m[k] != "" {
				first, second = m[k], m[k+1]
				break
			}
		}
		ends := c.dates(second)
		if len(ends) == 0 || ends[0].start > 16 {
			continue
		}
		end := ends[0].withYear(c.ref)
		var start dateMatch
		if ds := c.dates(first); len(ds) > 0 {
			start = ds[0]
			if !start.hasYear {
				start.y, start.hasYear = end.y, true
				if before(end, start) {
					start.y--
				}
			}
		} else if d := dayMonthDot.FindStringSubmatch(strings.TrimSpace(first)); d != nil {
			// "30.06." before "02.07.2028": the day and month, the year
			// the end's (or the one before, across New Year).
			day, _ := strconv.Atoi(d[1])
			mon, _ := strconv.Atoi(d[2])
			start = dateMatch{y: end.y, m: mon, d: day, hasYear: true}
			if before(end, start) {
				start.y--
			}
		} else if d := bareDay.FindStringSubmatch(first); d != nil {
			day, _ := strconv.Atoi(d[1])
			start = dateMatch{y: end.y, m: end.m, d: day, hasYear: true}
			if day > end.d {
				start.m--
				if start.m == 0 {
					start.y, start.m = start.y-1, 12
				}
			}
		} else {
			continue
		}
		if !before(start, end) || time.Date(end.y, time.Month(end.m), end.d, 0, 0, 0, 0, time.UTC).Sub(
			time.Date(start.y, time.Month(start.m), start.d, 0, 0, 0, 0, time.UTC)) > 60*24*time.Hour {
			continue // no stay: a sale's dates, a period of months
		}
		return resolve(at(start, nil), z, c.dateLoc), resolve(at(end, nil), z, c.dateLoc)
	}
	return nil, nil
}

// stayRangeRE is a range of days in the words of every language
// (extract/lang, stay.range: "from … to"): what comes after the first
// word, and after the second.
var stayRangeRE, stayDashRE = func() (*regexp.Regexp, *regexp.Regexp) {
	var words, dashes []string
	for _, e := range lang.Entries("stay.range") {
		a, b, ok := strings.Cut(e, "…")
		if !ok {
			continue
		}
		if strings.TrimSpace(b) == "[–-]" {
			// A label's range, "Zeitraum: 30.06.–02.07.2028": an
			// expression of its own, run on the lines that can hold one.
			dashes = append(dashes, `(?:`+strings.TrimSpace(a)+`)[ \t]+([^\n]{1,40}?)[ \t]*(?:[–-])[ \t]*([^\n]{1,60})`)
			continue
		}
		words = append(words, `(?:`+strings.TrimSpace(a)+`)[ \t]+([^\n]{1,40}?)[ \t]+(?:`+strings.TrimSpace(b)+`)[ \t]+([^\n]{1,60})`)
	}
	re := func(alts []string) *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(alts, "|") + `)`)
	}
	return re(words), re(dashes)
}()

// compactRangeRE is a range of days before one month's name, in any
// sentence: "12.–14. Oktober 2028", "13-15 Oct 2028", "30 Oct – 2 Nov
// 2028". The month's name after the second day is what makes it dates.
var compactRangeRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}\d.])(\d{1,2}\.?(?:\s*(?:` + monthAlt + `)\.?)?)[ \t]*[–-][ \t]*(\d{1,2}\.?[ \t]+(?:de[ \t]+)?(?:` + monthAlt + `)\.?(?:[ \t]+(?:de[ \t]+)?\d{4})?)(?:$|[^\p{L}])`)

// stayDashWords are the labels of stayDashRE's ranges ("dates",
// "zeitraum"), looked for before the expression runs.
var stayDashWords = func() *words.Set {
	var labels []string
	for _, e := range lang.Entries("stay.range") {
		if a, b, ok := strings.Cut(e, "…"); ok && strings.TrimSpace(b) == "[–-]" {
			labels = append(labels, requiredText(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(a), ":"))))
		}
	}
	return words.NewSet(labels)
}()

// stayDashLine reports whether a line of s holds a labelled range of
// stayDashRE's: the expression only on lines with a colon, a dash, a
// digit and a label's word.
func stayDashLine(s string) bool {
	for ln := range strings.Lines(s) {
		if strings.IndexByte(ln, ':') < 0 || !strings.ContainsAny(ln, "–-") || !hasDigit(ln) {
			continue
		}
		if stayDashWords.Any(strings.ToLower(ln)) && stayDashRE.MatchString(ln) {
			return true
		}
	}
	return false
}

// dashRangeLines are the lines of s that can hold a label's range: a
// colon, a dash and a digit.
func dashRangeLines(s string) string {
	var b strings.Builder
	for ln := range strings.Lines(s) {
		if strings.IndexByte(ln, ':') >= 0 && strings.ContainsAny(ln, "–-") && hasDigit(ln) {
			b.WriteString(ln)
		}
	}
	return b.String()
}

// dayMonthDot is a day and month without a year: "30.06.".
var dayMonthDot = regexp.MustCompile(`^(\d{1,2})\.(\d{1,2})\.$`)

// bareDay is a day of the month alone: "10.", "26", "Thursday 18".
var bareDay = regexp.MustCompile(`^[\p{L}, ]{0,15}?(\d{1,2})\.?$`)

// Check-in and check-out words of every language, whole (extract/lang).
var (
	checkinWordRE  = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(lang.Entries("checkin")), "|") + `)(?:$|[^\p{L}])`)
	checkoutWordRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(lang.Entries("checkout")), "|") + `)(?:$|[^\p{L}])`)
)

func before(a, b dateMatch) bool {
	return a.y < b.y || a.y == b.y && (a.m < b.m || a.m == b.m && a.d < b.d)
}

func headerAt(re *regexp.Regexp, s string) int {
	if m := re.FindStringIndex(s); m != nil {
		return m[0]
	}
	return -1
}

// isAddress reports whether s starts like a street address and holds no
// date ("October 15, 2027" starts like "Apollolaan 138").
func isAddress(s string) bool {
	s = strings.TrimSpace(s)
	return addressRE.MatchString(s) && len(findDates(s, false)) == 0
}

// trailingName is the run of capitalised words (and the small words
// between them) that ends s, if it looks like a name: no digits, no
// address or legal form, one to six words.
func trailingName(s string) string {
	f := strings.Fields(strings.TrimRight(s, " .!:;"))
	i := len(f)
	for i > 0 {
		w := unElided(f[i-1])
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) && !(i < len(f) && linkWords.In(w)) {
			break
		}
		i--
	}
	for i < len(f) && linkWords.In(f[i]) {
		i++
	}
	n := slices.Clone(f[i:])
	if len(n) > 0 {
		n[0] = unElided(n[0]) // "l'Auberge du Lac"
	}
	// Too long for a name: German capitalises its nouns ("Ihr Team vom
	// Best Western …"); the name is what follows the last small word.
	for k := len(n) - 2; len(n) > 6 && k > 0; k-- {
		if linkWords.In(n[k]) {
			n = n[k+1:]
			break
		}
	}
	if len(n) == 0 || len(n) > 6 {
		return ""
	}
	name := strings.Join(n, " ")
	if hasDigit(name) || strings.ContainsAny(name, "@/()") || legalForm.MatchString(name) {
		return ""
	}
	return name
}

// unElided is a word without the article elided before it: "l'Auberge",
// "dell’Hotel".
func unElided(w string) string {
	for _, sep := range []string{"'", "’"} {
		if a, rest, ok := strings.Cut(w, sep); ok && rest != "" && len(a) <= 4 && (strings.ToLower(a) == a || a == "L" || a == "D") {
			return rest
		}
	}
	return w
}

// legalForm is a company's legal form: a name that carries one is a
// company's, not a hotel's ("Booking.com B.V.").
var legalForm = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:gmbh|ag|b\.v\.|n\.v\.|s\.a\.|s\.l\.|s\.p\.a\.|s\.r\.l\.|ltd|llc|inc|plc|oy|oyj|ab|as|a/s|asa|s\.r\.o\.|a\.s\.|sp\. z o\.o\.|se|\w+\.com)(?:$|[^\p{L}])`)

// sharesWord reports whether name has a word of four letters or more
// that lower-cased about holds whole.
func sharesWord(name, about string) bool {
	for _, w := range strings.Fields(strings.ToLower(name)) {
		w = strings.Trim(w, ".,;:!'’*=")
		if utf8.RuneCountInString(w) >= 4 && words.Has(about, w) {
			return true
		}
	}
	return false
}

// A stay's length: "2 nights", "Nights: 2", "Number of nights: 2"
// (stay.nights in extract/lang/data).
var (
	nightsWords   = strings.Join(longestFirst(lang.Entries("stay.nights")), "|")
	nightsAfterRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}\d])(\d{1,2})\s*(?:` + nightsWords + `)(?:[^\p{L}]|$)`)
	nightsLabelRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:` + nightsWords + `)\s*:\s*(\d{1,2})(?:\D|$)`)
)

// nightsFromDate reads a stay told as its first day and its nights in one
// sentence ("welcoming you on Friday 19 July 2030 for 2 nights", "fra 3.
// august 2030, 2 netter"): the one date on the nights' line or the line
// before it, the nights after it.
func (c *msgContext) nightsFromDate(text string, z zoneHint) (in, out *Time) {
	m := nightsAfterRE.FindStringSubmatchIndex(text)
	if m == nil {
		return nil, nil
	}
	n, _ := strconv.Atoi(text[m[2]:m[3]])
	start := strings.LastIndexByte(text[:m[2]], '\n')
	if start > 0 {
		start = strings.LastIndexByte(text[:start], '\n') // and the line before
	}
	ds := c.dates(text[start+1 : m[2]])
	if n == 0 || len(ds) != 1 {
		return nil, nil
	}
	a := ds[0].withYear(c.ref)
	b := a
	t := time.Date(a.y, time.Month(a.m), a.d+n, 0, 0, 0, 0, time.UTC)
	b.y, b.m, b.d = t.Year(), int(t.Month()), t.Day()
	return resolve(at(a, nil), z, c.dateLoc), resolve(at(b, nil), z, c.dateLoc)
}

// stayNights is the number of nights a text books, or 0 when it names
// none or several different ones.
func stayNights(text string) int {
	n := 0
	for _, re := range []*regexp.Regexp{nightsLabelRE, nightsAfterRE} {
		for _, m := range re.FindAllStringSubmatch(text, 4) {
			v, _ := strconv.Atoi(m[1])
			if v == 0 || n != 0 && v != n {
				return 0
			}
			n = v
		}
	}
	return n
}

// labelledDate finds the first date (and clock, if on the same line)
// after one of the labels.
func (c *msgContext) labelledDate(l labelSet, text string, z zoneHint) *Time {
	for _, v := range c.after(l, text) {
		ds := c.dates(v)
		if len(ds) == 0 || ds[0].start > 40 {
			continue
		}
		d := ds[0].withYear(c.ref)
		var ck *clockMatch
		if cs := findClocks(v); len(cs) > 0 {
			ck = &cs[0]
		}
		return resolve(at(d, ck), z, c.dateLoc)
	}
	return nil
}

var (
	orderNumRE = regexp.MustCompile(`^[#:\s]*(?:(?:no|nr|n[°º]?|n\.[°º])\.?\s*)?([A-Z0-9][A-Z0-9\-/]{2,30}[0-9])\b`)
	// A number may follow its label as a sentence does: "the tracking
	// number is 350C20177729F", "il numero di tracciabilità è …".
	// A local carrier may print its prefix apart by a dash ("URB-88120394").
	trackingRE = regexp.MustCompile(`^[#:\s]*(?:(?:is|è|ist|est|es)\s+)?([A-Z0-9]{8,34}|[A-Z]{2,6}-\d{5,20})\b`)
	// subjectOrderRE is an order number in a subject: "order
	// #123-4567890-1234567", "ordine Amazon.it n. 405-…", "Bestellung Nr. 1234".
	subjectOrderRE = regexp.MustCompile(`(?i)\b(?:order|ordine|commande|bestellung|pedido|bestelling)\b[^#\n]{0,24}?(?:#|\bn[°º.]|\bno\.|\bnr\.?)\s*([A-Z0-9][A-Z0-9\-]{2,30}[0-9])\b`)
	anyTrackRE     = regexp.MustCompile(`\b(1Z[0-9A-Z]{16}|TBA\d{12}|\d{12}|\d{15}|\d{20,22}|9\d{15,21}|JJD\d{10,20}|[A-Z]{2}\d{9}[A-Z]{2})\b`)
)

// orderStatusOf reads an order's state from the subject, else the text's
// first lines.
func orderStatusOf(subject, text string) string {
	// The subject speaks first, but a subject that only says "your order"
	// gives way to a body that says what happened to it.
	// A subject that only says the parcel is on its way gives way to a
	// body that says it comes today ("… är på väg" over "levereras i
	// kväll").
	// A subject that says a delivery failed ("We missed you") gives way
	// to a body that says where the parcel waits to be collected.
	status := ""
	for _, s := range []string{lower(subject), lower(firstLines(text, 12))} {
		st := statusIn(s)
		switch {
		case (st == StatusShipped || st == StatusProblem) && status == "":
			status = st
		case st == StatusOutForDelivery && status == StatusShipped:
			return st
		case status == StatusProblem && (st == StatusDelivered || st == StatusOutForDelivery):
			return st
		case status == StatusShipped || status == StatusProblem:
		case st != "" && st != StatusOrdered:
			return st
		case st != "" && status == "":
			status = st
		}
	}
	return status
}

// statusIn reads an order's or parcel's state from lower-cased text by the
// status phrases of every language (extract/lang), the more particular
// state first: "will be delivered today" is out for delivery, not
// delivered.
func statusIn(s string) string {
	best := len(statusOrder)
	statusSet.EachAt(s, func(phrase, end int) bool {
		// "We'll email you again when your order has been dispatched":
		// a state in a clause about a time to come is not the order's.
		start := strings.LastIndexByte(s[:end], '\n') + 1
		before := s[start:max(start, end-len(statusPhrases[phrase]))]
		if whenWords.In(before) {
			return true
		}
		// "Will be dispatched within 2 working days": shipping to come.
		// The phrase may end a longer word ("sendt" in "afsendt").
		if statusOrder[statusRank[phrase]] == StatusShipped {
			w := len(before)
			for w > 0 && words.In(before, w, true) {
				_, n := utf8.DecodeLastRuneInString(before[:w])
				w -= n
			}
			if endsWithWord(before[:w], willWords) {
				return true
			}
		}
		best = min(best, statusRank[phrase])
		return best > 0 // nothing comes before out for delivery
	})
	// "Is due to be delivered today", "wird heute … zugestellt", "kurier
	// doręczy ją dziś": a delivery today that no phrase list can spell out
	// in full is out for delivery unless its line says it is past.
	if best > 0 && deliveryToday(s) {
		return StatusOutForDelivery
	}
	// "Sera livré demain": a delivered phrase in a sentence about a day
	// to come is a parcel on its way.
	if best < len(statusOrder) && statusOrder[best] == StatusDelivered && deliveryAhead(s) {
		return StatusShipped
	}
	if best == len(statusOrder) {
		return ""
	}
	return statusOrder[best]
}

// The words of every language for today, for delivering (stems) and for
// a delivery that is over (extract/lang).
var (
	todayWords   = words.NewWholeSet(lang.Entries("status.today"))
	deliverWords = words.NewWholeSet(lang.Entries("status.deliver"))
	pastWords    = words.NewWholeSet(lang.Entries("status.past"))
	futureWords  = words.NewWholeSet(lang.Entries("status.future"))
	// whenWords open a clause about a time to come (status.when).
	whenWords = words.NewWholeSet(lang.Entries("status.when"))
	// willWords put the verb right after them in time to come
	// (status.will: "will be", "wird", "sera").
	willWords = lang.Entries("status.will")
)

// endsWithWord reports whether s, less its trailing spaces, ends with one
// of ws as whole words.
func endsWithWord(s string, ws []string) bool {
	s = strings.TrimRight(s, " \t")
	for _, w := range ws {
		if !strings.HasSuffix(s, w) {
			continue
		}
		// "'ll be" holds to the word before it ("it'll be").
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsLetter(r) || !words.In(s, len(s)-len(w), true) {
			return true
		}
	}
	return false
}

// deliveryAhead reports whether s tells of a delivery to come and of none
// done.
func deliveryAhead(s string) bool {
	ahead := false
	for ln := range strings.Lines(s) {
		if pastWords.In(ln) {
			return false
		}
		ahead = ahead || futureWords.In(ln)
	}
	return ahead
}

// deliveryToday reports whether a line of s says the parcel is delivered
// today and none says it was: a line whose delivery is past, or that opens
// with the delivery as a status line does ("Delivered today at 11:42"),
// makes the whole text a delivery done.
func deliveryToday(s string) bool {
	opens := func(ln string) bool {
		first, _, _ := strings.Cut(strings.TrimSpace(ln), " ")
		return deliverWords.In(first)
	}
	today := false
	for ln := range strings.Lines(s) {
		if !deliverWords.In(ln) {
			continue
		}
		if pastWords.In(ln) || opens(ln) {
			return false
		}
		today = today || todayWords.In(ln)
	}
	return today
}

// statusOrder is the order the states are tried in.
var statusOrder = []string{StatusOutForDelivery, StatusDelivered, StatusCancelled, StatusReturned, StatusShipped, StatusProblem, StatusOrdered}

// statusSet finds every status phrase in one pass over the text;
// statusRank is each phrase's state's place in statusOrder.
var statusSet, statusRank, statusPhrases = func() (*words.Set, []int, []string) {
	var phrases []string
	var rank []int
	for i, st := range statusOrder {
		for _, p := range lang.Entries("status." + st) {
			phrases, rank = append(phrases, p), append(rank, i)
		}
	}
	return words.NewSet(phrases), rank, phrases
}()

func firstLines(s string, n int) string {
	i := 0
	for k := 0; k < n; k++ {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		i += j + 1
	}
	return s[:i]
}

// digitLinesOf is digitLines(text), worked out once per text.
func (c *msgContext) digitLinesOf(text string) []int {
	if len(text) != len(c.digitText) || unsafe.StringData(text) != unsafe.StringData(c.digitText) {
		c.digitText, c.digitLines = text, digitLines(text)
	}
	return c.digitLines
}

// masked says whether a number was blanked out for privacy
// ("XXX-5XXX882-9XXX5X3"): it names nothing.
func masked(s string) bool { return strings.Contains(strings.ToUpper(s), "XXX") }

// trackingNumber finds a shipment's tracking number, best first: a
// labelled one whose check digit is right; one anywhere in the text with
// a right check digit; in the carrier's own mail, one in that carrier's
// form (its own notices need no proof that the number is theirs); a
// labelled one whose form no check covers.
func (c *msgContext) trackingNumber(text string) (tracking, carrier string) {
	var labelled []string
	for _, v := range c.after(trackingLabel, text) {
		n := groupedNumber(v)
		if n == "" {
			if m := trackingRE.FindStringSubmatch(v); m != nil {
				n = m[1]
			}
		}
		if n != "" && hasDigit(n) && !masked(n) {
			if car, ok := carrierOf(n, c.senderDomain, true); ok {
				return n, car
			}
			labelled = append(labelled, n)
		}
	}
	own := carrierBySender(c.senderDomain)
	var ownForm string
	found := 0
	// Every form holds digits, and none spans lines: only lines with a
	// digit are searched.
	for _, start := range c.digitLinesOf(text) {
		line := text[start:]
		if end := strings.IndexByte(line, '\n'); end >= 0 {
			line = line[:end]
		}
		if !hasDigit(line) {
			continue
		}
		for _, m := range anyTrackRE.FindAllString(line, 20-found) {
			found++
			car, ok := carrierOf(m, c.senderDomain, false)
			if ok {
				return m, car
			}
			if car != "" && car == own && ownForm == "" {
				ownForm = m
			}
		}
		if found >= 20 {
			break
		}
	}
	if ownForm != "" {
		return ownForm, own
	}
	// A number right after a word for a parcel ("Votre colis 6A…", "Your
	// parcel 1Z…") is weaker than one after a label, and looked for only
	// when nothing else was found: one in a carrier's form must pass that
	// carrier's check.
	if len(labelled) == 0 {
		for _, m := range parcelNounNumbers(text) {
			if digitCount(m[1]) < 6 || masked(m[1]) {
				continue
			}
			if form, ok := trackingCarrier(m[1]); form != "" && !ok && form != own {
				continue
			}
			if car, ok := carrierOf(m[1], c.senderDomain, true); ok {
				return m[1], car
			}
			labelled = append(labelled, m[1])
		}
	}
	if len(labelled) > 0 {
		car, _ := carrierOf(labelled[0], c.senderDomain, true)
		return labelled[0], car
	}
	return "", ""
}

// groupedNumber is a labelled number printed in groups ("0034 0434 1610
// 9404 2557", "1Z 999 AA1 01 2345 6784", "99.60.123456.12345678") as one,
// or "" when the value does not start so: a first group of eight or more
// is a number of its own (trackingRE reads it).
func groupedNumber(v string) string {
	m := groupedRE.FindStringSubmatch(v)
	if m == nil || len(m[1]) >= 8 {
		return ""
	}
	n := strings.NewReplacer(" ", "", ".", "").Replace(strings.TrimLeft(m[0], "#: \t"))
	if len(n) < 8 || len(n) > 35 {
		return ""
	}
	return n
}

var groupedRE = regexp.MustCompile(`^[#: \t]*([A-Z0-9]{1,8})(?:[ .][A-Z0-9]{1,8}){1,8}\b`)

// textOrder reads an order: an order number next to its label, or a
// tracking number with a valid check digit in a shipping mail.
func (c *msgContext) textOrder(subject, text string) (Fact, bool) {
	// An order's mail states something countable below its subject (a
	// price, a date, a quantity, a number): a body without a single digit
	// is a letter that happens to use order words.
	if body, ok := strings.CutPrefix(text, subject); ok && !hasDigit(body) {
		return Fact{}, false
	}
	status := orderStatusOf(subject, text)
	if status == "" {
		return Fact{}, false
	}
	o := &Order{Status: status, Domain: c.senderDomain, Merchant: c.senderName}
	o.Number = c.orderNumber(text)
	if m := subjectOrderRE.FindStringSubmatch(subject); m != nil && o.Number == "" && !masked(m[1]) {
		o.Number = m[1]
	}
	tracking, carrier := c.trackingNumber(text)
	// The carrier the mail names in a sentence, and whether it names one,
	// worked out once: the expressions read the whole text.
	all := subject + "\n" + text
	mentioned := sync.OnceValue(func() string { return mentionedCarrier(all) })
	lowerAll := sync.OnceValue(func() string { return lower(all) })
	names := func(carrier string) bool { return words.Has(lowerAll(), strings.ToLower(carrier)) }
	byChance := false // the carrier was a check's guess the mail's naming replaced
	if carrier != "" && (allDigits(tracking) || isS10(tracking)) && carrierBySender(c.senderDomain) == "" {
		// A number of digits alone passes some carrier's check by chance
		// (one in seven to ten): the carrier the mail names, if it names
		// one and not that one ("sent with GLS", "Pakkenummer:
		// 5701928374"), carries it. An S10 number's country is where the
		// parcel was posted: the carrier named brings it ("pris en charge
		// par Chronopost", "XW…FR").
		if named := cmp.Or(c.namedCarrier(text), mentioned()); named != "" && !names(carrier) {
			carrier, byChance = named, true
		}
	}
	if tracking != "" && o.Number != "" && strings.EqualFold(compactCode(tracking), compactCode(o.Number)) {
		// The order's own number passing a carrier's check by chance
		// ("Order number: 784512093316" is a FedEx form) tracks nothing.
		tracking, carrier = "", ""
	}
	if tracking == "" && status != StatusOrdered {
		// An order just placed has no parcel to track yet.
		tracking, carrier = c.linkTracking(c.html, text)
		// The carrier the mail names ("Transporteur : Colissimo") over
		// the name of the site it links to (La Poste's).
		if named := c.namedCarrier(text); tracking != "" && named != "" {
			carrier = named
		}
	}
	if o.Number == "" && tracking == "" {
		return Fact{}, false
	}
	if carrier == "" {
		carrier = c.namedCarrier(text)
	}
	if carrier == "" {
		carrier = carrierBySender(c.senderDomain)
	}
	if tracking != "" {
		o.Shipments = []Shipment{{Carrier: carrier, Tracking: tracking, Status: status}}
		if status == StatusOrdered {
			o.Shipments[0].Status = StatusShipped
			o.Status = StatusShipped
		}
	}
	// A carrier no list knows by its domain that names itself in a
	// sentence ("shipped with 4PX", sent by "4PX Express"); a postal
	// operator's own notice about a number of its country ("Pósturinn" on
	// postur.is, "EE…IS"), by the name it signs with, not the table's; a
	// carrier that signs the mail on a domain no list knows ("Poczta
	// Polska") delivers the parcel, whatever carrier another's form names:
	// an S10 number's country is where it was posted, not who brings it.
	self := c.postalSender(tracking, text)
	switch sc := mentionedCarrier(c.senderName); {
	case self != "" || tracking == "":
	case carrier == "":
		if m := mentioned(); m != "" && sameShop(m, c.senderName, c.senderDomain) {
			self = m
		}
	case sc != "" && sc != carrier && carrierBySender(c.senderDomain) == "":
		self = sc
	}
	if carrierBySender(c.senderDomain) == "" && carrier != "" && tracking != "" && sameShop(carrier, c.senderName, c.senderDomain) && mentionedCarrier(carrier) == "" {
		// A carrier no list knows, found in the mail's own name ("Courier
		// Center" read as the courier "Center"): the name it signs with.
		carrier = senderBrand(c.senderName)
		o.Shipments[0].Carrier = carrier
	}
	if carrierBySender(c.senderDomain) != "" || carrier != "" && tracking != "" && sameShop(carrier, c.senderName, c.senderDomain) || self != "" {
		// A carrier's own mail (by its domain, or a postal operator that
		// its number names and that signs it: "Latvijas Pasts"): the
		// merchant is whoever it names, if anyone.
		o.Merchant, o.Domain = c.shipperNamed(text), ""
		if self != "" {
			carrier, o.Shipments[0].Carrier = self, self
		}
	} else if tracking != "" && c.senderName != "" {
		// A notice about another's parcel ("Tu envío de El Corte Inglés")
		// is from a carrier no list knows, unless the carrier is named: a
		// number of digits alone that passes a known carrier's check
		// passes one in seven to ten by chance, so that carrier counts only
		// when the mail names it.
		chance := byChance || carrier != "" && allDigits(tracking) && !names(carrier)
		if carrier == "" || chance {
			if shop := c.shipperNamed(text); shop != "" && !sameShop(shop, c.senderName, c.senderDomain) {
				// The carrier the notice names ("on its way with DPD": a
				// shipping platform's mail), else the sender.
				carrier = mentioned()
				if carrier == "" || words.Has(strings.ToLower(c.senderName+" "+c.senderDomain), strings.ToLower(carrier)) {
					// The sender: by the carrier's name its own holds
					// ("GLS France" is GLS, "PPL CZ" PPL), else by its own.
					carrier = cmp.Or(mentionedCarrier(c.senderName), senderBrand(c.senderName))
				}
				o.Merchant, o.Domain = shop, ""
				o.Shipments[0].Carrier = carrier
			}
		}
	}
	if tracking != "" && carrier == "" {
		// A shop's mail that names its carrier in a sentence ("sendt med
		// Bring", "wysłane kurierem InPost").
		o.Shipments[0].Carrier = mentioned()
	}
	if a := c.labelledAmount(text); a != nil {
		o.Total = a
	}
	return Fact{Kind: KindOrder, From: FromText, Order: o}, true
}

// isS10 reports whether a tracking number is in the UPU S10 form with a
// right check digit.
func isS10(tracking string) bool {
	for _, m := range carriers.Identify(tracking, "") {
		if m.Code == "s10" {
			return true
		}
	}
	return false
}

// postalSender is the sender's name less its notice words when the mail
// comes from the country of the UPU S10 number it tracks (its domain
// ends in that country's code: posta.si for "RB…SI") and names another
// as the parcel's shop: a shop of that country writes about its own
// parcels. Else "".
func (c *msgContext) postalSender(tracking, text string) string {
	// A carrier the tables know by its domain has its name there.
	if tracking == "" || c.senderName == "" || len(tracking) != 13 || carrierBySender(c.senderDomain) != "" {
		return ""
	}
	if shop := c.shipperNamed(text); shop == "" || sameShop(shop, c.senderName, c.senderDomain) {
		return ""
	}
	for _, m := range carriers.Identify(tracking, "") {
		if m.Code == "s10" && m.Country != "" && strings.HasSuffix(c.senderDomain, "."+strings.ToLower(m.Country)) {
			return senderBrand(c.senderName)
		}
	}
	return ""
}

// parcelNounNumbers are parcelNounRE's matches on the lines that can hold
// one: six digits or more, and a word for a parcel.
func parcelNounNumbers(text string) [][]string {
	low := lower(text)
	if !parcelNouns.Any(low) {
		return nil
	}
	if len(low) != len(text) {
		// Offsets would not match: the expression line by line.
		var out [][]string
		for ln := range strings.Lines(text) {
			if digitCount(ln) >= 6 {
				out = append(out, parcelNounRE.FindAllStringSubmatch(ln, 4)...)
			}
		}
		return out
	}
	// The expression only where a word for a parcel is, on the rest of
	// its line.
	var out [][]string
	parcelNouns.EachAt(low, func(_, end int) bool {
		// The word (a dozen letters at most) and the number right after
		// it (34 at most), on the word's line.
		start, stop := max(0, end-24), min(len(text), end+48)
		if i := strings.LastIndexByte(text[start:end], '\n'); i >= 0 {
			start += i + 1
		}
		if i := strings.IndexByte(text[end:stop], '\n'); i >= 0 {
			stop = end + i
		}
		for start > 0 && !utf8.RuneStart(text[start]) {
			start++
		}
		for stop < len(text) && !utf8.RuneStart(text[stop]) {
			stop++
		}
		if digitCount(text[end:stop]) >= 6 {
			out = append(out, parcelNounRE.FindAllStringSubmatch(text[start:stop], 4)...)
		}
		return len(out) < 8
	})
	return out
}

// compactCode is a code without the spaces and dashes it is printed with.
func compactCode(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, s)
}

// orderNumber is the first number a text gives by an order's label.
func (c *msgContext) orderNumber(text string) string { return c.codeAfter(orderLabels, text) }

// codeAfter is the first code of orderNumRE's form after one of labels,
// or "".
func (c *msgContext) codeAfter(labels labelSet, text string) string {
	for _, v := range c.after(labels, text) {
		if m := orderNumRE.FindStringSubmatch(v); m != nil && !masked(m[1]) {
			return m[1]
		}
	}
	return ""
}

// ticketLabels head a ticket's own code (ticket.code in extract/lang/data).
var ticketLabels = numericLabels(lang.Entries("ticket.code")...)

// ticketCode is the code after a ticket's label, or "".
func (c *msgContext) ticketCode(text string) string { return c.codeAfter(ticketLabels, text) }

// mentionedCarrier is the one carrier whose name a text holds as a word,
// or "" when it names none or several ("we ship with DHL, UPS and GLS").
func mentionedCarrier(text string) string {
	found := ""
	for _, m := range carrierNameRE.FindAllStringSubmatchIndex(text, 20) {
		name := text[m[2]:m[3]]
		if carriers.IsWord(name) && opensSentence(text[:m[2]]) && lowerNext(text[m[3]:]) {
			continue // "Bring photo ID": the verb, not Norway's carrier
		}
		if found != "" && name != found {
			return ""
		}
		found = name
	}
	return found
}

// opensSentence reports whether the text before a word ends a sentence
// or a line: the word starts one.
func opensSentence(before string) bool {
	t := strings.TrimRight(before, " \t")
	return t == "" || strings.ContainsRune(".!?\n", rune(t[len(t)-1]))
}

// lowerNext reports whether the text after a word goes on with a word in
// lower case, as a sentence does after its verb.
func lowerNext(after string) bool {
	t := strings.TrimLeft(after, " \t")
	r, _ := utf8.DecodeRuneInString(t)
	return len(t) < len(after) && unicode.IsLower(r)
}

// carrierNameRE finds carriers' names (extract/carriers), longest first,
// as they are written: "DAO" is a carrier, "dao" a word. A name may take
// its language's case ending ("luovutettu Postille", "wysłane InPostem":
// carrier.suffix in extract/lang/data).
var carrierNameRE = regexp.MustCompile(`(?:^|[^\p{L}\p{N}])(` + strings.Join(quoteAll(longestFirst(carriers.Names())), "|") + `)` +
	`(?:` + strings.Join(longestFirst(lang.Entries("carrier.suffix")), "|") + `)?(?:$|[^\p{L}\p{N}])`)

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = regexp.QuoteMeta(x)
	}
	return out
}

// namedCarrier is the carrier a mail names by its label ("Carrier: DHL",
// "Transporteur : Colissimo"), if any.
func (c *msgContext) namedCarrier(text string) string {
	// A known carrier's name, words and all ("DB Schenker"), wherever the
	// label puts its value (after it, under it as a column's).
	for _, v := range c.after(carrierLabel, text) {
		if m := carrierNameRE.FindStringSubmatchIndex(v); m != nil && strings.TrimLeft(v[:m[2]], " :") == "" {
			return v[m[2]:m[3]]
		}
	}
	// Else a name's first word after the label and a colon on its line:
	// "The courier will deliver" names none, nor does the line after a
	// subject ending "… remis au transporteur" ("Bonjour Camille,").
	for ln := range linesWith(carrierPhrases, text) {
		if m := carrierColonRE.FindStringSubmatch(ln); m != nil {
			return strings.Trim(m[1], ".,;")
		}
	}
	return ""
}

// carrierPhrases are carrierColonRE's labels and phrases, found in one
// pass before the expression runs on a line that holds one.
var carrierPhrases = words.NewSet(append(lang.Entries("carrier.label"), lang.Entries("carrier.with")...))

// linesWith yields the lines of text whose lower case holds a phrase of
// set: an expression with no literal start to skip ahead by then reads
// only those.
func linesWith(set *words.Set, text string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if !set.Any(lower(text)) {
			return
		}
		for ln := range strings.Lines(text) {
			if set.Any(strings.ToLower(ln)) && !yield(ln) {
				return
			}
		}
	}
}

// carrierColonRE is a carrier's label and a colon, or a phrase of
// shipping with one (carrier.with: "shipped via"), then a word that
// starts with a capital or a digit, on one line.
var carrierColonRE = regexp.MustCompile(`(?im)(?:^|[^\p{L}])(?:(?:` + strings.Join(longestFirst(lang.Entries("carrier.label")), "|") +
	`)[ \t]*:|(?:` + strings.Join(longestFirst(lang.Entries("carrier.with")), "|") + `))[ \t]*((?-i:[\p{Lu}\d])[^\s]{0,18})`)

// shipperNamed is the shop a parcel notice names as its sender, if any.
func (c *msgContext) shipperNamed(text string) string {
	if m := fromMerchantMatch(text); m != nil {
		// "Verkkokauppa.com" keeps its dot; a sentence's full stop goes.
		// A shop named by its domain ends there ("od Mall.cz Vám", the
		// polite "you").
		f := strings.Fields(m[1])
		for i, w := range f {
			if domainWordRE.MatchString(w) {
				f = f[:i+1]
				break
			}
			// A full stop ends the name with its sentence ("Leroy Merlin.
			// Nuestro repartidor …"); a polite pronoun after it is none
			// of it ("od firmy Electroworld Vám doručíme").
			if i > 0 && pronouns[strings.ToLower(w)] {
				f = f[:i]
				break
			}
			if strings.HasSuffix(w, ".") {
				f = f[:i+1]
				break
			}
		}
		return strings.TrimRight(strings.Join(f, " "), ".")
	}
	for _, v := range c.after(shipperLabel, text) {
		if v != "" && len(v) <= 60 && !hasDigit(v) && !strings.ContainsAny(v, "@<") {
			return v
		}
	}
	// "Your Hobbycraft parcel": a carrier's own name there ("Your DPD
	// parcel") names no shop.
	for ln := range linesWith(ownedNouns, text) {
		for _, m := range ownedParcelRE.FindAllStringSubmatch(ln, 4) {
			if mentionedCarrier(m[1]) == "" {
				return m[1]
			}
		}
	}
	// "Kogan has sent you a parcel", "Rozetka has sent you shipment No.
	// …": the shop as the sentence's subject, never a pronoun or a
	// carrier.
	for ln := range linesWith(sendsPhrases, text) {
		for _, m := range shopSendsRE.FindAllStringSubmatch(ln, 4) {
			if mentionedCarrier(m[1]) == "" && !pronouns[strings.ToLower(m[1])] {
				return m[1]
			}
		}
	}
	return ""
}

// shopSendsRE is a shop named as the subject of a verb of sending to the
// reader (shop.sends in extract/lang/data): "Kogan has sent you", "que
// Back Market vous a envoyé".
var shopSendsRE = regexp.MustCompile(`(?:^|[^\p{L}\p{N}])(\p{Lu}[\p{L}\p{N}.&'’-]*(?:[ \t]+\p{Lu}[\p{L}\p{N}.&'’-]*){0,2})[ \t]+(?i:` +
	strings.Join(longestFirst(lang.Entries("shop.sends")), "|") + `)(?:$|[^\p{L}])`)

// sendsPhrases and ownedNouns gate shopSendsRE and ownedParcelRE to the
// lines that hold their words.
var (
	sendsPhrases = words.NewSet(lang.Entries("shop.sends"))
	ownedNouns   = words.NewSet(lang.Entries("parcel.owned"))
)

// pronouns are every language's personal pronouns, which a verb of
// sending may follow as well as a shop's name ("We have sent you").
var pronouns = wordSet("pronoun")

// ownedParcelRE is a shop named between a possessive and a word for a
// parcel, the word in lower case so that a title's "Your New Order" names
// no shop (parcel.owner, parcel.owned in extract/lang/data).
var ownedParcelRE = regexp.MustCompile(`(?:^|[^\p{L}])(?i:` + strings.Join(longestFirst(lang.Entries("parcel.owner")), "|") +
	`)[ \t]+(\p{Lu}[\p{L}\p{N}.&'’-]*(?:[ \t]+\p{Lu}[\p{L}\p{N}.&'’-]*){0,2})[ \t]+(?:` +
	strings.Join(longestFirst(lang.Entries("parcel.owned")), "|") + `)(?:$|[^\p{L}])`)

// fromMerchantMatch is fromMerchantRE's first match in text, run only on
// the lines (and the line after each) where a phrase's words are: the
// expression has no literal start to skip ahead by, and over a whole
// shop's mail it cost more than the rest of reading it.
func fromMerchantMatch(text string) []string {
	if fromAnchors == nil {
		return fromMerchantRE.FindStringSubmatch(text)
	}
	low := lower(text)
	if len(low) != len(text) {
		// Lower-casing changed the bytes' count: offsets would not
		// match lines; the whole text, as before.
		if !fromAnchors.Any(low) {
			return nil
		}
		return fromMerchantRE.FindStringSubmatch(text)
	}
	var found []string
	done := -1 // the last line tried
	tries := 0
	fromAnchors.EachAt(low, func(phrase, end int) bool {
		if fromNeedsNumber[phrase] && digitCount(text[end:min(len(text), end+40)]) < 6 {
			return true // "package" with no number after it
		}
		// The phrase holds its word near its start ("item … from"), and
		// the name comes within a line's width after it.
		if end <= done {
			return true // inside the window tried last
		}
		start := max(end-40, done, 0)
		if i := strings.LastIndexByte(text[start:end], '\n'); i >= 0 {
			start += i + 1
		}
		stop := min(len(text), end+140)
		if start >= stop {
			return true
		}
		for start > 0 && !utf8.RuneStart(text[start]) {
			start--
		}
		for stop < len(text) && !utf8.RuneStart(text[stop]) {
			stop++
		}
		done = stop
		if m := fromMerchantRE.FindStringSubmatch(text[start:stop]); m != nil {
			found = m
			return false
		}
		tries++
		return tries < 24 // a long mail's words, not its phrase
	})
	return found
}

// fromAnchors are the words every parcel.from phrase holds; nil when a
// phrase holds none long enough to look for.
var fromAnchors, fromNeedsNumber = func() (*words.Set, []bool) {
	var a []string
	var num []bool
	for _, p := range lang.Entries("parcel.from") {
		t := requiredText(p)
		if len(t) < 3 {
			return nil, nil
		}
		// "parcel [a-z0-9][a-z0-9.]{7,33} from": the phrase holds a number.
		a, num = append(a, t), append(num, strings.Contains(p, "{7,33}"))
	}
	return words.NewSet(a), num
}()

var domainWordRE = regexp.MustCompile(`^[\p{L}\p{N}-]+\.\p{L}{2,6}$`)

// senderNoise are the words after a company's name in a sender's that
// name a department or a kind of mail ("Post CH Benachrichtigung", "Paack
// Envíos": sender.noise in extract/lang/data).
var senderNoise = wordSet("sender.noise")

// senderBrand is a sender's name less the words of senderNoise that end
// it, keeping at least its first word.
func senderBrand(name string) string {
	f := strings.Fields(name)
	for len(f) > 1 && senderNoise[strings.ToLower(f[len(f)-1])] {
		f = f[:len(f)-1]
	}
	return strings.Join(f, " ")
}

// sameShop reports whether a shop's name is the sender's: the same name,
// or a word of it in the sender's name or domain; a name of one short
// word counts whole ("4PX" in "4PX Express").
func sameShop(shop, senderName, senderDomain string) bool {
	about := strings.ToLower(senderName + " " + senderDomain)
	if one := strings.ToLower(shop); utf8.RuneCountInString(one) == 3 && !strings.Contains(one, " ") && words.Has(about, one) {
		return true
	}
	return strings.EqualFold(shop, senderName) || sharesWord(shop, about)
}

var carrierLabel = labels(append(lang.Entries("carrier.label"), lang.Entries("carrier.with")...)...)

// shipperLabel heads the line of a carrier's notice that names who sent
// the parcel: "FROM Express Water Inc.", "Absender: …", "Nadawca: …"
// (shipper.label in extract/lang/data).
var shipperLabel = labelSet{re: regexp.MustCompile(`(?im)^[ \t]*(?:` + strings.Join(quoteAll(longestFirst(lang.Entries("shipper.label"))), "|") + `)(?:[ \t]*:[ \t]*|[ \t]+)`)}

// fromMerchantRE is the shipper a carrier's notice names: "your parcel
// from Zalando", "je pakket van Coolblue", in every language's words
// (extract/lang, parcel.from); the name is capitalised words, or a shop
// that goes by its domain in lower case ("bol.com"). A word for a shop
// may stand between, as written in shop.noun ("od e-shopu Alza.cz"): in
// lower case, so that "Shop Apotheke" keeps its name.
var fromMerchantRE = regexp.MustCompile(`(?:^|[^\p{L}])(?i:` + strings.Join(longestFirst(lang.Entries("parcel.from")), "|") +
	`)\s+(?:(?:` + strings.Join(longestFirst(lang.Entries("shop.noun")), "|") + `)\s+)?(\p{Lu}[\p{L}\p{N}.&'’-]*(?:[ \t]+(?:\p{Lu}|&)[\p{L}\p{N}.&'’-]*){0,3}|[\p{Ll}\p{N}][\p{L}\p{N}-]*\.\p{Ll}{2,6}\b)`)

func carrierBySender(domain string) string {
	if c := carriers.CarrierOf(domain); c != "" {
		return c
	}
	switch domainLabel(domain) {
	case "ups":
		return "UPS"
	case "fedex":
		return "FedEx"
	case "usps":
		return "USPS"
	case "dhl":
		return "DHL"
	case "dpd":
		return "DPD"
	case "hermesworld", "myhermes", "hermes":
		return "Hermes"
	case "gls", "gls-group":
		return "GLS"
	}
	return ""
}

// textBill reads a bill: an amount and a due date or invoice number next
// to their labels, in a mail about a bill or invoice.
func (c *msgContext) textBill(subject, text string) (Fact, bool) {
	l := strings.ReplaceAll(lower(subject+"\n"+firstLines(text, 30)), "’", "'")
	if !billTopic.Any(l) {
		return Fact{}, false
	}
	// "We couldn't process your payment": an account notice, not a bill.
	if paymentFailed.Any(l) {
		return Fact{}, false
	}
	b := &Bill{Domain: c.senderDomain, Issuer: c.senderName, Status: StatusDue}
	b.Amount = c.labelledAmount(text)
	if b.Amount == nil {
		b.Amount = c.sentenceAmount(text)
	}
	b.Due = c.labelledDate(dueLabels, text, c.countryZone(""))
	for _, v := range c.after(invoiceLabels, text) {
		// A label that ends a row of a printed invoice may have the
		// account's IBAN on the row below: a number that passes the
		// IBAN check is no invoice number.
		// A year alone is the period's ("Ihre Jahresabrechnung 2029").
		if m := invoiceNumRE.FindStringSubmatch(v); m != nil && !validIBAN(m[1]) && !notSeries[strings.Fields(m[1])[0]] && !yearRE.MatchString(m[1]) {
			b.Number = m[1]
			break
		}
	}
	if billPaid.Any(l) {
		b.Status = StatusPaid
	}
	if b.Due == nil && b.Amount != nil && b.Status == StatusDue {
		b.Due = c.dueAfterAmount(text, c.countryZone(""))
	}
	if b.Due == nil && b.Amount != nil && b.Status == StatusDue {
		b.Due = c.debitDate(text, c.countryZone(""))
	}
	// A bill needs its amount and something to tell it apart: a due date
	// or a number. A payment notice needs only the amount it paid.
	if b.Amount == nil || b.Due == nil && b.Number == "" && b.Status != StatusPaid {
		return Fact{}, false
	}
	if containsAny(l, "statement") && b.Due == nil {
		return Fact{}, false // a statement without a due date asks for nothing
	}
	return Fact{Kind: KindBill, From: FromText, Bill: b}, true
}

// The phrases of every language that say a mail is about a bill, that it
// was paid, that a payment failed, or that the amount will be taken from
// the payer's account (extract/lang).
var (
	// As sets, found in one pass: looked for in every mail's first lines
	// one phrase at a time, they were half of the extraction time of mail
	// that is no bill.
	billTopic     = words.NewSet(lang.Entries("bill.topic"))
	billPaid      = words.NewSet(lang.Entries("bill.paid"))
	paymentFailed = words.NewSet(lang.Entries("notice.payment_failed"))
	billDebit     = words.NewWholeSet(lang.Entries("bill.debit"))
)

// invoiceNumRE is an invoice number after its label: orderNumRE's form,
// or a series of capitals before the number ("FT 2027/118342", the
// Portuguese series-and-number form; "FAC 2027/220918").
var invoiceNumRE = regexp.MustCompile(`^[#:\s]*(?:(?:no|nr|n\.?[°º]?)\.?\s*)?((?:[A-Z]{1,4} )?[0-9][0-9\-/]{3,30}[0-9]|[A-Z0-9][A-Z0-9\-/]{2,30}[0-9])\b`)

// yearRE is a year alone.
var yearRE = regexp.MustCompile(`^(?:19|20)\d\d$`)

// notSeries are the capitals before a number that are no invoice series:
// a currency's code ("EUR 64,50" after an invoice label is an amount) and
// the abbreviations of "number".
var notSeries = map[string]bool{"EUR": true, "USD": true, "GBP": true, "CHF": true, "SEK": true, "NOK": true, "DKK": true,
	"PLN": true, "CZK": true, "HUF": true, "NR": true, "NO": true}

// dueAfterRE is a word that puts a date after an amount as the day it is
// due by ("£61.30 by 21 December", "89,99 zł do 20.12.2028", "450 kr
// senast 2028-12-28": due.after in extract/lang/data).
var dueAfterWords = words.NewWholeSet(lang.Entries("due.after"))

var dueAfterRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:` + strings.Join(longestFirst(lang.Entries("due.after")), "|") + `)[ \t]+`)

// dueAfterAmount is the date that follows an amount on its line after a
// word of dueAfterRE.
func (c *msgContext) dueAfterAmount(text string, z zoneHint) *Time {
	for ln := range strings.Lines(firstLines(text, 60)) {
		// The expressions only on a line with a digit and one of the
		// words: an invoice's lines are many.
		if !hasDigit(ln) || !dueAfterWords.In(strings.ToLower(ln)) {
			continue
		}
		m := moneyRE.FindStringIndex(ln)
		if m == nil {
			continue
		}
		rest := ln[m[1]:]
		w := dueAfterRE.FindStringIndex(rest)
		if w == nil || w[0] > 3 {
			continue
		}
		if ds := c.dates(rest[w[1]:]); len(ds) > 0 && ds[0].start == 0 {
			return resolve(at(ds[0].withYear(c.ref), nil), z, c.dateLoc)
		}
	}
	return nil
}

// debitDate is the day a direct debit takes a bill's amount, read from
// the sentence that says so: such a bill has no due-date label, and the
// day may stand before the verb ("wird am 06.04.2027 abgebucht", "We
// schrijven het bedrag rond 28-03-2027 af") or after it ("We'll collect
// this by Direct Debit on or just after 21 June 2027"). The sentence's
// line must hold one date, or, when it holds none, the line after it
// (a sentence wrapped in plain text).
func (c *msgContext) debitDate(text string, z zoneHint) *Time {
	lines := strings.Split(firstLines(text, 60), "\n")
	for i, ln := range lines {
		if !billDebit.In(strings.ToLower(ln)) {
			continue
		}
		ds := c.dates(ln)
		if len(ds) == 0 && i+1 < len(lines) {
			ds = c.dates(lines[i+1])
		}
		if len(ds) != 1 {
			continue
		}
		d := ds[0].withYear(c.ref)
		return resolve(at(d, nil), z, c.dateLoc)
	}
	return nil
}

var moneyRE = regexp.MustCompile(`(?i)(?:(€|\$|£|EUR|USD|GBP|CHF|CZK|SEK|DKK|NOK|PLN|HUF|RON|kr\.?|zł|INR|₹|Rs\.?)[ \t]{0,3}(-?\d{1,3}(?:[.,' \x{00a0}\x{202f}]\d{3})*(?:[.,]\d{1,2})?|-?\d+(?:[.,]\d{1,2})?)(?:\b|[^\d]|$))|(?:(-?\d{1,3}(?:[.,' \x{00a0}\x{202f}]\d{3})*(?:[.,]\d{1,2}|,-)?|-?\d+(?:[.,]\d{1,2})?)\s?(€|\$|£|EUR|USD|GBP|CHF|CZK|SEK|DKK|NOK|PLN|HUF|RON|INR|Kč|kr\.?|zł|Ft|lei|₹)(?:\b|$|[^\p{L}]))`)

// currencyWords are what moneyRE's currencies hold, lower case: a line
// with none of them is passed over before the expression runs.
var currencyWords = words.NewSet([]string{"€", "$", "£", "₹", "eur", "usd", "gbp", "chf", "czk", "sek", "dkk", "nok",
	"pln", "huf", "ron", "inr", "kr", "zł", "kč", "ft", "lei", "rs"})

var currencySymbols = map[string]string{"€": "EUR", "$": "USD", "£": "GBP", "kč": "CZK", "zł": "PLN", "ft": "HUF", "lei": "RON", "₹": "INR"}

// validIBAN reports whether s is an IBAN: two letters, two check digits
// and up to 30 letters and digits whose ISO 7064 mod 97 is 1.
func validIBAN(s string) bool {
	if len(s) < 15 || len(s) > 34 || !isUpper(s[:2]) || s[2]-'0' > 9 || s[3]-'0' > 9 {
		return false
	}
	r := 0
	for _, ch := range s[4:] + s[:4] {
		switch {
		case ch >= '0' && ch <= '9':
			r = (r*10 + int(ch-'0')) % 97
		case ch >= 'A' && ch <= 'Z':
			r = (r*100 + int(ch-'A'+10)) % 97
		default:
			return false
		}
	}
	return r == 1
}

// netPhrases say an amount is before tax, in every language (extract/lang).
var netPhrases = lang.Entries("amount.net")

// netAmount reports whether the text right after an amount label says the
// amount is before tax.
func netAmount(rest string) bool {
	l := strings.ToLower(strings.TrimLeft(rest, " \t(:"))
	for _, p := range netPhrases {
		if strings.HasPrefix(l, p) && !words.In(l, len(p), false) {
			return true
		}
	}
	return false
}

// rupee is the currency an "Rs" amount is in: the sender's country's
// rupee, India's when the country does not say.
func (c *msgContext) rupee() string {
	switch c.senderCountry {
	case "PK":
		return "PKR"
	case "LK":
		return "LKR"
	case "NP":
		return "NPR"
	case "MU":
		return "MUR"
	}
	return "INR"
}

// krona is the currency a "kr" amount is in: the sender's country's, else
// the language's; "" when neither tells.
func (c *msgContext) krona(text string) string {
	switch c.senderCountry {
	case "DK", "GL", "FO":
		return "DKK"
	case "NO":
		return "NOK"
	case "SE":
		return "SEK"
	case "IS":
		return "ISK"
	}
	switch lang.Detect(text) {
	case "da":
		return "DKK"
	case "nb":
		return "NOK"
	case "sv":
		return "SEK"
	}
	return ""
}

// labelledAmount finds the amount after an amount label.
func (c *msgContext) labelledAmount(text string) *Money {
	for _, v := range c.afterNext(amountLabels, text) {
		// The amount on the label's line, else alone on the next line.
		line, next, _ := strings.Cut(v, "\n")
		if netAmount(line) {
			continue // "Total HT", "Summe netto": before tax, not what is due
		}
		m := moneyRE.FindStringSubmatchIndex(line)
		if m == nil || m[0] > 30 {
			if m = moneyRE.FindStringSubmatchIndex(next); m == nil || m[0] != 0 || m[1] != len(next) {
				continue
			}
			v = next
		}
		if mo := c.moneyAt(v, m, text); mo != nil {
			return mo
		}
	}
	return nil
}

// moneyAt is the amount of moneyRE's match m in v, a piece of text.
func (c *msgContext) moneyAt(v string, m []int, text string) *Money {
	cur, num := "", ""
	if m[2] >= 0 {
		cur, num = v[m[2]:m[3]], v[m[4]:m[5]]
	} else {
		num, cur = v[m[6]:m[7]], v[m[8]:m[9]]
	}
	if sym, ok := currencySymbols[strings.ToLower(cur)]; ok {
		cur = sym
	} else if strings.EqualFold(strings.TrimSuffix(cur, "."), "kr") {
		cur = c.krona(text)
	} else if strings.EqualFold(strings.TrimSuffix(cur, "."), "rs") {
		cur = c.rupee()
	}
	num = strings.TrimSuffix(num, ",-") // "1.234,- Kč": whole crowns
	return money(strings.TrimPrefix(num, "-"), cur)
}

// sentenceAmount is the amount a bill's own sentence gives without a
// label ("Din faktura 55120931 på 349 kr förfaller den 28 januari 2030",
// "la bolletta n. 3001128 di 78,50 € scade il 25/01/2030"): the one
// amount of a line among the first that names the bill by a bill's
// word (bill.topic).
func (c *msgContext) sentenceAmount(text string) *Money {
	// The bill's words first, by the phrase automaton: most mail that
	// speaks of bills has many lines with digits and no amount on them.
	for ln := range strings.Lines(firstLines(text, 30)) {
		if !hasDigit(ln) {
			continue
		}
		if l := lowerLine(ln); !billTopic.Any(l) || !currencyWords.Any(l) {
			continue
		}
		ms := moneyRE.FindAllStringSubmatchIndex(ln, 2)
		if len(ms) != 1 || netAmount(ln) {
			continue
		}
		return c.moneyAt(ln, ms[0], text)
	}
	return nil
}
