package extract

import (
	"slices"
	"strings"
	"time"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
)

// Whether a text is shaped like a kind's booking when its words do not
// say so (flightShaped, legShaped, stackedShaped, stayShaped, ...):
// textFacts asks these before it chooses which readers to run.

// flightShaped reports whether a text whose words name no kind of travel
// ("Departing", "on board") is an itinerary all the same: two airports'
// codes in parentheses and a flight number on a line with one of them, or
// a flight number and two airports' codes on one line ("AY 1071 Helsinki
// HEL – Oslo OSL").
func flightShaped(text string) bool {
	if !mayHoldFlightNumber(text) {
		return false
	}
	// A route of two airports' codes and a flight number on its line or
	// on the line next to it ("Paris (CDG) - Nice (NCE)", then "AF 7700 |
	// mardi 15 février 2028 | …"); blank lines do not count.
	var filled []string
	for ln := range strings.Lines(text) {
		if strings.TrimSpace(ln) != "" {
			filled = append(filled, ln)
		}
	}
	hasNumber := func(ln string) bool {
		for _, m := range flightNumRE.FindAllStringSubmatch(ln, -1) {
			if isFlightDesignator(m[1]) {
				return true
			}
		}
		return false
	}
	for i, ln := range filled {
		// A number on a line of its own with an airport on each of the
		// two lines under it ("PD 2411", "Depart: Ottawa (YOW), …",
		// "Arrive: Halifax (YHZ), …").
		if i+2 < len(filled) && strings.IndexByte(filled[i+1], '(') >= 0 && mayHoldFlightNumber(ln) &&
			parenCode.MatchString(filled[i+1]) && hasNumber(ln) {
			a, b := airportCodes(filled[i+1]), airportCodes(filled[i+2])
			if len(a) == 1 && len(b) == 1 && a[0] != b[0] {
				return true
			}
		}
		// A card of stacked blocks under the number: two codes and two
		// clocks each on a line of their own.
		if card := filled[i+1 : min(len(filled), i+12)]; codeLines(card) >= 2 && mayHoldFlightNumber(ln) && hasNumber(ln) && stackedCard(card) {
			return true
		}
		// A route between two airports: apart by a dash or an arrow, in
		// parentheses ("Dublin (DUB) to Dubai (DXB)"), or each with its
		// clock ("Cairo CAI  10:15  Vienna VIE  13:40").
		// A route is a short line: a paragraph, or a printed page its
		// text extraction ran into one line ("… Verbindingsmof LS/OVL
		// kabel … (vrij van BTW) … NLO4 RABO …"), holds three capitals
		// and a letter-digit pair by chance (the longest route line of
		// the evaluation's mails is 165 bytes).
		if len(ln) > 300 {
			continue
		}
		dashed := strings.ContainsAny(ln, "-–—→>")
		if !dashed && strings.IndexByte(ln, '(') < 0 && strings.Count(ln, ":") < 2 {
			continue
		}
		var codes []string
		if hasCapitals(ln, 3) { // the expressions only where a code can be
			codes = airportCodes(ln)
		}
		if !dashed && len(codes) >= 2 && strings.IndexByte(ln, '(') < 0 && len(findClocks(ln)) < 2 {
			codes = nil
		}
		if len(codes) < 2 || codes[0] == codes[1] {
			// Or airports by names that each mean one ("LX 1071 Zürich
			// – Berlin Brandenburg").
			if dashed && hasNumber(ln) {
				if from, _ := namedRoute(ln); from != "" {
					return true
				}
			}
			continue
		}
		if hasNumber(ln) || i > 0 && hasNumber(filled[i-1]) || i+1 < len(filled) && hasNumber(filled[i+1]) {
			return true
		}
		// Or under the route's day ("DEPART SYD 9:05am ARRIVE MEL
		// 10:40am", "Mon 15 Mar 2027", "QF 419"): a short line without a
		// clock between.
		if i+2 < len(filled) && len(strings.Fields(filled[i+1])) <= 5 && findClocks(filled[i+1]) == nil && hasNumber(filled[i+2]) {
			return true
		}
		// An ICAO designator beside the two codes ("EZY 8211 Bristol
		// (BRS) dep 07:05 - Faro (FAO) arr 09:55").
		if m := icaoFlightRE.FindStringSubmatch(ln); m != nil && !places.Known(m[1]) {
			return true
		}
	}
	if knownParenCodes(text) < 2 {
		return false
	}
	for ln := range strings.Lines(text) {
		codes := airportCodes(ln)
		if len(codes) == 0 {
			continue
		}
		// "A3 602" is a sheet of paper unless the line names two airports.
		for _, m := range flightNumRE.FindAllStringSubmatch(ln, -1) {
			if isFlightDesignator(m[1]) || len(codes) >= 2 {
				return true
			}
		}
	}
	return false
}

// noFlightIn reports whether a text holds neither an airport's code in
// parentheses nor a flight number on a line with a word of flights.
func noFlightIn(text string) bool {
	if parenCode.MatchString(text) {
		return false
	}
	trainWords := -1
	for ln := range strings.Lines(text) {
		for _, m := range flightNumRE.FindAllStringSubmatch(ln, -1) {
			if isFlightDesignator(m[1]) && travelWordCounts(ln)[0] > 0 && !railProduct(m[1], text, &trainWords) {
				return false
			}
		}
	}
	return true
}

// mayHoldFlightNumber reports whether s has a capital letter followed by
// a capital letter or a digit, a space or none, then a digit: the shape
// of a flight number ("LH 1234", "U2 8042"), found by a byte scan before
// any expression runs over a mail that has none.
func mayHoldFlightNumber(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			continue
		}
		b := s[i+1]
		if !(b >= 'A' && b <= 'Z' || isDigitByte(b)) {
			continue
		}
		j := i + 2
		if s[j] == ' ' && j+1 < len(s) {
			j++
		}
		if isDigitByte(s[j]) {
			return true
		}
	}
	return false
}

// offerPrice is a price offered rather than paid: "from £9", "desde
// 19,90 €", "ab 29 €", "fra kr 1 290,-" (offer.from in extract/lang/data).
var offerPrice = newPhraseExpr(longestFirst(lang.Entries("offer.from")),
	`\s+(?:(?:[£€$]|(?:kr|eur|sek|nok|dkk|chf|pln|czk|gbp|usd)\b\.?)\s?\d|\d[\d.,]*\s?(?:€|eur\b|kr\b|zł|kč|chf\b|sek\b|nok\b|dkk\b|pln\b|czk\b|gbp\b|usd\b))`)

// legShaped reports whether a text whose words name no kind of travel
// holds a leg on one line all the same ("Leeds 07:45 -> York 08:12"), and
// no airport: a train's, named only by its operator. A bus's is made a
// bus leg by its words (travelFacts).
func legShaped(text string) bool {
	if parenCode.MatchString(text) {
		return false
	}
	for ln := range strings.Lines(text) {
		// Most mails have digits and no leg: the expression only on a line
		// with an arrow or dash and two clocks' worth of separators.
		if colonClocks(ln) < 2 && (!strings.ContainsAny(ln, "-–—→>") || strings.Count(ln, ":")+strings.Count(ln, ".")+strings.Count(ln, "h") < 2) {
			continue
		}
		if m := oneLineLegRE.FindStringSubmatch(strings.TrimSpace(ln)); m != nil && stationName(m[1]) != "" && stationName(m[3]) != "" {
			return true
		}
		if m := clockFirstLegRE.FindStringSubmatch(strings.TrimSpace(ln)); m != nil && !meridiemFirst(m[2]) && !meridiemFirst(m[4]) &&
			stationName(m[2]) != "" && stationName(m[4]) != "" {
			return true
		}
		if m := routeLine(strings.TrimSpace(ln)); m != nil && stationName(m[1]) != "" && stationName(m[2]) != "" {
			return true // "Glasgow Central to London Euston, dep 12:40, arr 17:12"
		}
		if connectionRowShaped(ln) {
			return true // "A-B, 15/10/2027, (AVE 5071), Salida A: 07:02, vía 1, Llegada B: 08:05"
		}
	}
	return stackedShaped(text)
}

// routeShaped reports whether a text is a journey by a route of two
// stations over its clocks, in a mail that names a booking and no
// airport's code: "Graz → Klagenfurt" over "Departure 09:10 · Arrival
// 11:55", whatever its words.
func (c *msgContext) routeShaped(text string) bool {
	return routeOverClocks(text) && !parenCode.MatchString(text) && c.bookingRef(text) != "" &&
		c.labelledLeg(strings.Split(text, "\n"), c.ref) != nil
}

// ticketShaped reports whether a text is a ticket by its labelled stops
// over its day and clock on the day's labelled line, in a mail that names
// a seat ("Origen: Monterrey Destino: Saltillo" / "Fecha: 03/09/2027
// Hora: 18:05" / "Asiento: 11"), whatever its words: labelledLeg reads
// it. A clock and a seat first, which most mail has not.
func (c *msgContext) ticketShaped(lowerAll, text string) bool {
	return colonClocks(text) > 0 && seatNamed(lowerAll) && c.labelledLeg(strings.Split(text, "\n"), c.ref) != nil
}

// routeOverClocks reports whether a line that is a pair of stations
// apart by an arrow, a dash or a word for "to" ("Graz → Klagenfurt") has two clocks on the
// next line that is not blank: a byte test, then the expression.
func routeOverClocks(text string) bool {
	if colonClocks(text) < 2 {
		return false // most mails: a byte scan says so
	}
	lines := strings.Split(text, "\n")
	for i, ln := range lines {
		if hasDigit(ln) {
			continue
		}
		arrow := strings.ContainsAny(ln, "-–—→")
		if !arrow && !strings.Contains(ln, " ") {
			continue
		}
		j := i + 1
		for j < len(lines) && j <= i+2 && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j >= len(lines) || colonClocks(lines[j]) != 2 {
			continue
		}
		// Or apart by a word for "to" ("London Victoria to Gatwick
		// Airport"): routeShaped still needs labelledLeg to read the
		// clocks by their markers.
		if t := strings.TrimSpace(ln); arrow && stationPairRE.MatchString(t) || townPairRE.MatchString(t) {
			return true
		}
	}
	return false
}

// stackedShaped reports whether a text that names a booking holds two
// stops that make a leg by stackedPair, laid out as a card's stacked
// blocks (stackedStops) or each on a line of its own ("07:30 Birmingham
// New Street" over "09:14 Bristol Temple Meads").
func stackedShaped(text string) bool {
	lines := strings.Split(text, "\n")
	bs := cardBlocks(lines)
	stacked := stackedStops(bs)
	var spans [][2]int
	var names []string
	for _, b := range bs {
		switch at, ok := stacked[b.line]; {
		case b.kind == 'P':
			spans, names = append(spans, [2]int{b.line, b.line}), append(names, b.name)
		case ok:
			spans, names = append(spans, [2]int{min(b.line, at.line), max(b.line, at.line)}), append(names, at.station)
		}
	}
	for i := 0; i+1 < len(spans); i++ {
		if stackedPair(lines, spans, i, names[i], names[i+1], nil) {
			return findReservation(text) != ""
		}
	}
	return false
}

// stayShaped reports whether a text gives a check-in and a check-out
// date by their labels, at least a night and at most two months apart (a
// journey's "Departure" comes before its "Arrival"), as a range under a
// stay's label, or after "Check in" spelt apart.
func (c *msgContext) stayShaped(text, lower string) bool {
	// A range of dates under a stay's label ("Dates: 18 Jun 2029 – 20
	// Jun 2029", stay.range's labelled forms), the labels' words first.
	if stayDashWords.Any(lower) && stayDashLine(firstLines(text, 60)) {
		if in, out := c.rangeDates(text, c.countryZone("")); in != nil && out != nil {
			return true
		}
	}
	if in, _ := c.spacedCheckDates(text); in != nil {
		return true
	}
	// A place to stay by its lodging word and a range of days in a
	// sentence ("Te esperamos en Hostal Sol Madrid del 27 al 29 de marzo",
	// "im Gasthof Adler vom 3. bis 5. Mai"): the lodging's word first.
	if lodgingWords.In(lower) {
		if head := firstLines(text, 40); lodgingName(head) != "" {
			if in, out := c.rangeDates(text, c.countryZone("")); in != nil && out != nil {
				return true
			}
		}
	}
	// Both labels' words, in one pass each, before any expression.
	if checkinLabels.anchorSet != nil && checkoutLabels.anchorSet != nil &&
		(!checkinLabels.anchorSet.Any(lower) || !checkoutLabels.anchorSet.Any(lower)) {
		return false
	}
	in := c.labelledDate(checkinLabels, text, c.countryZone(""))
	var out *Time
	if in != nil {
		out = c.labelledDate(checkoutLabels, text, c.countryZone(""))
	} else {
		// A table's header row that names both over a row of their dates
		// ("Arrival Date  Departure Date  Confirmation Number").
		in, out = c.columnDates(text, c.countryZone(""))
	}
	return in != nil && out != nil && out.After(in.Time) && out.Sub(in.Time) <= 60*24*time.Hour
}

// stopPairShaped reports whether a text holds a departure's stop line and
// the arrival's on the next line, each a station, its marker and a clock
// ("Reading dep 08:12", "Oxford arr 08:38"), or a row of two clocks under
// a header of departure and arrival, and no airport.
func stopPairShaped(text string) bool {
	// Most mails hold no two clocks at all: a byte scan says so, before
	// any expression runs.
	if stopClocks(text) < 2 || parenCode.MatchString(text) {
		return false
	}
	prevDep, prev := false, ""
	fromLabel, toLabel := false, false
	for ln := range strings.Lines(text) {
		if strings.TrimSpace(ln) == "" {
			continue
		}
		last := prev
		prev = ln
		clocks := stopClocks(ln)
		if clocks == 0 {
			prevDep = false
			// Stations by their labels ("Origen:", "Destino:"), the
			// clocks on lines of their own.
			if strings.IndexByte(ln, ':') > 0 {
				if a, _ := routeLabelPair(ln); a != "" {
					fromLabel, toLabel = true, true // "Strecke: A – B"
				}
				fromLabel = fromLabel || labelledStation(fromStationRE, ln)
				toLabel = toLabel || labelledStation(toStationRE, ln)
				if fromLabel && toLabel {
					return true
				}
			} else if a, _ := townPair(ln); a != "" {
				return true // "Edinburgh Waverley to Glasgow Queen Street"
			}
			continue
		}
		// A table's row under a header that names the departure and
		// the arrival ("Date From Dep To Arr").
		if clocks == 2 && !hasDigit(last) && depLabel.MatchString(last) && arrLabel.MatchString(last) {
			return true
		}
		// A row of each station with its marker before its clock ("Sofia
		// dep. 07:00  Plovdiv arr. 09:41").
		if clocks == 2 && markedRow(ln) {
			return true
		}
		// Stations by their labels with their clocks beside them
		// ("Stacja początkowa: Warszawa Zachodnia, godz. 06:48").
		if clocks == 1 && strings.IndexByte(ln, ':') > 0 {
			if cks := findClocks(ln); len(cks) == 1 {
				head := ln[:cks[0].start]
				fromLabel = fromLabel || labelledStation(fromStationRE, head)
				toLabel = toLabel || labelledStation(toStationRE, head)
				if fromLabel && toLabel {
					return true
				}
			}
		}
		dep, arr := stopLine(ln)
		if arr && prevDep {
			return true
		}
		prevDep = dep
	}
	return false
}

// stopClocks counts, up to 2, the clocks in s that the stop shapes read:
// colonClocks', then a dotted clock after a word for "at" a time ("klo
// 08.00", "kl. 7.05", "godz. 6.48"), as the Nordic languages and Polish
// write them (findClocks reads both).
func stopClocks(s string) int {
	n := colonClocks(s)
	for i := 1; n < 2 && i+2 < len(s); i++ {
		if s[i] != '.' || !isDigitByte(s[i-1]) || !isDigitByte(s[i+1]) || !isDigitByte(s[i+2]) ||
			i+3 < len(s) && (isDigitByte(s[i+3]) || s[i+3] == '.' && i+4 < len(s) && isDigitByte(s[i+4])) {
			continue // no clock's shape, or a date's ("12.11.2027")
		}
		h := i - 1
		if h > 0 && isDigitByte(s[h-1]) {
			h--
		}
		if oclockBefore(s[:h]) {
			n++
		}
		i += 2
	}
	return n
}

// oclockBefore reports whether s ends with a word for "at" a time and a
// space ("klo ", "kl. ", "godz. ").
func oclockBefore(s string) bool {
	t := strings.TrimRight(s, " ")
	if len(t) == len(s) {
		return false
	}
	t = strings.TrimSuffix(t, ".")
	for _, w := range oclockWords {
		if len(t) >= len(w) && strings.EqualFold(t[len(t)-len(w):], w) && (len(t) == len(w) || !isASCIILetter(t[len(t)-len(w)-1])) {
			return true
		}
	}
	return false
}

// colonClocks counts, up to 2, the places in s that look like a clock
// with a colon ("8:12", "10:32").
func colonClocks(s string) int {
	n := 0
	for i := 1; i+2 < len(s); i++ {
		if s[i] == ':' && isDigitByte(s[i-1]) && isDigitByte(s[i+1]) && isDigitByte(s[i+2]) {
			if n++; n == 2 {
				break
			}
			i += 2
		}
	}
	return n
}

// markedRow reports whether ln holds two stops, each a station and its
// marker before the clock ("IR 1581  Bucuresti Nord  dep. 06:15  Brasov
// arr. 08:52").
func markedRow(ln string) bool {
	cks := findClocks(ln)
	if len(cks) != 2 {
		return false
	}
	a, ok1 := depMarkers.ends(clockWord.ReplaceAllString(ln[:cks[0].start], ""))
	b, ok2 := arrMarkers.ends(clockWord.ReplaceAllString(ln[cks[0].end:cks[1].start], ""))
	return ok1 && ok2 && stationName(a) != "" && stationName(b) != ""
}

// labelledStation reports whether ln is a station after its label
// ("Origen: Madrid-Puerta de Atocha"); a quoted header's "From: Anna
// <anna@…>" is none.
func labelledStation(re *lazyregexp.Regexp, ln string) bool {
	m := re.FindStringSubmatch(strings.TrimRight(ln, "\r\n"))
	return m != nil && stationName(m[1]) != ""
}

// stopLine reports whether a line is one stop with its one clock, and
// whether its marker is a departure's or an arrival's.
func stopLine(ln string) (dep, arr bool) {
	if !hasDigit(ln) {
		return false, false
	}
	clocks := findClocks(ln)
	if len(clocks) != 1 {
		return false, false
	}
	before, after := ln[:clocks[0].start], ln[clocks[0].end:]
	if stationName(before) == "" && stationName(after) == "" {
		return false, false
	}
	return stopMarks(before)
}

// knownParenCodes counts the distinct known airports' codes in brackets
// among a text's first eight: "(LHR)" twice is one airport.
func knownParenCodes(text string) int {
	var codes []string
	for _, m := range parenCode.FindAllStringSubmatch(text, 8) {
		if places.Known(m[1]) && !slices.Contains(codes, m[1]) {
			codes = append(codes, m[1])
		}
	}
	return len(codes)
}
