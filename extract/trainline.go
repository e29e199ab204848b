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
)

// Train legs on one line or two: "Tåg 421  Stockholm C 07:12 - Göteborg
// C 10:19", a route line over its clocks, clocks before their stations,
// a range of stations ("Oslo S–Trondheim S") with each clock after its
// marker, a bare row of two stations and two clocks.

// routeLineRE is a leg on one line: from, "to", to, then its departure
// and arrival clocks ("…, dep 12:40, arr 17:12", "…, departing 07:22,
// arriving 10:50").
var routeLineRE = lazyregexp.New(`(?i)^(?:[^:]{0,40}:)?\s*(.{2,60}?)\s+(?:to|nach|naar|→|->|➞)\s+(.{2,60}?)[,;]?\s+(?:dep\.?|departs?|departing|ab)\s*(\d{1,2}:\d{2})[,;]?\s+(?:arr\.?|arrives?|arriving|an)\s*(\d{1,2}:\d{2})`)

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
	if strings.Contains(ln, ") ") {
		ln = shortToRE.ReplaceAllString(ln, "$1 → $2")
	}
	if ds := c.dates(ln); len(ds) > 0 && strings.TrimSpace(ln[:ds[0].start]) == "" {
		ln = ln[ds[0].end:]
	}
	m := oneLineLegRE.FindStringSubmatch(withoutSeatCells(withoutTrailingDate(ln, c.usSender())))
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
	head0 := head
	if n, rest := trainThenFrom(head); rest != "" {
		// "Tog R20 fra Oslo S kl. 07:45 til Halden kl. 09:31": the train
		// and a word for "from" before the station.
		head = rest
		number = cmp.Or(number, n)
	} else if ds := c.dates(head); len(ds) > 0 {
		// The day, then a word for "from" before the station ("Train 8924
		// on 07/09/2019 from Firenze SMN at 18:54 to …"): the station is
		// what follows the word, not the day. A short word ("de", "da")
		// right after the day is the marker too ("Train 6611 le 03/04 de
		// Paris Gare de Lyon (07:56) à …"); further on it is a name's.
		day := ds[len(ds)-1].end
		if k := firstWordMarker(head[day:], depMarkers); k >= 0 {
			head = head[day+k:]
		} else if k := lastLongMarker(head[day:], depMarkers); k >= 0 {
			head = head[day+k:]
		}
		// A brand and its number before the day ("Italo 8924 on 07/09
		// from …", "Northline 1290 on 21/06/2027 from …"): the number is
		// the train's.
		if number == "" {
			number = brandNumberBefore(head0[:ds[0].start])
		}
	}
	if f := strings.Fields(m[5]); len(f) > 0 && notService[strings.ToLower(strings.TrimRight(f[0], "."))] {
		m[5] = "" // "Wagen 12": a coach, not a train
	}
	if number == "" && m[5] != "" {
		// The service after the arrival: its number is its last word.
		// A service's short category goes with it ("(ag 84117)"); a
		// label does not ("| Train 9315").
		f := strings.Fields(m[5])
		number = f[len(f)-1]
		if t := trainNumRE.FindString(m[5]); t != "" {
			number = normaliseTrain(t)
		} else if t := trainLabel(m[5]); t != nil {
			number = t[1]
		} else if len(f) == 2 && utf8.RuneCountInString(f[0]) <= 4 {
			number = f[0] + " " + f[1]
		}
	}
	from, to := stationName(head), stationName(m[3])
	if len(dep) != 1 || len(arr) != 1 || from == "" || to == "" || isBus(number) {
		return nil
	}
	return c.railLeg(number, from, to, d, d, &dep[0], &arr[0])
}

// trainThenFrom reads s, the text before a leg's first clock, that
// opens with a word for a train and holds a word for "from" (departure's
// marker) after it: the code between them, if it is one, and the station
// after the marker. Without the train's word first, "de" and "da" are
// parts of names ("Paris Gare de Lyon").
func trainThenFrom(s string) (number, station string) {
	f := strings.Fields(s)
	if len(f) < 3 || !trainColumnRE.MatchString(lower(f[0])) {
		return "", ""
	}
	start := strings.Index(s, f[0]) + len(f[0])
	k := lastMarker(s, depMarkers)
	if k <= start {
		return "", ""
	}
	between := strings.Fields(s[start:k])
	if len(between) == 2 && hasDigit(between[0]) && len(between[0]) <= 8 {
		number = between[0]
	}
	return number, strings.TrimSpace(s[k:])
}

// lastLongMarker is lastMarker of the markers of three letters or more
// ("from", "von", "fra"): "de" and "da" are parts of names too.
func lastLongMarker(s string, m stopMarkers) int {
	at := -1
	for start, end := range letterRuns(s) {
		if end-start < 3 {
			continue
		}
		if _, ok := m[strings.ToLower(s[start:end])]; ok {
			at = end
		}
	}
	return at
}

// inlinePlatformRE is a platform right after a stop's clock.
var inlinePlatformRE = lazyregexp.New(`(?i)(\d[:.h]\d\d)\s+(?:` + platformWords + `|gl\.)\s*\d{1,2}[a-z]?\b`)

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
var bareRowRE = lazyregexp.New(`^\s*(\p{Lu}[^\d:]{1,50}?)\s+(\d{1,2}[:.]\d{2})\s+(\p{Lu}[^\d:]{1,50}?)\s+(\d{1,2}[:.]\d{2})\s*$`)

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
	ln = strings.TrimRight(ln[:d.start], " ,;–—-")
	// The date's weekday before it ("…, Freitag 18.01.2030", "| Thursday
	// 29 March 2029") goes with it.
	if i := strings.LastIndexAny(ln, " ,|"); i >= 0 && weekdayNames[strings.ToLower(strings.TrimRight(ln[i+1:], ".,"))] > 0 {
		ln = strings.TrimRight(ln[:i], " ,;|–—-")
	}
	return ln
}

// withoutSeatCells drops from a leg's line the cells apart by bars that
// name a coach, seat or platform ("| Coach 12 Seat 61 |", "| Coche 4
// Asiento 9A |"; seat.label in extract/lang): what is left
// after the arrival is the train, if any.
func withoutSeatCells(ln string) string {
	ln = withoutSeatTail(ln)
	if !strings.Contains(ln, " | ") {
		return ln
	}
	cells := strings.Split(ln, " | ")
	out := cells[:1]
	for _, c := range cells[1:] {
		if f := strings.Fields(c); len(f) > 0 && (notService[strings.ToLower(strings.TrimRight(f[0], ".:"))] || seatWords()[strings.ToLower(strings.TrimRight(f[0], ".:"))]) {
			continue
		}
		out = append(out, c)
	}
	return strings.Join(out, " | ")
}

// shortToRE is a word for "to" of one letter ("à", "a": arrival.marker
// in fr, es, it, pt) between a departure's clock in parentheses and the
// arrival's station in capitals ("… Paris Gare de Lyon (07:56) à
// Marseille St Charles (11:14)"): read as an arrow. Elsewhere the letter
// is too common a word to part two stops.
var shortToRE = lazyregexp.New(`(\d[:.h]\d\d\))[ \t]+(?:` + func() string {
	var out []string
	for _, w := range lang.Entries("arrival.marker") {
		if utf8.RuneCountInString(w) == 1 {
			out = append(out, regexp.QuoteMeta(w))
		}
	}
	return strings.Join(out, "|")
}() + `)[ \t]+(\p{Lu})`)

// withoutSeatTail drops from a leg's line the part after a dash that
// follows the arrival's clock and names the coach or seat anywhere in
// it ("… to Venezia ME (20:42) - Ambience Smart Coach 5 Seat 5", "… a
// Napoli Centrale (09:27) - Carrozza 6 Posto 9A").
func withoutSeatTail(ln string) string {
	i := max(strings.LastIndex(ln, " - "), strings.LastIndex(ln, " – "))
	if i < 0 {
		return ln
	}
	before := strings.TrimRight(ln[:i], " )")
	if len(before) < 4 || !isDigitByte(before[len(before)-1]) || len(findClocks(before[len(before)-5:])) == 0 {
		return ln
	}
	for _, w := range strings.Fields(ln[i:]) {
		w = strings.ToLower(strings.Trim(w, ".,:;"))
		if notService[w] || seatWords()[w] {
			return ln[:i]
		}
	}
	return ln
}

// clockFirstLegRE is a leg on one line with each clock before its
// station: "07:30 London Paddington → 09:02 Bristol Temple Meads", a
// label and its colon before it or a direction's heading
// ("Aller 07h04 Paris Gare de Lyon - 09h01 Lyon Part-Dieu").
var clockFirstLegRE = lazyregexp.New(`^\s*(?:[^:\d]{1,30}:\s*|(?i:` + strings.Join(longestFirst(append(lang.Entries("journey.outward"), lang.Entries("journey.return")...)), "|") + `)\s+)?(\d{1,2}[:.h]\d{2})\s+(\p{L}.*?)\s*(?:-|–|—|→|->|>)\s*(\d{1,2}[:.h]\d{2})\s+(\p{L}.*?)\s*$`)

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

// routeLabelRE is a route after its label, "Strecke: München Hbf –
// Salzburg Hbf", "Relacja: Wrocław Główny – Jelenia Góra" (route.label in
// extract/lang/data): the stations of the clocks that follow it.
var routeLabelRE = lazyregexp.New(`(?i)^[\s*]*(?:` + strings.Join(longestFirst(lang.Entries("route.label")), "|") + `)\s*:\s*(\S.*)$`)

// routeLabelPair reads the stations of a route label's line, or "", "".
func routeLabelPair(ln string) (string, string) {
	m := routeLabelRE.FindStringSubmatch(strings.TrimSpace(ln))
	if m == nil {
		return "", ""
	}
	p := stationPairRE.FindStringSubmatch(strings.TrimSpace(m[1]))
	if p == nil {
		// Or by a word for "to" ("Journey: Easthaven to Port Halden"):
		// after a route's own label, two names are its stops, unless
		// they are days or months ("Trip: Monday to Friday").
		p = townPairRE.FindStringSubmatch(strings.TrimSpace(m[1]))
		if p == nil || calendarFirst(p[1]) || calendarFirst(p[2]) {
			return "", ""
		}
	}
	a, b := stationName(p[1]), stationName(p[2])
	if a == "" || b == "" || regionAbbrev(a) || regionAbbrev(b) {
		return "", ""
	}
	return a, b
}

// calendarFirst reports whether s starts with a weekday's or a month's
// name.
func calendarFirst(s string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return calendarWord(w)
}

// fromRoute reads a route written whole after the departure's label, in
// any language of station.from ("From: Kochi → Trivandrum", "From: Prague
// to Vienna", "Von: Wien Hbf nach Graz Hbf"): the two stops, or "", "".
// An arrow says a route; a dash or a word for "to" between two names
// does only with a town the places data knows on one side ("From: Alice
// Smith - Acme" is a forward's sender, "From: Monday to Friday" days).
func fromRoute(ln string) (string, string) {
	if !strings.Contains(ln, ":") || hasDigit(ln) || strings.ContainsAny(ln, "@<") {
		return "", ""
	}
	m := fromStationRE.FindStringSubmatch(strings.TrimSpace(ln))
	if m == nil {
		return "", ""
	}
	v := strings.TrimSpace(m[1])
	p := stationPairRE.FindStringSubmatch(v)
	arrow := p != nil && strings.ContainsAny(v, "→>")
	if p == nil {
		p = townPairRE.FindStringSubmatch(v)
	}
	if p == nil {
		return "", ""
	}
	a, b := stationName(p[1]), stationName(p[2])
	if a == "" || b == "" || strings.EqualFold(a, b) || !arrow && !knownTown(a) && !knownTown(b) || regionAbbrev(a) || regionAbbrev(b) {
		return "", ""
	}
	return a, b
}

// regionAbbrev reports whether a route's stop is two capitals alone: a
// state's or a province's abbreviation after its town ("Origem: SALVADOR
// - BA" is one stop in Bahia), no stop of its own.
func regionAbbrev(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

// stationPairRE is a route alone on its line: two stations apart by a
// dash or an arrow ("Montréal - Toronto", "Köln Hbf → Bonn Hbf"); an en
// dash or an arrow needs no spaces ("Oslo S–Trondheim S"), a hyphen does
// ("Hamburg-Altona" is one station).
// A hyphen inside a word is part of the name ("Bruxelles-Midi → Köln
// Hbf").
var stationPairRE = lazyregexp.New(`^(\p{Lu}(?:[^-–→>:|]|-[^\s>-]){1,60}?)(?:\s+(?:-|–|—|→|->|>)\s+|\s*[–—→]\s*)(\p{Lu}(?:[^-–→>:|]|-[^\s>-]){1,60})$`)

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
	after := ln[clocks[1].end:]
	if strings.IndexByte(after, 'm') >= 0 {
		after = durationRE.ReplaceAllString(after, "") // "07:45 → 10:12 (2h 27m)"
	}
	cells := cellSplitRE.Split(after, -1)
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
		if p != nil || strings.TrimSpace(after) != "" {
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

// toInlineRE is an arrival station's label after the departure's on the
// same line, apart by spaces (station.to, of two letters and more).
var toInlineRE = func() *lazyregexp.Regexp {
	var alts []string
	for _, e := range lang.Entries("station.to") {
		if utf8.RuneCountInString(e) >= 2 {
			alts = append(alts, e)
		}
	}
	return lazyregexp.New(`(?i)\s+(?:` + strings.Join(longestFirst(alts), "|") + `)\s*:\s*(\S.*)$`)
}()

// townPairRE is a route alone on its line with a word for "to" between
// the stations ("Edinburgh Waverley to Glasgow Queen Street").
var townPairRE = lazyregexp.New(`^(\p{Lu}[^:|]{1,60}?)\s+(?i:` + toWords() + `)\s+(\p{Lu}[^:|]{1,60})$`)

// looseTownPair reads a line of townPairRE's shape whose two stations are
// places' names, each word capitalised, one of them in a town the places
// data knows ("London Victoria to Gatwick Airport"): a route only beside
// clocks by their markers, never alone ("Welcome to London").
func looseTownPair(ln string) (string, string) {
	m := townPairRE.FindStringSubmatch(strings.TrimSpace(ln))
	if m == nil {
		return "", ""
	}
	a, b := stationName(m[1]), stationName(m[2])
	if a == "" || b == "" || !properName(a) || !properName(b) || !knownTown(a) && !knownTown(b) {
		return "", ""
	}
	return a, b
}

// codePairRE is a route of two stations' codes with a word for "to"
// between them, as a text message writes it: "NDLS TO FDB".
var codePairRE = lazyregexp.New(`^(\p{Lu}{2,5})\s+(?i:` + toWords() + `)\s+(\p{Lu}{2,5})$`)

// codePair reads a line of codePairRE's shape: a route only beside a
// labelled train and its clock, never alone.
func codePair(ln string) (string, string) {
	m := codePairRE.FindStringSubmatch(strings.TrimSpace(ln))
	if m == nil || m[1] == m[2] {
		return "", ""
	}
	return m[1], m[2]
}

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
