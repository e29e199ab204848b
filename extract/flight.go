package extract

import (
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
	"mailnode/extract/words"
)

// Flights from text (textFlights): a flight number and the window of
// lines around it read for its airports, clocks and date
// (flightFromWindow); flights laid out as a card of stacked blocks
// (stackedFlight); several flights on one line. Booking systems' rows are
// gds.go's, airports' names and codes place.go's.

var (
	// Flight numbers: airline designator (two characters, not both
	// digits) and one to four digits. "LH 400", "4U8462", "U2 1234".
	flightNumRE = lazyregexp.New(`\b([A-Z][A-Z0-9]|[0-9][A-Z])\s?(\d{1,4})\b`)
	// icaoFlightRE is a flight number under the airline's ICAO
	// designator, three letters ("TOM2456").
	icaoFlightRE = lazyregexp.New(`\b([A-Z]{3})\s?(\d{1,4})\b`)
)

// hit is a flight's number (num) found on line line of a text.
type hit struct {
	line int
	num  string
}

// textFlights finds flight segments: a flight number, and near it (same
// line or the next lines, up to the next flight number) two places and a
// departure time.
func (c *msgContext) textFlights(text string) []Fact {
	lines := hyphenedNumbers(codesRouteOverClocks(legCells(meridiemCells(sideBySideCards(splitFlightsOnLine(strings.Split(text, "\n")))))))
	ref := c.recordLocator(text)
	var out []Fact
	seen := map[string]int{} // a number and day's index in out, plus one
	// add keeps seg under the booking reference ref, once a number and day.
	add := func(seg *Segment, ref string) {
		seg.Reservation = ref
		key := seg.Number + seg.Depart.Format("2006-01-02")
		if i := seen[key]; i > 0 {
			// A schedule change prints the old segment ("UN1", "HX1")
			// over the new one ("TK1"): the flight is the one that flies.
			if out[i-1].Segment.Status == StatusCancelled && seg.Status != StatusCancelled {
				out[i-1].Segment = seg
			}
			return
		}
		out = append(out, Fact{Kind: KindFlight, From: FromText, Segment: seg})
		seen[key] = len(out)
	}
	// Booking systems' printouts: one flight per line, and every field
	// in its column.
	rowLine := map[int]bool{}
	// A printout's segments are known to the airline by its own record
	// locator, when the printout names one beside the agency's.
	gdsRef := ref
	if l := gdsAirlineLocator(text); l != "" {
		gdsRef = l
	}
	for i, ln := range lines {
		seg := c.gdsRow(ln)
		if seg == nil && i+1 < len(lines) {
			// The times on the line under the row, under their airports
			// ("DEP 0715   ARR 0735").
			if times := gdsTimesLineRE.FindStringSubmatch(lines[i+1]); times != nil {
				if seg = c.gdsRow(strings.TrimRight(ln, " ") + "   " + times[1] + " " + times[2] + times[3]); seg != nil {
					rowLine[i+1] = true
				}
			}
		}
		if seg != nil {
			rowLine[i] = true
			add(seg, gdsRef)
		}
	}
	// Their other shapes: an e-ticket receipt's two lines a flight, rows
	// under a heading with their date, blocks of a flight, its departure
	// line and its arrival line.
	gdsMore := c.gdsReceiptRows(lines, rowLine)
	gdsMore = append(gdsMore, c.gdsUndatedRows(lines, rowLine)...)
	gdsMore = append(gdsMore, c.receiptNameRows(lines, rowLine)...)
	gdsMore = append(gdsMore, c.checkInFirstRows(lines, rowLine)...)
	gdsMore = append(gdsMore, c.checkInColumnRows(lines, rowLine)...)
	for _, seg := range append(gdsMore, c.gdsBlocks(lines, rowLine)...) {
		add(seg, gdsRef)
	}
	// Tables whose header names each column (issue 46 class 2); their
	// lines are blanked for the readers below, which would take a row's
	// cells for another flight's.
	tabled, tableLines := c.tableFlights(lines, rowLine)
	for _, i := range tableLines {
		lines[i] = ""
	}
	for _, seg := range tabled {
		add(seg, ref)
	}
	// Whether the mail is a booking's, asked once by the readers below:
	// a stranger's mail of thousands of "Flight" / "#12" lines asked it
	// of the whole text a line (the fifteenth outside review, HIGH-6).
	booked := -1
	isBooked := func() bool {
		if booked < 0 {
			booked = 0
			if ref != "" || c.bookingSigned(text) {
				booked = 1
			}
		}
		return booked == 1
	}
	c.flightRef = ref
	defer func() { c.flightRef = "" }()
	// A departure's and an arrival's cells side by side, a row each of
	// their dates, clocks and places (flightpairs.go).
	paired, pairLines := c.pairedFlights(lines, rowLine)
	for _, i := range pairLines {
		lines[i] = ""
	}
	// A flight tracker's alert and a forwarded timetable are laid out so
	// too: no booking's sign, no flight (the ninth outside review).
	if len(paired) > 0 && !isBooked() {
		paired = nil
	}
	for _, seg := range paired {
		add(seg, ref)
	}
	// Stops stacked as lines of their own, each a date and clock over its
	// airport, the number under the leg's departure or above it
	// (flightstops.go): the numbers' lines are no other reader's.
	stacked, numLines := c.stopFlights(lines, rowLine, false)
	for _, i := range numLines {
		rowLine[i] = true
	}
	// A newsletter's featured arrivals and a friend's options are stacked
	// so too: no booking's sign, no flight.
	if len(stacked) > 0 && !isBooked() {
		stacked = nil
	}
	for _, seg := range stacked {
		add(seg, ref)
	}
	// A flight a line, each city with its clock in parentheses
	// (flightrow.go), under the same sign of a booking.
	if rows, rowLines := c.routeRowFlights(lines, rowLine); len(rows) > 0 && isBooked() {
		for _, i := range rowLines {
			rowLine[i] = true
		}
		for _, seg := range rows {
			add(seg, ref)
		}
	}
	var hits []hit
	trainWords := -1 // the mail's train words, counted once when asked
	trainOnly := -1  // whether the mail has train words and no flight words, once asked
	trainMail := func() bool {
		if trainOnly < 0 {
			trainOnly = 0
			if trainWordsOnly(text) {
				trainOnly = 1
			}
		}
		return trainOnly == 1
	}
	airline := "?" // the designator of the airline the mail is from, once asked
	for i, ln := range lines {
		if len(hits) == maxFlightNumbers {
			break
		}
		if rowLine[i] {
			continue
		}
		// An airline's three-letter ICAO designator ("Outbound flight
		// TOM2456", "EZY8042") where the line itself speaks of a flight
		// or names two airports, and no two-character one is on it.
		nums := flightNumRE.FindAllStringSubmatchIndex(ln, -1)
		if len(nums) == 0 {
			// Or alone on its line under a route by names or a heading of
			// flights ("London Gatwick (North Terminal) to Nice", then
			// "EZY8042").
			if m := icaoFlight(ln, c.dates(ln)); m != nil && !masked(m[0]) && !railProduct(m[1], text, &trainWords) && (travelWordCounts(ln)[0] > 0 || len(airportCodes(ln)) >= 2 ||
				strings.TrimSpace(ln) == m[0] && (aboutFlights(lines, i) || i > 0 && routeAbove(lines[i-1]))) {
				hits = append(hits, hit{i, m[1] + " " + strings.TrimLeft(m[2], "0")})
			} else if d := flightWordCell(lines, i); d != "" {
				// "Flight", then "#3073" in the cell under it.
				if airline == "?" {
					airline = c.airlineDesignator(lines)
				}
				if airline != "" && isBooked() {
					hits = append(hits, hit{i, airline + " " + d})
				}
			} else if hasDigit(ln) {
				// "UNITED 1187", "Frontier Airlines flight #1129": the
				// airline by its name (flightnamed.go); "Flight 417"
				// alone by the mail's airline.
				if airline == "?" {
					airline = c.airlineDesignator(lines)
				}
				// A weaker sign than a designator: only in a booking's
				// mail ("WESTJET 665" in a status match's offer is none).
				n := namedFlightNumber(ln, airline)
				// Of two digits at least: "Flight 1" heads the first leg.
				d := flightWordNumber(ln)
				if d == "" && n == "" && airline != "" {
					d = c.flightWordHead(ln)
				}
				if n == "" && len(d) >= 2 && airline != "" {
					n = airline + " " + d // "Flight #417" alone in Spirit's mail
				}
				if n != "" && isBooked() {
					hits = append(hits, hit{i, n})
				}
			}
			continue
		}
		for _, m := range nums {
			// "T3 08:00" is a terminal and a clock: digits that are a
			// clock's hour are no flight's.
			if rest := ln[m[5]:]; len(rest) > 2 && rest[0] == ':' && isDigitByte(rest[1]) {
				continue
			}
			// "MHTWNLAX YL 299.00": a fare calculation's fare basis and
			// its amount, not a flight YL 299.
			if centsAfter(ln[m[5]:]) {
				continue
			}
			// "Gate B24" is where the flight boards, not a flight B2 4
			// (gate.label in extract/lang: "Flugsteig", "porte").
			if gateBefore(ln, m[0]) {
				continue
			}
			// "Aircraft: Airbus A320" is the plane, not a flight A3 20.
			if aircraftBefore(ln[:m[0]]) {
				continue
			}
			// "A3 601" is a sheet of paper and "OK 770" an answer,
			// unless the line or the next speaks of flights ("Aegean
			// Airlines A3 601"; "Let OK 770", then "Odlet: … (PRG)").
			if !isFlightDesignator(ln[m[2]:m[3]]) && !aboutFlights(lines, i) && len(airportCodes(ln)) < 2 {
				continue
			}
			// "der RE 22 zum Flughafen": a rail product's number in a
			// mail that speaks of trains is a train to the airport.
			if railProduct(ln[m[2]:m[3]], text, &trainWords) {
				continue
			}
			// "12618 / MNGLA LKSDP EXP AC 3 TIER (3A)": a train's class
			// in a railway's ticket, whose every word is a train's and
			// none a flight's, is no Air Canada flight; a route by two
			// airports' codes still is one.
			if len(airportCodes(ln)) < 2 && trainMail() {
				continue
			}
			// "Operated by Norra. Also sold as SK 5711": the same
			// flight under another number, not a flight of its own.
			if codeshareAt(ln, m[0]) {
				break
			}
			hits = append(hits, hit{i, ln[m[2]:m[3]] + " " + strings.TrimLeft(ln[m[4]:m[5]], "0")})
			break
		}
	}
	routeFirst := c.numbersUnderRoutes(lines, hits)
	codesAbove := routesJustAbove(lines, hits)
	read := 0 // where the lines a flight was read from below its number end
	for hi, h := range hits {
		end := len(lines)
		if hi+1 < len(hits) {
			end = hits[hi+1].line
			if codesAbove != nil {
				end = codesAbove[hi+1]
			}
		}
		next := end // the next flight's line
		end = min(end, h.line+10)
		begin := h.line
		// A heading line with the date may come just before the number
		// (blank lines between: paragraphs of HTML).
		prev := h.line - 1
		for prev >= 0 && prev > h.line-3 && strings.TrimSpace(lines[prev]) == "" {
			prev--
		}
		if prev >= 0 && (hi == 0 || prev > hits[hi-1].line) && len(c.dates(lines[prev])) > 0 &&
			findClocks(lines[prev]) == nil { // a time: the last leg's arrival, not a heading
			begin = prev
		} else if prev >= 0 && (hi == 0 || prev > hits[hi-1].line) && findClocks(lines[prev]) == nil {
			// The route by its cities just above the number, the days and
			// clocks below it ("Delhi (T1D) Srinagar (T1)", "SG 272",
			// "Sun Oct. 02, 2022 9:50 Hrs Sun Oct. 02, 2022 11:20 Hrs").
			if from, _ := terminalsRoute(lines[prev]); from != "" {
				begin = prev
			} else if from, _ := namedRoute(lines[prev]); from != "" {
				begin = prev
			}
		}
		if codesAbove != nil {
			begin = codesAbove[hi]
		}
		var seg *Segment
		if !routeFirst {
			seg = c.flightFromWindow(strings.Join(lines[begin:end], "\n"), lines, begin)
		}
		if seg != nil {
			read = end
			if seg.Arrive == nil && next > end {
				// The arrival's line below ten lines of which blank lines
				// are many ("Partida 08SEP 08:50 Lisboa (LIS)", three
				// blank lines and "Departure", "Chegada 08SEP 16:20
				// Luanda (LAD)": a PDF's table of two languages): ten
				// lines of text, when they read the same departure.
				if tail := textLinesEnd(lines, h.line, next, 10); tail > end {
					if more := c.flightFromWindow(strings.Join(lines[begin:tail], "\n"), lines, begin); more != nil && more.Arrive != nil &&
						more.Depart.Equal(seg.Depart.Time) && more.From.Code == seg.From.Code {
						seg, read = more, tail
					}
				}
			}
		}
		if seg == nil {
			// Some senders print the route first and the number under it;
			// never the lines the flight above was read from, which are
			// that flight's ("FR 8354", its airports and clocks, then
			// "FR 8355" with none under it).
			from := max(0, h.line-10, read)
			if hi > 0 {
				from = max(from, hits[hi-1].line+1)
			}
			// Nor a bus's or a train's stops above a sentence that names
			// the connecting flight ("Coach: Express Bus 1469", its
			// stops, then "Your connecting flight LH 400 leaves from
			// Terminal 1"): an airline's coach to the airport.
			if from <= h.line && !surfaceVehicleIn(lines[from:h.line]) {
				win := strings.Join(lines[from:h.line+1], "\n")
				// Under the flight above's number, the lines above are
				// that flight's: its day is not this one's ("DEPART SIN
				// 9:30am …", "Fri 14 May 2027", "DL 7811" under "Wed 12
				// May 2027", "DL 7"). Only when the window has no day of
				// its own, a heading above both.
				if hi > 0 {
					seg = c.flightFromWindow(win, lines[from:], 0)
				}
				if seg == nil {
					seg = c.flightFromWindow(win, lines, from)
				}
				if seg == nil && routeFirst && ref != "" {
					// A block of parts that ends in its number, in any
					// order no window reads.
					floor := 0
					if hi > 0 {
						floor = hits[hi-1].line + 1
					}
					seg = c.flightFromParts(lines, from, h.line+1, floor, true)
				}
			}
		}
		if routeFirst && seg == nil {
			continue // the lines below are the next flight's
		}
		if seg == nil && next > end {
			// Neither ten lines below nor the route above: ten lines of
			// text, as an HTML table's flattened rows have blank lines
			// between them.
			if tail := textLinesEnd(lines, h.line, next, 10); tail > end {
				seg = c.flightFromWindow(strings.Join(lines[begin:tail], "\n"), lines, begin)
			}
		}
		if seg == nil {
			seg = c.stackedFlight(lines, begin, h.line, next)
		}
		if seg == nil {
			continue
		}
		seg.Number, seg.Reservation = h.num, ref
		key := seg.Number + seg.Depart.Format("2006-01-02")
		if seen[key] > 0 {
			continue
		}
		out = append(out, Fact{Kind: KindFlight, From: FromText, Segment: seg})
		seen[key] = len(out)
	}
	// A booking's numbers that no layout's reader read, beside those
	// they read or alone (a receipt's second row wrapped otherwise than
	// its first): their flights by their parts (flightparts.go). Only
	// under the booking's code, or on a boarding pass: the signs of a
	// booking in words ("your flight", "confirmed") are a newsletter's
	// too (the fourteenth outside review, MEDIUM-7).
	if len(hits) > len(out) && (ref != "" || boardingPassWords.In(lower(text))) {
		read := map[string]*Segment{}
		for _, f := range out {
			read[f.Segment.Number] = f.Segment
		}
		for _, seg := range c.partsFlights(lines, hits, ref, read) {
			if read[seg.Number] == nil {
				add(seg, ref)
			}
		}
	}
	cancelLegs(lines, hits, out)
	legLocators(lines, hits, out)
	return out
}

// legLocators gives each leg the record locator printed beside it, when
// a booking on several airlines prints one a leg ("PNR  F28BXH" under
// IndiGo's flight, "PNR  6URFE3" under Air India's, in an agency's
// e-ticket): each airline knows its leg by its own. Only when the
// labelled locators and the legs' numbers alternate one for one, in
// either order; else every leg keeps the mail's one code.
func legLocators(lines []string, hits []hit, out []Fact) {
	if len(out) < 2 {
		return
	}
	codes := map[string]bool{}
	for _, code := range reservationCodes(strings.Join(lines, "\n")) {
		if locatorShaped(code) {
			codes[code] = true
		}
	}
	if len(codes) < 2 {
		return // most mails: one booking's code, or none
	}
	type mark struct {
		line int
		code string // "" for a leg's number
		leg  int
	}
	var marks []mark
	for i, ln := range lines {
		next := ""
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		for _, code := range reservationCodes(ln + "\n" + next) {
			if codes[code] && strings.Contains(ln, code) || codes[code] && strings.TrimSpace(next) == code {
				marks = append(marks, mark{line: i, code: code})
				break
			}
		}
	}
	pnrs := len(marks)
	for k, f := range out {
		at := -1
		for _, h := range hits {
			if h.num == f.Segment.Number {
				at = h.line
				break
			}
		}
		if at < 0 {
			return // a leg whose number's line is not known
		}
		marks = append(marks, mark{line: at, leg: k})
	}
	if pnrs != len(out) {
		return
	}
	slices.SortStableFunc(marks, func(a, b mark) int { return a.line - b.line })
	// Locator, leg, locator, leg … or leg, locator, leg, locator …: each
	// pair one of each, the locators all first or all second.
	codeFirst := marks[0].code != ""
	given := make([]string, len(out))
	for i := 0; i+1 < len(marks); i += 2 {
		pnr, leg := marks[i], marks[i+1]
		if !codeFirst {
			pnr, leg = leg, pnr
		}
		if pnr.code == "" || leg.code != "" {
			return
		}
		given[leg.leg] = pnr.code
	}
	for k, code := range given {
		out[k].Segment.Reservation = code
	}
}

// locatorShaped reports whether code has a record locator's shape: six
// capitals and digits.
func locatorShaped(code string) bool {
	if len(code) != 6 {
		return false
	}
	for i := range len(code) {
		if b := code[i]; !(b >= 'A' && b <= 'Z' || isDigitByte(b)) {
			return false
		}
	}
	return true
}

// surfaceVehicleRE is a bus's, coach's or train's word with its number
// after it on one line ("Coach: Express Bus 1469", "Zug ICE 723"): the
// words of vehicle.bus, vehicle.coach and vehicle.train in extract/lang.
var surfaceVehicleRE = lazyregexp.New(`(?i)(?:^|[^\pL])(?:` +
	vehicleWords("vehicle.bus", "vehicle.coach", "vehicle.train") +
	`)[^\pL\d\n]{1,3}(?:\pL+[^\pL\d\n]{1,3}){0,2}\d{1,5}(?:[^\d]|$)`)

// vehicleWords are the categories' words in every language as an
// expression's alternatives, each once, the longest first.
func vehicleWords(categories ...string) string {
	var alts []string
	for _, c := range categories {
		for _, w := range lang.Entries(c) {
			if q := regexp.QuoteMeta(w); !slices.Contains(alts, q) {
				alts = append(alts, q)
			}
		}
	}
	return strings.Join(longestFirst(alts), "|")
}

// surfaceVehicleIn reports whether one of lines names a bus, coach or
// train with its number.
func surfaceVehicleIn(lines []string) bool {
	for _, ln := range lines {
		if len(ln) < 400 && surfaceVehicleRE.MatchString(ln) {
			return true
		}
	}
	return false
}

// numbersUnderRoutes reports whether a mail prints each flight's route
// first and its number under it, for every flight: the first number has
// a flight's route and times above it and the last has none below it
// ("Berlin, Tegel Airport", "Fri, 03 Feb 2017, 18:25", "Brussels
// Airport", "… 19:45", "SN 2588", then the return's blocks and "SN
// 2591"). Read top down, each number but the last would take the next
// flight's route.
func (c *msgContext) numbersUnderRoutes(lines []string, hits []hit) bool {
	if len(hits) < 2 {
		return false
	}
	first, last := hits[0], hits[len(hits)-1]
	above := max(0, first.line-8)
	if c.flightFromWindow(strings.Join(lines[above:first.line+1], "\n"), lines, above) == nil &&
		(c.flightRef == "" || c.flightFromParts(lines, above, first.line+1, 0, true) == nil) {
		// Nor the parts of a block that ends in its number: a heading,
		// the route, the day and clocks, then "CM-158" (an agency's
		// ticket of a block a leg, each under the column heading). By
		// its parts only in a mail that names its booking, as
		// partsFlights: a fare newsletter's rows have every part too.
		return false
	}
	below := min(len(lines), last.line+10)
	return c.flightFromWindow(strings.Join(lines[last.line:below], "\n"), lines, last.line) == nil
}

// flightWordCell is the number of a flight whose word is a cell of its
// own over the number's ("Flight", then "#3073"), as a card of HTML cells
// prints it; "" for any other line i. Only a number after "#" and of two
// digits at least: "Flight #" over "1620" is a passenger's table's
// heading, and "Flight" over "1" a leg's.
func flightWordCell(lines []string, i int) string {
	ln := strings.TrimSpace(lines[i])
	if len(ln) < 3 || len(ln) > 12 || !flightColumnWords[strings.ToLower(strings.TrimSuffix(ln, ":"))] {
		return ""
	}
	for j := i + 1; j < len(lines) && j <= i+3; j++ {
		v := strings.TrimSpace(lines[j])
		if v == "" {
			continue
		}
		if m := flightCellNumberRE.FindStringSubmatch(v); m != nil {
			return strings.TrimLeft(m[1], "0")
		}
		break
	}
	return headedCellNumber(lines, i)
}

// headedCellNumber reads a card's row of headings, each a cell of its own
// line, over its row of values, as many ("FLIGHT", "TERMINAL", then "360",
// "E"): the value in the place of the flight's heading on line i, when it
// is a number of two digits to four; else "". A bare number counts only
// so: a row of headings of the flight's columns (column.flight,
// column.other) and a value for each is a table, not a leg's "Flight"
// over "1".
func headedCellNumber(lines []string, i int) string {
	cell := func(j int) string {
		return strings.ToLower(strings.TrimSuffix(strings.TrimSpace(lines[j]), ":"))
	}
	heading := func(v string) bool { return flightColumnWords[v] || otherColumnWords[v] }
	// The run of headings around line i, blank lines left out.
	var heads []int
	for j := i - 1; j >= 0 && j >= i-5; j-- {
		if v := cell(j); v != "" {
			if !heading(v) {
				break
			}
			heads = append([]int{j}, heads...)
		}
	}
	at := len(heads) // the flight's place in the row
	j := i
	for ; j < len(lines) && len(heads) < 6; j++ {
		if v := cell(j); v != "" {
			if !heading(v) {
				break
			}
			heads = append(heads, j)
		}
	}
	if len(heads) < 2 {
		return ""
	}
	var values []string
	for ; j < len(lines) && len(values) < len(heads); j++ {
		v := strings.TrimSpace(lines[j])
		if v == "" {
			continue
		}
		if len(v) > 16 || heading(cell(j)) {
			return ""
		}
		values = append(values, v)
	}
	if len(values) < len(heads) || at >= len(values) {
		return ""
	}
	if m := flightBareNumberRE.FindStringSubmatch(values[at]); m != nil {
		return strings.TrimLeft(m[1], "0")
	}
	return ""
}

var flightBareNumberRE = lazyregexp.New(`^#?\s?(\d{2,4})$`)

var flightCellNumberRE = lazyregexp.New(`^#\s?(\d{2,4})$`)

// routesJustAbove is, for a mail whose every flight number has its two
// airports' codes on the lines just above it (blank lines between), the
// line each flight's codes begin on; else nil. Such a card ("RDU", "BOS",
// "Flight 1184", its days and clocks) ends where the next flight's codes
// begin: read down to the next number, each flight would take the next
// one's route.
func routesJustAbove(lines []string, hits []hit) []int {
	if len(hits) < 2 {
		return nil
	}
	starts := make([]int, len(hits))
	for hi, h := range hits {
		floor := 0
		if hi > 0 {
			floor = hits[hi-1].line + 1
		}
		var codes []string
		i := h.line - 1
		for ; i >= floor && len(codes) < 2; i-- {
			ln := strings.TrimSpace(lines[i])
			if ln == "" {
				continue
			}
			code := cardCode(ln)
			if code == "" || slices.Contains(codes, code) {
				return nil
			}
			codes = append(codes, code)
		}
		if len(codes) < 2 {
			return nil
		}
		starts[hi] = i + 1
	}
	// Nor when a flight's own lines name codes below its number: those
	// are its route, and the codes above a summary's or the previous
	// leg's (the fifteenth outside review, HIGH-5: a trip's summary
	// "BRU", "FCO" at the top, each leg's codes under its clocks).
	for hi, h := range hits {
		// A card's blocks are alike: the last ends as far from its
		// codes as the first does from its own, and two lines on, where
		// a leg that prints its codes last would print them (a
		// passenger's table may follow further, with codes of its own).
		end := min(len(lines), starts[hi]+starts[1]-starts[0]+2)
		if hi+1 < len(hits) {
			end = starts[hi+1]
		}
		for i := h.line + 1; i < end; i++ {
			if t := strings.TrimSpace(lines[i]); t != "" && len(t) <= maxPlaceLine && cardCode(t) != "" {
				return nil
			}
		}
	}
	return starts
}

// icaoFlight is the first match of icaoFlightRE in ln that is none of
// its dates: "JUN 13" is a day, not a flight of an airline "JUN"; nor an
// airport's code before its clock: "TLL 06:55" is Tallinn at five to
// seven. Nor a currency's code before its amount: "NOK 2 418,00" is a
// price (and NOK the designator of an airline that prints its own code).
func icaoFlight(ln string, dates []dateMatch) []string {
	for _, m := range icaoFlightRE.FindAllStringSubmatchIndex(ln, -1) {
		if rest := ln[m[1]:]; len(rest) > 1 && (rest[0] == ':' || rest[0] == '.') && isDigitByte(rest[1]) {
			continue
		}
		if currencyCodeRE.MatchString(ln[m[2]:m[3]]) {
			continue
		}
		if !slices.ContainsFunc(dates, func(d dateMatch) bool { return d.start < m[1] && m[0] < d.end }) {
			return []string{ln[m[0]:m[1]], ln[m[2]:m[3]], ln[m[4]:m[5]]}
		}
	}
	return nil
}

// codeLines counts the lines that are three capitals alone or end in them
// in parentheses ("Nice (NCE)"), a byte test before any expression.
func codeLines(lines []string) int {
	n := 0
	for _, ln := range lines {
		ln = strings.TrimSpace(ln)
		alone := len(ln) == 3 && isUpper(ln)
		named := len(ln) > 5 && ln[len(ln)-5] == '(' && ln[len(ln)-1] == ')' && isUpper(ln[len(ln)-4:len(ln)-1])
		if alone || named {
			n++
		}
	}
	return n
}

// stackedCard reports whether lines hold two airports' codes and two
// clocks, each alone on its line (a code perhaps after its airport's
// name: cardCode).
func stackedCard(lines []string) bool {
	var codes []string
	clocks := 0
	for _, ln := range lines {
		ln = strings.TrimSpace(ln)
		if code := cardCode(ln); code != "" && !slices.Contains(codes, code) {
			codes = append(codes, code)
		} else if len(ln) <= 8 && hasDigit(ln) {
			if cs := findClocks(ln); len(cs) == 1 && cs[0].start == 0 && cs[0].end == len(ln) {
				clocks++
			}
		}
	}
	return len(codes) >= 2 && clocks >= 2
}

// cardCodeRE is an airport's block with its name: "Nice (NCE)".
var cardCodeRE = lazyregexp.New(`^\p{L}[\p{L} .'-]{0,40}\(([A-Z]{3})\)$`)

// labelCode are a printout's labels that are also airports' codes, never
// an airport, not even before a clock ("DEP 08:10 ARR 10:30", "0910 HRS")
// or alone on a line, as a table's headings flatten ("FROM", "DEP",
// "TO", "ARR"): departure, arrival, their scheduled times, the booking's
// record, ticket, flight, hours.
var labelCode = map[string]bool{"DEP": true, "ARR": true, "ETD": true, "ETA": true, "STD": true, "STA": true,
	"PNR": true, "TKT": true, "FLT": true, "HRS": true}

// cardCode is the known airport code a card's block holds alone ("NCE")
// or after the airport's name ("Nice (NCE)"), or "".
func cardCode(ln string) string {
	if len(ln) == 3 && isUpper(ln) && places.Known(ln) && !labelCode[ln] {
		return ln
	}
	if m := cardCodeRE.FindStringSubmatch(ln); m != nil && places.Known(m[1]) {
		return m[1]
	}
	return ""
}

// stackedFlight reads a flight laid out as a card of stacked blocks, each
// clock and each airport's code on a line of its own, under the number
// (line num) and before the next flight's (next): "SN 3583", "07:10",
// "Brussels", "BRU", "08:45", "Rome Fiumicino", "FCO" (or "Nice (NCE)").
// The first two clocks are the departure's and the arrival's, the first
// two codes their airports' (from begin: a card that prints the route
// above the number begins there); the day is the first date from begin.
func (c *msgContext) stackedFlight(lines []string, begin, num, next int) *Segment {
	var clocks []clockMatch
	var codes []string
	var day *dateMatch
	for i := begin; i < next && i < num+24; i++ {
		ln := strings.TrimSpace(lines[i])
		if ln == "" || len(ln) > maxPlaceLine {
			continue // a card's lines are short
		}
		if day == nil {
			if ds := c.dates(ln); len(ds) > 0 {
				d := ds[0].withYear(c.ref)
				day = &d
			}
		}
		if i < num {
			// A card may print its route above the number
			// (routesJustAbove): "RDU", "BOS", "Flight 1184".
			if code := cardCode(ln); code != "" {
				codes = append(codes, code)
			}
			continue
		}
		if i == num {
			continue
		}
		if cs := findClocks(ln); len(cs) == 1 && cs[0].start == 0 && cs[0].end == len(ln) {
			clocks = append(clocks, cs[0])
		} else if code := cardCode(ln); code != "" {
			codes = append(codes, code)
		}
		if len(clocks) == 2 && len(codes) == 2 {
			break
		}
	}
	if len(clocks) != 2 || len(codes) != 2 || codes[0] == codes[1] || day == nil {
		return nil
	}
	from, to := &Place{Code: codes[0]}, &Place{Code: codes[1]}
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, From: from, To: to}
	seg.Depart = resolve(at(*day, &clocks[0]), c.airportZone(from), c.dateLoc)
	seg.Arrive = resolve(at(*day, &clocks[1]), c.airportZone(to), c.dateLoc)
	if seg.Depart == nil || seg.Arrive == nil {
		return nil
	}
	if seg.Arrive.Before(seg.Depart.Time) {
		seg.Arrive.Time = seg.Arrive.AddDate(0, 0, 1)
	}
	return seg
}

// splitFlightsOnLine gives each flight of a line that lists several,
// apart by semicolons ("Flight 1: LH 1234 FRA-MUC 07:00-08:05; Flight 2:
// LH 410 MUC-JFK 10:20-13:45"), a line of its own.
//
// A text flattened to one long line (an HTML mail's text with its breaks
// lost: "… Departure Iberia Flight 4358 6:00am Sun. May 29 Los Angeles,
// CA (LAX) 1:59pm Sun. May 29 Miami, FL (MIA) Iberia Flight 4610 …") is
// broken before each flight's number, so that each number's parts stand
// on its own line.
func splitFlightsOnLine(lines []string) []string {
	var out []string
	for _, ln := range lines {
		if len(ln) > flattenedLine && len(ln) <= maxFlattenedLine && !strings.Contains(ln, ";") {
			out = append(out, splitFlattened(ln)...)
			continue
		}
		if !strings.Contains(ln, ";") {
			out = append(out, ln)
			continue
		}
		parts := strings.Split(ln, ";")
		n := 0
		for _, p := range parts {
			if m := flightNumRE.FindStringSubmatch(p); m != nil && isFlightDesignator(m[1]) && len(findClocks(p)) > 0 {
				n++
			}
		}
		if n < 2 {
			out = append(out, ln)
			continue
		}
		for _, p := range parts {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return out
}

// flattenedLine is the length from which a line with several clocks is
// read as a text flattened to one line.
const flattenedLine = 250

// maxFlattenedLine is the longest line read as a booking flattened to one
// line: a printout's legs fill a few kilobytes, and a longer line is
// repeated text whose clocks and dates, sought over every byte of it,
// held the readers seconds (review 8's 250 KB line of one leg repeated:
// 6 s on this machine, against 4 s allowed).
const maxFlattenedLine = 16 << 10

// flightNumberWordRE is a flight's number after the word ("Flight 4358",
// "flight #4610"), as a flattened line's airline prints it.
var flightNumberWordRE = lazyregexp.New(`(?i)\bflight\s+#?\d{1,4}\b`)

// splitFlattened breaks a flattened line before each flight number with
// clocks after it, when it holds two clocks or more.
func splitFlattened(ln string) []string {
	if len(findClocks(ln)) < 2 {
		return []string{ln}
	}
	if rows := splitAtDates(ln); rows != nil {
		return rows
	}
	var cuts []int
	for _, m := range flightNumRE.FindAllStringSubmatchIndex(ln, -1) {
		// Not a clock's hour ("T3 08:00") nor a date's day ("CXL BY
		// 07/07/24").
		if isFlightDesignator(ln[m[2]:m[3]]) && !(m[5] < len(ln) && strings.IndexByte(":/.-", ln[m[5]]) >= 0) {
			cut := m[0]
			// The route right before the number goes with it ("… PROMO
			// Kota Kinabalu (BKI) Kuala Lumpur (KUL) AK5111 …", an
			// itinerary's row whose cells a PDF ran into one line).
			if r := routeBeforeRE.FindStringIndex(ln[:cut]); r != nil {
				cut = r[0]
			}
			cuts = append(cuts, cut)
		}
	}
	for _, m := range flightNumberWordRE.FindAllStringIndex(ln, -1) {
		// The airline's name before the word goes with it ("… Iberia
		// Flight 4358"): the flight's number is read by that name.
		cut := m[0]
		before := strings.ToUpper(strings.TrimRight(ln[:m[0]], " "))
		for _, a := range gdsAirlines {
			if strings.HasSuffix(before, a.name) && (len(before) == len(a.name) || before[len(before)-len(a.name)-1] == ' ') {
				cut = len(strings.TrimRight(ln[:m[0]], " ")) - len(a.name)
				break
			}
		}
		cuts = append(cuts, cut)
	}
	slices.Sort(cuts)
	var out []string
	last := 0
	for _, c := range cuts {
		if c > last && findClocks(ln[c:]) != nil {
			out = append(out, strings.TrimSpace(ln[last:c]))
			last = c
		}
	}
	return append(out, strings.TrimSpace(ln[last:]))
}

// routeBeforeRE is a route of two places, each a name of one to three
// capitalised words and its airport's code in parentheses, that ends
// where a flight's number starts.
var routeBeforeRE = lazyregexp.New(`(?:\p{Lu}\p{Ll}+[ \t]){1,3}\([A-Z]{3}\)[ \t]+(?:\p{Lu}\p{Ll}+[ \t]){1,3}\([A-Z]{3}\)[ \t]*$`)

// joinedCodeRE is two airports' codes joined as a route: by "to", a dash
// or an arrow.
var joinedCodeRE = lazyregexp.New(`\b([A-Z]{3})\s*(?:-|–|—|→|->|>|\s(?i:to)\s)\s*([A-Z]{3})\b`)

// joinedCodes is the one route of two codes a line holds ("MGA to MEX",
// "TXL-BRU"); ok is false when it holds none, or more than one.
func joinedCodes(ln string) (from, to string, ok bool) {
	ms := joinedCodeRE.FindAllStringSubmatch(ln, 2)
	if len(ms) != 1 {
		return "", "", false
	}
	return ms[0][1], ms[0][2], true
}

// splitAtDates breaks a flattened table before each row's date, where
// every row starts with its date and holds one flight's number and a
// clock ("… Flt # Route Sun, Mar 12 7:00 AM 9:55 AM AM 651 … MGA to MEX
// … Mon, Mar 13 10:00 AM 1:46 PM AM 2682 … MEX to DFW …"): cut before the
// numbers, each row's clocks would stand with the row above. Else nil.
func splitAtDates(ln string) []string {
	ds := findDates(ln, false)
	if len(ds) < 2 {
		return nil
	}
	out := []string{strings.TrimSpace(ln[:ds[0].start])}
	for i, d := range ds {
		end := len(ln)
		if i+1 < len(ds) {
			end = ds[i+1].start
		}
		row := ln[d.start:end]
		// A designator that is also a word ("AM" of Aeromexico) where
		// the row names two airports by their codes, as the readers of
		// the rows take it.
		routed := len(airportCodes(row)) >= 2
		numbers := 0
		for _, m := range flightNumRE.FindAllStringSubmatchIndex(row, -1) {
			if (routed || isFlightDesignator(row[m[2]:m[3]])) && !(m[5] < len(row) && strings.IndexByte(":/.-", row[m[5]]) >= 0) {
				numbers++
			}
		}
		if numbers != 1 || findClocks(row) == nil {
			return nil
		}
		out = append(out, strings.TrimSpace(row))
	}
	return out
}

// aboutFlights reports whether line i, the line after it or the heading
// above it holds a word of flights ("OUTBOUND FLIGHT", then "FR 8354
// Tue 11 May 2027"), or the line after it names an airport by its code
// in parentheses beside a clock ("Dublin T1 (DUB)   dep. 06:20").
func aboutFlights(lines []string, i int) bool {
	if travelWordCounts(lines[i])[0] > 0 {
		return true
	}
	if i > 0 && travelWordCounts(lines[i-1])[0] > 0 {
		return true
	}
	if i+1 >= len(lines) {
		return false
	}
	next := lines[i+1]
	return travelWordCounts(next)[0] > 0 ||
		strings.IndexByte(next, '(') >= 0 && len(airportCodes(next)) == 1 && findClocks(next) != nil
}

// railProducts are the categories of rail services that stand before a
// number as an airline's designator does: "RE 22", "IC 2013", "EC 171",
// "IR 2519", "ICE 870", "TGV 6201". Some are airlines' codes too (Iran
// Air's IR, Icelandair's ICAO ICE); a mail with no word of trains keeps
// them as flights.
var railProducts = map[string]bool{"RE": true, "RB": true, "IC": true, "EC": true, "IR": true, "ICE": true, "TGV": true, "IRE": true}

// railProduct reports whether a flight number's designator is a rail
// product's category in a mail whose words speak of trains (text): a
// regional train to an airport's station ("Zum Flughafen fährt auch der
// RE 22") is no flight. n caches the mail's count of train words (-1:
// not counted yet).
func railProduct(designator, text string, n *int) bool {
	if !railProducts[designator] {
		return false
	}
	if *n < 0 {
		*n = travelWordCounts(text)[1]
	}
	return *n > 0
}

// gateWords are every language's words for an airport's gate, lower
// case (gate.label).
var gateWords = lang.Entries("gate.label")

// gateBefore reports whether the word before byte offset pos of ln is a
// word for a gate ("Terminal 1, Gate B24", "porte F32", "uscita B12").
func gateBefore(ln string, pos int) bool {
	before := strings.ToLower(strings.TrimRight(ln[:pos], " \t:.#"))
	for _, w := range gateWords {
		if rest, ok := strings.CutSuffix(before, w); ok {
			// A whole word; Chinese, Japanese and Korean words stand
			// against the text before them ("ご搭乗口").
			if r, _ := utf8.DecodeLastRuneInString(rest); rest == "" || !unicode.IsLetter(r) || cjkWordStart(w) {
				return true
			}
		}
	}
	return false
}

// cjkWordStart reports whether w starts with a Han, kana or Hangul letter.
func cjkWordStart(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// isFlightDesignator rules out the two-character prefixes that are not
// airlines in practice but look like one in mail text.
func isFlightDesignator(s string) bool {
	switch s {
	case "DE", "EU", "US", "UK", "NO", "NR", "ID", "OK", "PO", "TO", "AT", "IN", "ON", "OR", "IS", "IT", "AM", "PM", "CW", "KW", "MO", "DI", "MI", "DO", "FR", "SA", "SO", "TV", "ST", "RE", "RB", "IC", "EC", "HD", "4K", "5G", "4G", "3G", "A4", "A3", "A5":
		return false
	}
	return true
}

var (
	// A flight's departure or arrival line, by its label anywhere on the
	// line ("Wylot: Warszawa (WAW) 14:05"); of the short words that mark
	// one only next to a clock, those of three letters and more ("from",
	// "nach"): "de" and "a" are in every Spanish line.
	depLabel = travelLabel("departure")
	arrLabel = travelLabel("arrival")
	codeWord = lazyregexp.New(`\b[A-Z]{3}\b`)
)

// stopLabelOn reports whether a departure's or an arrival's label (re) is on
// ln as a word, not as an airport's code in parentheses: "Frankfurt
// (FRA)" holds Danish "fra" (from), and an arrival line ending in it is
// no departure's.
func stopLabelOn(re stopLabel, ln string) bool {
	if !re.MatchString(ln) {
		return false
	}
	if !strings.Contains(ln, "(") {
		return true
	}
	for _, m := range re.FindAllStringIndex(ln, -1) {
		w := strings.TrimFunc(ln[m[0]:m[1]], func(r rune) bool { return !unicode.IsLetter(r) })
		at := strings.Index(ln[m[0]:m[1]], w) + m[0]
		if !(len(w) == 3 && w == strings.ToUpper(w) && at > 0 && ln[at-1] == '(' && at+3 < len(ln) && ln[at+3] == ')') {
			return true
		}
	}
	return false
}

// maxFlightNumbers is how many lines naming a flight's number the text
// reader reads a leg around: more than any itinerary prints (a family's
// round trip with changes, each leg twice, is under forty), and what
// bounds a hostile mail of thousands of numbered lines, each read with
// the lines about it (the eighth outside review, MEDIUM-1).
const maxFlightNumbers = 100

// stopLabel is a departure's or an arrival's label in every language
// (travelLabel), found by its phrase set (phraseExpr) rather than tried
// from every byte of a line: the flight reader asks it of each stop's
// line, and one 250 KB mail of long lines of stops ran it for five
// seconds (the eighth outside review, MEDIUM-1). Its Regexp is the whole
// expression, for a caller that reads where a match starts.
type stopLabel struct {
	*lazyregexp.Regexp
	e *phraseExpr
}

// MatchString reports whether s holds the label.
func (l stopLabel) MatchString(s string) bool { return l.e.match(s) }

// FindAllStringIndex is where s holds the label, from its phrase (not
// the rune before it) to the end of the match.
func (l stopLabel) FindAllStringIndex(s string, n int) [][]int {
	ms := l.e.findAll(s, n)
	for i, m := range ms {
		ms[i] = m[:2]
	}
	return ms
}

func travelLabel(category string) stopLabel {
	words := lang.Entries(category)
	for _, w := range lang.Entries(category + ".marker") {
		if utf8.RuneCountInString(w) >= 3 {
			words = append(words, w)
		}
	}
	e := newPhraseExpr(longestFirst(words), `(?:[^\p{L}]|$)`)
	return stopLabel{Regexp: e.whole, e: e}
}

// datesUnderRow is the departure's and the arrival's days printed under a
// table's row of both stops and their clocks, the next line that is not
// blank (within three) holding two dates and no clock ("TP82 16:20 05:15
// 14:50", then "Terminal / Terminal: 3 Terminal / Terminal: 1 24Jan2024
// 25Jan2024": an Amadeus e-ticket receipt), else nil.
func (c *msgContext) datesUnderRow(wl []string, i int) []dateMatch {
	for j := i + 1; j < len(wl) && j <= i+3; j++ {
		if strings.TrimSpace(wl[j]) == "" {
			continue
		}
		if ds := c.dates(wl[j]); len(ds) == 2 && findClocks(wl[j]) == nil && legDays(ds[0], ds[1]) {
			return ds
		}
		return nil
	}
	return nil
}

// legDays reports whether b is a leg's arrival day after departure day a:
// the same day or up to two days later. Two dates further apart under a
// row are a validity's span ("valid 24Jan2024 24Jan2025"), not a leg's.
func legDays(a, b dateMatch) bool {
	da := time.Date(a.y, time.Month(a.m), a.d, 0, 0, 0, 0, time.UTC)
	db := time.Date(b.y, time.Month(b.m), b.d, 0, 0, 0, 0, time.UTC)
	if !b.hasYear || !a.hasYear {
		// A year left out is the year the other gives, or across New Year.
		db = time.Date(a.y, time.Month(b.m), b.d, 0, 0, 0, 0, time.UTC)
		if db.Before(da) {
			db = db.AddDate(1, 0, 0)
		}
	}
	d := db.Sub(da)
	return d >= 0 && d <= 48*time.Hour
}

func (c *msgContext) flightFromWindow(win string, lines []string, begin int) *Segment {
	type stop struct {
		place *Place
		clock *clockMatch
		line  string
		at    int // the line's index in the window
	}
	var stops []stop
	wl := strings.Split(win, "\n")
	routeTo := -1 // the "To:" line a labelled route was read with
	for i, ln := range wl {
		if i == routeTo {
			continue
		}
		clocks := findClocks(ln)
		if len(clocks) == 2 && len(airportCodes(ln)) < 2 {
			// A sentence that names both airports by their markers:
			// "départ de Paris-CDG à 08h35, arrivée à Athènes à 12h50".
			if a, b, _, ok := c.markedStops(ln, clocks); ok && a != "" && b != "" {
				if pa, pb := namedPair(a, b); pa != nil && pb != nil && pa.Code != pb.Code {
					stops = append(stops, stop{pa, &clocks[0], ln, i}, stop{pb, &clocks[1], ln, i})
					continue
				}
			}
		}
		// "関西 08:15発 → 那覇 10:40着", "Lisbon 07:15 → Porto 08:10": a leg
		// on one line by two airports' names, each before its clock.
		if pa, pb := c.arrowLegPlaces(ln, clocks); pa != nil {
			stops = append(stops, stop{pa, &clocks[0], ln, i}, stop{pb, &clocks[1], ln, i})
			continue
		}
		// "06:40 Stuttgart 07:50 Berlin-Schönefeld": a table's row, each
		// clock before its airport's name.
		if pa, pb := clockLegPlaces(ln, clocks); pa != nil {
			stops = append(stops, stop{pa, &clocks[0], ln, i}, stop{pb, &clocks[1], ln, i})
			continue
		}
		// "24 FEB, 2014 SG 104 DELHI / T 1 KOLKATA 08:10 10:30": the
		// cities side by side after the number, the clocks after both.
		if pa, pb := runTogetherPlaces(ln, clocks, c.flightRef != ""); pa != nil {
			stops = append(stops, stop{pa, &clocks[0], ln, i}, stop{pb, &clocks[1], ln, i})
			continue
		}
		if len(clocks) > 0 && len(ln) > 60 && notStopWords.In(lower(ln)) && len(airportCodes(ln)) == 0 {
			// "… the free Manila International Airport Authority shuttle
			// service from 05:30 AM to 01:00 AM": a sentence about a
			// shuttle's, a lounge's or a desk's hours (clock.notstop)
			// times no leg.
			continue
		}
		p := c.placeInLine(ln, clocks)
		if (p == nil || p.Code == "") && (checkLineRE.MatchString(ln) || len(clocks) == 1 && (serviceClockLine(ln) || bookedDayLine(ln))) {
			// "Check-in: Saturday, June 19, 2027 (from 3:00 PM)": a stay's
			// or a desk's time, no stop; "6E6413 (A320) . 17 Oct 2020 .
			// Check-in Closes: 13:05 hrs": the desk's deadline on the
			// flight's own line (clock.service), the hour before its
			// departure; "Booked on: Sat, Aug. 20, 2022 19:41 Hrs": when
			// the booking was made (date.booked).
			continue
		}
		// "Departs 06:15   Arrives 09:50", "12.07.2027 20:35 –
		// 13.07.2027 06:50": both of a leg's times on one line, its
		// airports on the route line.
		if p != nil && p.Code == "" && (depLabel.MatchString(p.Name) || arrLabel.MatchString(p.Name) || strings.TrimSpace(withoutClockWord(p.Name+" ")) == "" || onlyDayWords(p.Name)) {
			p = nil // the labels' words, not a place ("Heure de" before "départ : 06:50": clock.of; "a las" after a day)
		}
		if (p == nil || p.Code == "") && len(clocks) >= 2 && (depLabel.MatchString(ln) && arrLabel.MatchString(ln) ||
			timeRange(ln, clocks[0], clocks[1]) || markedClocks(ln, clocks) || c.twoStamps(ln, clocks)) {
			stops = append(stops, stop{nil, &clocks[0], ln, i}, stop{nil, &clocks[1], ln, i})
			continue
		}
		if p == nil && len(clocks) > 0 && i > 0 {
			// The airport on its own line above its date and time
			// (blank lines between: paragraphs of HTML).
			j := i - 1
			for j > 0 && j > i-3 && strings.TrimSpace(wl[j]) == "" {
				j--
			}
			p = placeAlone(wl[j])
			if (p == nil || p.Code == "") && j > 0 && terminalLine(wl[j]) {
				// "Kuala Lumpur (KUL)", "Kuala Lumpur (LCC Terminal)",
				// "Mon 04 Feb 2013, 1045 hrs": the airport over its
				// terminal's line over its day and clock.
				k := j - 1
				for k > 0 && k > j-3 && strings.TrimSpace(wl[k]) == "" {
					k--
				}
				if q := placeAlone(wl[k]); q != nil && q.Code != "" {
					p = q
				}
			}
			if p == nil && j > 0 && clockAlone(ln) && c.dateAlone(wl[j]) {
				// "New York (JFK)", "Wednesday, June 11, 2027", "7:00 PM":
				// the airport over its date over its clock. The date goes
				// with the stop, after its clock.
				k := j - 1
				for k > 0 && k > j-3 && strings.TrimSpace(wl[k]) == "" {
					k--
				}
				if p = placeAlone(wl[k]); p != nil {
					ln += "  " + strings.TrimSpace(wl[j])
				}
			}
		}
		if (p == nil || len(airportCodes(ln)) < 2) && len(clocks) == 0 {
			// "FR 1234 Berlin Brandenburg → Palma de Mallorca": a route
			// by names that each mean one airport (the first read as a
			// place alone: "KL1673 Amsterdam to Barcelona").
			from, to := namedRoute(ln)
			if from == "" {
				// "From: Kochi" over "To: Delhi": the route by two
				// labelled lines, the clocks on lines of their own.
				var at int
				if from, to, at = labelledRoute(wl, i); from != "" {
					routeTo = at
				}
			}
			if from == "" {
				// "Delhi (T1D) Srinagar (T1)": each city with its
				// terminal, the leg's times on a line below.
				from, to = terminalsRoute(ln)
			}
			if from != "" {
				stops = append(stops, stop{&Place{Code: from}, nil, ln, i}, stop{&Place{Code: to}, nil, ln, i})
				continue
			}
		}
		if p == nil {
			// "Departure: 14/05/2027 06:10": a time whose airport the
			// route line names ("Katowice (KTW) -> London Luton (LTN)");
			// a day and a clock alone on their line, which may be its
			// departure's.
			if len(clocks) > 0 && (depLabel.MatchString(ln) || arrLabel.MatchString(ln)) || len(clocks) == 1 && c.dayClockLine(ln) {
				stops = append(stops, stop{nil, &clocks[0], ln, i})
			} else if i > 0 && clockAlone(ln) && c.dateAlone(wl[i-1]) {
				// The day alone on its line and the clock alone under it
				// ("Mon, 22 Dec 2016", "12:25"), as a stacked card sets
				// them: one line of the day and its clock.
				day := strings.TrimSpace(wl[i-1])
				ck := clocks[0]
				ck.start += len(day) + 2
				ck.end += len(day) + 2
				stops = append(stops, stop{nil, &ck, day + "  " + ln, i})
			}
			continue
		}
		var ck *clockMatch
		if len(clocks) > 0 {
			ck = &clocks[0]
		}
		// Two airports on one line ("FRA 10:05 → LIS 12:15", "TXL-BRU").
		codes := airportCodes(ln)
		if len(codes) > 2 {
			// "… AEROLITORAL DBA AEROMEXICO CONNECT MGA to MEX": of more
			// than two codes, the two a route joins.
			if a, b, ok := joinedCodes(ln); ok && slices.Contains(codes, a) && slices.Contains(codes, b) {
				codes = []string{a, b}
			}
		}
		if len(codes) >= 2 {
			var c2 *clockMatch
			if len(clocks) > 1 {
				c2 = &clocks[1]
			}
			stops = append(stops, stop{&Place{Code: codes[0]}, ck, ln, i}, stop{&Place{Code: codes[1]}, c2, ln, i})
			continue
		}
		stops = append(stops, stop{p, ck, ln, i})
	}
	// A place without a time ("IDA - jueves, 8 de abril": a heading, and
	// the code of Idaho Falls) is no stop when two others have times.
	timed := 0
	var route []*Place // "London (LHR) to Athens (ATH)", times on other lines
	routeAt := 0
	for i, s := range stops {
		if s.clock != nil {
			timed++
		} else if route == nil && i+1 < len(stops) && stops[i+1].clock == nil && routePair(s.place, stops[i+1].place, stops[i+1].at-s.at) {
			route, routeAt = []*Place{s.place, stops[i+1].place}, s.at
		}
	}
	if timed >= 2 {
		stops = slices.DeleteFunc(stops, func(s stop) bool { return s.clock == nil })
	}
	if len(stops) < 2 {
		return nil
	}
	dep, arr := stops[0], stops[1]
	// Labelled lines win over order of appearance, but a route line's is
	// no departure's label: "Flight LH 400 Frankfurt (FRA) to New York
	// (JFK)" holds Danish "fra" (from), and the departure is "Departure:
	// 12 March 2027 13:20" below it.
	for _, s := range stops {
		if stopLabelOn(depLabel, s.line) && !stopLabelOn(arrLabel, s.line) && (s.clock != nil || len(airportCodes(s.line)) < 2) {
			dep = s
			break
		}
	}
	for _, s := range stops {
		if s.line != dep.line && stopLabelOn(arrLabel, s.line) {
			arr = s
			break
		}
	}
	// A route without clocks over a line of the day and its clock alone
	// ("Flight FR 1234 from Manchester to Krakow", "Sat, 3 Oct 2026 at
	// 06:40"): the clock is the departure's.
	if dep.clock == nil && route != nil {
		for _, s := range stops {
			if s.place == nil && s.clock != nil && s.at > routeAt && c.dayClockLine(s.line) {
				dep = s
				break
			}
		}
	}
	if dep.clock == nil {
		return nil
	}
	// Times labelled on lines that name a terminal, not an airport
	// ("Depart 11:40 - Heathrow Terminal 2"): the airports are the route's.
	depPlace, arrPlace := dep.place, arr.place
	if depPlace == nil || arrPlace == nil || depPlace.Code == "" || arrPlace.Code == "" {
		if route == nil || routeAt > dep.at && !onlyNumberAfter(wl, routeAt) {
			// A route further down is the next leg's; this one's may
			// head the leg, above its number.
			route = nil
			for i := begin - 1; i >= 0 && i >= begin-3; i-- {
				if codes := airportCodes(lines[i]); len(codes) >= 2 && findClocks(lines[i]) == nil {
					route = []*Place{{Code: codes[0]}, {Code: codes[1]}}
					break
				}
				if routeAbove(lines[i]) {
					from, to := routeAboveCodes(lines[i])
					route = []*Place{{Code: from}, {Code: to}}
					break
				}
			}
		}
		if route != nil {
			depPlace, arrPlace = route[0], route[1]
		}
	}
	if depPlace == nil || arrPlace == nil {
		return nil
	}
	dates := c.dates(win)
	// The arrival's own date is on the arrival's line, or is the
	// second date of a line that gives both; a date further down the
	// window is the next leg's.
	var arrDate *dateMatch
	// A line's one date after the arrival's clock and its label is the
	// arrival's alone ("6:00 PM → London (LHR) 6:20 AM (arrives Apr
	// 25)"): the departure's is above.
	arrOnly := false
	if ds := c.dates(arr.line); arr.line != dep.line && len(ds) > 0 {
		arrDate = &ds[0]
	} else if len(ds) > 1 && !(arr.clock != nil && ds[1].start >= arr.clock.end && statusBefore(arr.line[arr.clock.end:ds[1].start])) {
		// Not a date after the arrival's clock and a booking's status:
		// an e-ticket receipt's "not valid before" column ("03:30 07:35
		// Ok 20Dec 2PC").
		arrDate = &ds[1]
	} else if len(ds) == 1 && arr.clock != nil && dep.clock != nil && arr.clock.start > dep.clock.end &&
		ds[0].start >= arr.clock.end && arrLabel.MatchString(arr.line[arr.clock.end:ds[0].start]) {
		arrDate, arrOnly = &ds[0], true
	}
	// The departure's date: on its line, else the nearest above it (in
	// the window, then above the window: a leg's heading), else the first
	// below it. A date further down is more often the next leg's heading
	// ("Retour — samedi 17 avril") than this leg's.
	var d dateMatch
	found := false
	if ds := c.dates(dep.line); len(ds) > 0 && !arrOnly {
		d, found = ds[0], true
	} else if dep.line == arr.line && arrDate == nil {
		if under := c.datesUnderRow(wl, dep.at); under != nil {
			d, arrDate, found = under[0], &under[1], true
		}
	}
	for i := dep.at - 1; !found && i >= 0; i-- {
		if ds := c.dates(wl[i]); len(ds) > 0 {
			d, found = ds[len(ds)-1], true
		}
	}
	for i := begin - 1; !found && i >= 0 && i >= begin-15; i-- {
		if ds := c.dates(lines[i]); len(ds) > 0 {
			d, found = ds[len(ds)-1], true
		}
	}
	if !found && len(dates) > 0 {
		d, found = dates[0], true
	}
	if !found {
		return nil
	}
	d = d.withYear(c.ref)
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, From: depPlace, To: arrPlace}
	seg.Depart = resolve(at(d, dep.clock), c.airportZone(depPlace), c.dateLoc)
	if arr.clock != nil {
		ad := d
		if arrDate != nil {
			ad = arrDate.withYear(c.ref)
		}
		w := at(ad, arr.clock)
		seg.Arrive = resolve(w, c.airportZone(arrPlace), c.dateLoc)
		if arrDate == nil && seg.Arrive.Before(seg.Depart.Time) {
			w2 := at(ad, arr.clock)
			t := resolve(w2, c.airportZone(arrPlace), c.dateLoc)
			t.Time = t.AddDate(0, 0, 1)
			seg.Arrive = t
		}
	}
	return seg
}

// checkLineRE is a line that starts with a check-in's or a check-out's
// word.
var checkLineRE = lazyregexp.New(`(?i)^[ \t*•-]*check[- ]?(?:in|out)\b`)

// clockAlone reports whether a line is a clock and nothing else ("7:00
// PM", "19:00").
// dayClockLine reports whether ln holds a date and one clock and
// nothing else but a weekday and the words for "at" and "o'clock" ("Sat, 3
// Oct 2026 at 06:40", "vendredi 9 juillet 2027 à 07:15").
func (c *msgContext) dayClockLine(ln string) bool {
	cs := findClocks(ln)
	ds := c.dates(ln)
	if len(cs) != 1 || len(ds) != 1 || ds[0].start < cs[0].end && cs[0].start < ds[0].end {
		return false
	}
	rest := []byte(ln)
	blank(rest, cs[0].start, cs[0].end)
	blank(rest, ds[0].start, ds[0].end)
	return onlyDayWords(string(rest))
}

// codesRouteOverClocks writes a card's route line over its clocks' line
// ("Toronto YYZLos Angeles LAX", then "12:15 14:33": Air Canada's
// confirmation, whose cells flattened to text without a space between
// them) as the one line of a leg every reader reads ("YYZ 12:15 → LAX
// 14:33"), the clocks' line left blank and the lines' numbers kept.
func codesRouteOverClocks(lines []string) []string {
	for i := range lines {
		a, b := routeLineCodes(lines[i])
		if a == "" {
			continue
		}
		j := i + 1
		for j < len(lines) && j <= i+2 && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j >= len(lines) {
			continue
		}
		if c1, c2, ok := twoClocksAlone(lines[j]); ok {
			lines[i] = a + " " + c1 + " → " + b + " " + c2
			lines[j] = ""
		}
	}
	return lines
}

// gluedCodeRE is an airport's code glued to the name after it, as cells
// flattened without a space print it ("YYZLos Angeles").
var gluedCodeRE = lazyregexp.New(`^([A-Z]{3})(\p{Lu}\p{Ll}.*)$`)

// routeLineCodes reads a line that is a leg's route and nothing else: two
// airports' codes alone ("YYZ LAX", "YYZ - LAX"), or each after its
// city's or airport's name ("Toronto YYZ Los Angeles LAX"), a code glued
// to the next name allowed. Each name must be one its code serves, so a
// heading's capitals ("FROM TO") or a sentence name no route; "", ""
// for any other line.
func routeLineCodes(ln string) (string, string) {
	t := strings.TrimSpace(ln)
	if len(t) < 7 || len(t) > 100 || hasDigit(t) || !threeCapitals(t) {
		return "", "" // most lines: no three capitals in a row, no code
	}
	var ws []string
	for _, w := range strings.Fields(t) {
		if m := gluedCodeRE.FindStringSubmatch(w); m != nil && places.Known(m[1]) {
			ws = append(ws, m[1], m[2])
			continue
		}
		ws = append(ws, w)
	}
	var codes []string
	var names [2][]string
	for _, w := range ws {
		switch {
		case len(w) == 3 && isUpper(w) && places.Known(w) && !labelCode[w] && !commonUpperWord[w]:
			codes = append(codes, w)
			if len(codes) > 2 {
				return "", ""
			}
		case w == "-" || w == "–" || w == "→" || w == ">":
		case len(codes) < 2 && startsUpper(w):
			names[len(codes)] = append(names[len(codes)], w)
		default:
			return "", "" // a word after the second code, or in lower case
		}
	}
	if len(codes) != 2 || codes[0] == codes[1] {
		return "", ""
	}
	for k, n := range names {
		if len(n) > 0 && !places.Serves(strings.Join(n, " "), codes[k]) {
			return "", ""
		}
	}
	if (len(names[0]) == 0) != (len(names[1]) == 0) {
		return "", ""
	}
	return codes[0], codes[1]
}

// threeCapitals reports whether s holds three ASCII capitals in a row.
func threeCapitals(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if isUpperByte(s[i]) {
			if run++; run == 3 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// twoClocksAlone reads a line of two clocks and nothing else but a dash
// or an arrow between them: the clocks as written.
func twoClocksAlone(ln string) (string, string, bool) {
	cs := findClocks(ln)
	if len(cs) != 2 || cs[0].end > cs[1].start || cs[1].end > len(ln) {
		return "", "", false
	}
	if strings.TrimSpace(ln[:cs[0].start]) != "" || strings.TrimSpace(ln[cs[1].end:]) != "" ||
		strings.Trim(ln[cs[0].end:cs[1].start], " \t-–→>") != "" {
		return "", "", false
	}
	return ln[cs[0].start:cs[0].end], ln[cs[1].start:cs[1].end], true
}

// hyphenedNumbers writes a flight's number that stands alone in its cell
// with a hyphen between designator and digits ("CM-158": an agency's
// ticket prints each leg's so, under its block) as the number readers
// read ("CM 158"). Only alone on its line, "AB-1234" in a sentence being
// a part's or a form's number as often as a flight's; and only a known
// airline's designator (airlines.tsv), or one whose leg follows: an
// airport's code and a clock in the lines under it ("6E-2403" over "DEL
// 07:05 hrs": the table knows a hundred airlines, the world a thousand).
func hyphenedNumbers(lines []string) []string {
	for i, ln := range lines {
		t := strings.TrimSpace(ln)
		if len(t) > 7 && strings.IndexByte(t, '-') > 0 {
			// Or in a leg's row, beside its airport's code and its clock
			// ("Departure Jakarta (CGK) 09-OCT-09 13.05 LT 7P-583 N").
			if m := rowHyphenNumRE.FindStringSubmatchIndex(ln); m != nil && len(airportCodes(ln)) > 0 && findClocks(ln) != nil {
				lines[i] = ln[:m[2]+2] + " " + ln[m[2]+3:]
			}
			continue
		}
		if len(t) < 4 || len(t) > 7 || t[2] != '-' {
			continue
		}
		d, n := t[:2], t[3:]
		if strings.TrimLeft(n, "0123456789") != "" || !designatorShaped(d) || !airlineDesignators[d] && !legFollows(lines[i+1:]) {
			continue
		}
		lines[i] = d + " " + n
	}
	return lines
}

// rowHyphenNumRE is a flight's number with a hyphen between designator
// and digits, a word of its own in a row.
var rowHyphenNumRE = lazyregexp.New(`(?:^|\s)([A-Z][A-Z0-9]-\d{1,4}|[0-9][A-Z]-\d{1,4})(?:\s|$)`)

// legFollows reports whether the dozen lines after a flight's number hold
// a leg's airport, by its code, and a clock.
func legFollows(lines []string) bool {
	code, clock := false, false
	for _, ln := range lines[:min(len(lines), 12)] {
		code = code || len(airportCodes(ln)) > 0
		clock = clock || findClocks(ln) != nil
		if code && clock {
			return true
		}
	}
	return false
}

// legCells writes a leg's card of cells rendered a line each, the two
// airports' codes over their two clocks ("SJC", "ORD", "7:00 AM", "1:25
// PM": American Airlines' trip confirmation), as the one line of a leg
// every reader reads ("SJC 7:00 AM → ORD 1:25 PM") on the first code's
// line, the others left blank and the lines' numbers kept. Read as they
// stood, each code took the clock under the other, and the stacked stops'
// reader paired the next leg's.
func legCells(lines []string) []string {
	for i := range lines {
		if len(lines[i]) > 5 {
			continue
		}
		if a, b, ia, ib := codesOverClocks(lines, i); a != nil {
			lines[i] = a.Code + " " + strings.TrimSpace(lines[ia]) + " → " + b.Code + " " + strings.TrimSpace(lines[ib])
			for j := i + 1; j <= ib; j++ {
				lines[j] = ""
			}
		}
	}
	return lines
}

// codesOverClocks reads a card's cells rendered a line each from line i:
// two airports' codes alone on their lines over two clocks alone on
// theirs, blank lines between. It gives the two places and the clocks'
// lines, or nils.
func codesOverClocks(wl []string, i int) (a, b *Place, ia, ib int) {
	codeAt := func(j int) *Place {
		ln := strings.TrimSpace(wl[j])
		if len(ln) != 3 || cardCode(ln) != ln {
			return nil
		}
		return &Place{Code: ln}
	}
	next := func(j int) int { // the next line that is not blank, within three
		for k := j + 1; k < len(wl) && k <= j+3; k++ {
			if strings.TrimSpace(wl[k]) != "" {
				return k
			}
		}
		return -1
	}
	if a = codeAt(i); a == nil {
		return nil, nil, 0, 0
	}
	j := next(i)
	if j < 0 {
		return nil, nil, 0, 0
	}
	if b = codeAt(j); b == nil || b.Code == a.Code {
		return nil, nil, 0, 0
	}
	if ia = next(j); ia < 0 || !clockAlone(wl[ia]) {
		return nil, nil, 0, 0
	}
	if ib = next(ia); ib < 0 || !clockAlone(wl[ib]) {
		return nil, nil, 0, 0
	}
	return a, b, ia, ib
}

// statusBefore reports whether s, what stands between a row's arrival
// clock and a date after it, is a booking's status alone ("Ok", "OK",
// "HK"), as an e-ticket receipt's columns print it before the "not valid
// before" date.
func statusBefore(s string) bool {
	switch strings.TrimSpace(s) {
	case "OK", "Ok", "ok", "HK", "RQ", "WL", "SA":
		return true
	}
	return false
}

// aircraftBefore reports whether the text before a flight number's match
// ends with an aircraft maker's name or an aircraft's label ("Airbus
// A320", "Equipment: A321"), so that the match is a plane's type.
func aircraftBefore(before string) bool {
	f := strings.Fields(before)
	if len(f) == 0 {
		return false
	}
	return aircraftWords[strings.ToLower(strings.TrimRight(f[len(f)-1], ":"))]
}

// aircraftWords are the makers and labels before an aircraft's type.
var aircraftWords = map[string]bool{"airbus": true, "boeing": true, "embraer": true, "bombardier": true, "aircraft": true,
	"equipment": true, "appareil": true, "avion": true, "flugzeug": true, "aeronave": true, "aeromobile": true, "aparelho": true, "vliegtuig": true}

// meridiemCells joins a clock alone on its line and the "AM" or "PM"
// alone on the next, as a card of HTML cells rendered a cell a line
// prints them ("3:02", "PM": American Airlines' trip confirmation), so
// that every reader reads 15:02; the marker's line is left blank, the
// lines' numbers kept.
func meridiemCells(lines []string) []string {
	for i := 0; i+1 < len(lines); i++ {
		m := strings.ToUpper(strings.TrimSpace(lines[i+1]))
		if m != "AM" && m != "PM" && m != "A.M." && m != "P.M." {
			continue
		}
		if ln := strings.TrimSpace(lines[i]); len(ln) <= 5 && clockAlone(ln) {
			lines[i] = ln + " " + m
			lines[i+1] = ""
		}
	}
	return lines
}

func clockAlone(ln string) bool {
	ln = strings.TrimSpace(ln)
	cs := findClocks(ln)
	return len(cs) == 1 && cs[0].start == 0 && cs[0].end == len(ln)
}

// dateAlone reports whether a line is a date and nothing else but its
// weekday ("Wednesday, June 11, 2027", "Thu 12 Jun 2027").
func (c *msgContext) dateAlone(ln string) bool {
	ln = strings.TrimSpace(ln)
	ds := c.dates(ln)
	return len(ds) == 1 && findClocks(ln) == nil && len(ln)-(ds[0].end-ds[0].start) <= 12
}

// routeAbove reports whether ln is a route by airports' names and
// nothing else: no clock, no date, digits only in a terminal's
// parentheses ("London Gatwick (North Terminal) to Nice", "Alicante
// (Terminal 1) to Leeds Bradford").
func routeAbove(ln string) bool {
	if len(ln) > 80 || strings.TrimSpace(ln) == "" {
		return false
	}
	for rest := ln; hasDigit(rest); {
		open, close := strings.IndexByte(rest, '('), strings.IndexByte(rest, ')')
		if open < 0 || close < open || hasDigit(rest[:open]) {
			return false
		}
		rest = rest[close+1:]
	}
	from, _ := routeAboveCodes(ln)
	return from != ""
}

// routeAboveCodes are the two airports of a route line above a flight's
// number (routeAbove): by namedRoute, else by two airports' names run
// together with nothing between them, as a card's two cells flatten
// ("Lima Aeropuerto Jorge Chavez Aeropuerto Alejandro Velasco Astete",
// runTogetherRoute). The flight column's heading may close the line or
// open it ("… Velasco Astete VUELO", "Flug Flughafen Hamburg Flughafen
// Stuttgart"): the number's own label, over the number's cell under it.
// "" when neither reads one.
func routeAboveCodes(ln string) (string, string) {
	if from, to := namedRoute(ln); from != "" {
		return from, to
	}
	return runTogetherRoute(ln)
}

// runTogetherRoute reads a line of two airports' names and nothing else,
// run together (no arrow, dash or word for "to" between them): letters
// alone, two to eight words besides a flight column's heading at either
// end, cut in one way only into two names that each mean one airport
// (splitNamedPair). "" otherwise: a line with a digit, a colon or a
// parenthesis is a label's, a clock's or a terminal's, read elsewhere.
func runTogetherRoute(ln string) (string, string) {
	if strings.IndexFunc(ln, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsSpace(r) && r != '-' && r != '.' && r != '\'' && r != ','
	}) >= 0 {
		return "", ""
	}
	words := strings.Fields(ln)
	if n := len(words); n > 2 && flightColumnWords[strings.ToLower(words[n-1])] {
		words = words[:n-1]
	} else if n > 2 && flightColumnWords[strings.ToLower(words[0])] {
		words = words[1:]
	}
	from, to := splitNamedPair(strings.Join(words, " "))
	if from == nil {
		return "", ""
	}
	return from.Code, to.Code
}

// onlyNumberAfter reports whether what follows line i of a window is
// blank lines and a flight's number: the window read above the number,
// whose route under the clocks is the flight's ("08:35 – 10:50",
// "Amsterdam (AMS) → Barcelona (BCN)", "KL 1673"), not the next leg's.
func onlyNumberAfter(wl []string, i int) bool {
	rest := slices.DeleteFunc(slices.Clone(wl[i+1:]), func(ln string) bool { return strings.TrimSpace(ln) == "" })
	return len(rest) == 1 && flightNumRE.MatchString(rest[0]) && findClocks(rest[0]) == nil
}

// markedClocks reports whether a line's first two clocks each follow a
// stop's marker: "Mi., 12.01.2028, ab 06:05, an 08:40".
func markedClocks(ln string, clocks []clockMatch) bool {
	_, dep := depMarkers.ends(ln[:clocks[0].start])
	_, arr := arrMarkers.ends(ln[clocks[0].end:clocks[1].start])
	return dep && arr
}

// terminalWords are the words for an airport's terminal
// (airport.terminal).
var terminalWords = words.NewWholeSet(lang.Entries("airport.terminal"))

// terminalLine reports whether a short line names a terminal ("Kuala
// Lumpur (LCC Terminal)", "Changi Airport - Terminal 1").
func terminalLine(ln string) bool { return len(ln) <= 80 && terminalWords.In(lower(ln)) }

// centsAfter reports whether rest, what follows a number, begins with an
// amount's decimal part: a point or a comma and two digits, and no third.
func centsAfter(rest string) bool {
	return len(rest) >= 3 && (rest[0] == '.' || rest[0] == ',') && isDigitByte(rest[1]) && isDigitByte(rest[2]) &&
		(len(rest) == 3 || !isDigitByte(rest[3]))
}

// twoStamps reports whether a line is a departure's and an arrival's
// day and clock side by side and nothing else, as two columns of a card
// flatten ("14:05 hrs, 17 Oct 2020 16:45 hrs, 17 Oct 2020", "Fri 12 Nov
// 2010, 2215 hrs Fri 12 Nov 2010, 2305 hrs"): each clock with its own
// day, the first pair before the second, and no word but a day's or a
// clock's ("Tue", "hrs") between them. Before them, a row's first cell
// of at most three words may stand (the fare's class: "Economy Promo"),
// after the flight's number ("G3 2078 A"); after them, a last cell of at
// most three words ("Com bagagem").
func (c *msgContext) twoStamps(ln string, clocks []clockMatch) bool {
	if len(clocks) != 2 {
		return false
	}
	ds := c.dates(ln)
	if len(ds) != 2 || ds[0].end > clocks[1].start || ds[1].start < clocks[0].end {
		return false
	}
	spans := [][2]int{{clocks[0].start, clocks[0].end}, {clocks[1].start, clocks[1].end}, {ds[0].start, ds[0].end}, {ds[1].start, ds[1].end}}
	rest := []byte(ln)
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			rest[i] = ' '
		}
	}
	first := min(clocks[0].start, ds[0].start)
	lead := string(rest[:first])
	// The row's number first ("G3 2078 A 28/03/2023 07:50 28/03/2023
	// 10:40"): the flight's own, its class after it.
	if m := flightNumRE.FindStringSubmatchIndex(lead); m != nil && strings.TrimSpace(lead[:m[0]]) == "" && isFlightDesignator(lead[m[2]:m[3]]) {
		lead = lead[m[1]:]
	}
	if f := strings.Fields(lead); len(f) > 3 || strings.IndexFunc(lead, unicode.IsDigit) >= 0 {
		return false
	}
	// The days' and clocks' own words ("Tue", "hrs") and no other
	// between and after them, but a last cell of at most three words
	// after the second pair ("Com bagagem": the baggage's column).
	last := max(clocks[1].end, ds[1].end)
	tail := string(rest[last:])
	if onlyDayWords(tail) {
		tail = ""
	}
	if t := strings.Fields(tail); len(t) > 3 || strings.IndexFunc(tail, unicode.IsDigit) >= 0 {
		return false
	}
	mid := string(rest[first:last])
	return strings.IndexFunc(mid, unicode.IsDigit) < 0 && onlyDayWords(mid)
}

// textLinesEnd is where n non-blank lines from line i end, at most at limit.
func textLinesEnd(lines []string, i, limit, n int) int {
	for ; i < limit; i++ {
		if strings.TrimSpace(lines[i]) != "" {
			if n--; n < 0 {
				return i
			}
		}
	}
	return limit
}
