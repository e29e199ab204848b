package extract

import (
	"strconv"
	"strings"
	"unicode"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
)

// Flights laid out as a table (issue 46 class 2): a header row whose
// cells name what each column holds (flight, date, from, to, departs,
// arrives, in every language's words of extract/lang), then a row a
// flight. The header says which cell is which, so a date ("JUN 13") is
// never read as a flight number nor a header ("FROM", "STD") as an
// airport, and each table under its own heading (outbound, return) is
// read on its own. HTML tables come flattened with their cells apart by
// tabs, text tables with their cells apart by spaces (table.go's
// headedTable reads both).

var (
	flightColumnWords = wordSet("column.flight")
	dateColumnWords   = wordSet("column.date")
	depColumnWords    = wordSet("column.departure")
	arrColumnWords    = wordSet("column.arrival")
	// englishColumnWords are the words English heads a flight table's
	// columns with: a header in none of them is in another language,
	// whose dates put the day first.
	englishColumnWords = func() map[string]bool {
		m := map[string]bool{}
		for _, c := range []string{"column.flight", "column.date", "column.departure", "column.arrival", "departure", "arrival", "departure.marker", "arrival.marker", "station.from", "station.to"} {
			for _, e := range lang.Of("en", c) {
				w, _ := strings.CutSuffix(e, `\.?`)
				m[w] = true
			}
		}
		return m
	}()
)

// dayFirst reports whether a table's header is in a language other than
// English: a header that names a column has a word English has not
// ("Vol", "Départ", "Arrivée" beside "Date", which is both). Its slashed
// dates are then day first ("10/01/2030"), whatever the sender's domain
// says.
func dayFirst(head, roles []string) bool {
	for k, h := range head {
		if roles[k] == "" {
			continue
		}
		english := false
		for _, w := range strings.FieldsFunc(strings.ToLower(h), func(r rune) bool { return !unicode.IsLetter(r) }) {
			english = english || englishColumnWords[w]
		}
		if !english {
			return true
		}
	}
	return false
}

// flightColumn is what a flight table's column holds by its header:
// "flight" its number, "date" the flight's day, "dep" and "arr" the
// departure's and the arrival's airport, clock or date (the cell says
// which: "From", "Departs", "Heure de départ", "Abflughafen", "STD"),
// "" anything else (class, terminal, status, seat).
func flightColumn(header string) string {
	h := strings.ToLower(strings.TrimSpace(header))
	words := strings.FieldsFunc(h, func(r rune) bool { return !unicode.IsLetter(r) })
	if len(words) == 0 || len(words) > 4 {
		return ""
	}
	dep, arr := false, false
	for _, w := range words {
		dep = dep || depColumn.has(w) || depColumnWords[w]
		arr = arr || arrColumn.has(w) || arrColumnWords[w]
	}
	switch {
	case dep && arr:
		return "" // "Dep/Arr": both clocks in one cell
	case dep:
		return "dep"
	case arr:
		return "arr"
	}
	for _, w := range words {
		if dateColumnWords[w] {
			return "date"
		}
	}
	for _, w := range words {
		if flightColumnWords[w] {
			return "flight"
		}
	}
	// The small words ("From", "To", "Von", "Da", "A") only as the whole
	// header: "a" and "in" are in many a header's text.
	whole := strings.Join(words, " ")
	switch {
	case stationFromWords[whole] || fromColumn.has(whole):
		return "dep"
	case stationToWords[whole] || toColumn.has(whole):
		return "arr"
	}
	return ""
}

var (
	// cellOffsetRE is a clock's UTC offset written in its cell: "(UTC+02:00)",
	// "GMT+1", "UTC -5".
	cellOffsetRE = lazyregexp.New(`\(?\b(?:UTC|GMT)\s?([+\-−])\s?(\d{1,2})(?::?(\d{2}))?\)?`)
	// cellDayPlusRE is an arrival's days after the departure's: "+1",
	// "(+1)", "+1 day".
	cellDayPlusRE = lazyregexp.New(`(?:^|[\s(])\+\s?([1-3])(?:\s?\p{L}+)?\)?(?:\s|$)`)
)

// cellDayMonthRE is a date without its year as a table's date column
// prints it, a weekday perhaps before it: "24/11", "6. 3.", "ons 24/11",
// "Fr 11.06.". Alone in text it may be anything; under a header that
// says "Date" it is a day.
var cellDayMonthRE = lazyregexp.New(`^(?:\p{L}{2,10}\.?,?\s+)?(\d{1,2})\s?[./-]\s?(\d{1,2})\.?$`)

// cellDate is the date of a table's date cell: as text writes dates,
// else a day and month alone (month first only when monthFirst).
func cellDate(cell string, dates func(string) []dateMatch, monthFirst bool) *dateMatch {
	if ds := dates(cell); len(ds) > 0 {
		return &ds[0]
	}
	m := cellDayMonthRE.FindStringSubmatch(strings.TrimSpace(cell))
	if m == nil {
		return nil
	}
	d, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	if monthFirst {
		d, mo = mo, d
	}
	if !validDate(2000, mo, d) {
		return nil
	}
	return &dateMatch{m: mo, d: d}
}

// tableSide is what a row's cells say of one end of a flight.
type tableSide struct {
	place *Place
	name  string
	clock *clockMatch
	day   *dateMatch
	plus  int
}

// read takes what a cell of the side's columns holds: its clock (with
// the offset written with it), the days it is after the departure, its
// date, and what is left, the airport (a code in parentheses or alone,
// or a name).
func (s *tableSide) read(c *msgContext, cell string, dates func(string) []dateMatch) {
	blank := func(ln string, a, b int) string { return ln[:a] + strings.Repeat(" ", b-a) + ln[b:] }
	offset, hasOffset := 0, false
	if m := cellOffsetRE.FindStringSubmatchIndex(cell); m != nil {
		h, _ := strconv.Atoi(cell[m[4]:m[5]])
		mi := 0
		if m[6] >= 0 {
			mi, _ = strconv.Atoi(cell[m[6]:m[7]])
		}
		offset, hasOffset = h*3600+mi*60, h <= 14
		if cell[m[2]:m[3]] != "+" {
			offset = -offset
		}
		cell = blank(cell, m[0], m[1])
	}
	if m := cellDayPlusRE.FindStringSubmatchIndex(cell); m != nil {
		s.plus, _ = strconv.Atoi(cell[m[2]:m[3]])
		cell = blank(cell, m[0], m[1])
	}
	clocks := findClocks(cell)
	if len(clocks) > 0 && s.clock == nil {
		ck := clocks[0]
		if hasOffset && !ck.hasOffset {
			ck.hasOffset, ck.offset = true, offset
		}
		s.clock = &ck
	}
	if ds := dates(cell); len(ds) > 0 && s.day == nil {
		s.day = &ds[0]
	}
	if s.place != nil {
		return
	}
	if m := parenCode.FindStringSubmatchIndex(cell); m != nil && places.Known(cell[m[2]:m[3]]) {
		// Blanked, not cut, so that the clocks' places still hold.
		name, code := cleanPlaceName(blank(cell, m[0], m[1]), clocks, c), cell[m[2]:m[3]]
		if !regionInParens(name, code) {
			s.place = &Place{Name: name, Code: code}
			return
		}
	}
	name := cleanPlaceName(cell, clocks, c)
	if name == "" {
		return
	}
	words := strings.Fields(name)
	// A code alone or at either end of its name: "LHR", "Bergamo BGY",
	// "MUC Munich".
	for _, w := range []string{words[len(words)-1], words[0]} {
		if len(w) == 3 && isUpper(w) && places.Known(w) && !commonUpperWord[w] {
			s.place = &Place{Name: strings.TrimSpace(strings.Replace(name, w, "", 1)), Code: w}
			return
		}
	}
	s.name = name
}

// tableFlights reads the flights of every table of lines whose header
// names a flight's number and both its ends, but for the lines of skip;
// used are the lines it read (each header and row), for no other reader
// to take again.
func (c *msgContext) tableFlights(lines []string, skip map[int]bool) (out []*Segment, used []int) {
	for h := 0; h < len(lines); h++ {
		ln := lines[h]
		if !skip[h] && strings.Contains(ln, "\t") && hasDigit(ln) {
			// A table turned on its side: a row a field, a column a
			// flight ("Flight | BA 117 | BA 178", "Date | …").
			if segs, end := c.sideFlights(lines, h); len(segs) > 0 {
				for i := h; i <= end; i++ {
					used = append(used, i)
				}
				out = append(out, segs...)
				h = end
			}
			continue
		}
		if !skip[h] && cellHeadAt(lines, h) && flightColumn(ln) != "" {
			// A table flattened to a cell a line (flightcells.go).
			if segs, rowLines := c.cellLineFlights(lines, h, skip); len(segs) > 0 {
				out = append(out, segs...)
				used = append(used, rowLines...)
				h = rowLines[len(rowLines)-1]
				continue
			}
		}
		if skip[h] || !strings.Contains(ln, "\t") && !strings.Contains(ln, "  ") || hasDigit(ln) {
			continue
		}
		head, rows := headedTable(lines, h)
		if len(rows) == 0 {
			continue
		}
		roles := make([]string, len(head))
		has := map[string]bool{}
		for k, hc := range head {
			roles[k] = flightColumn(hc)
			has[roles[k]] = true
		}
		if !has["flight"] || !has["dep"] || !has["arr"] {
			continue
		}
		var segs []*Segment
		for _, r := range rows {
			if seg := c.tableFlight(roles, r.cells, lines, h, dayFirst(head, roles)); seg != nil {
				segs = append(segs, seg)
				used = append(used, r.line)
			}
		}
		if len(segs) == 0 {
			continue
		}
		used = append(used, h)
		out = append(out, segs...)
		h = rows[len(rows)-1].line
	}
	return out, used
}

// sideFlights reads a flight table turned on its side from its first row,
// line h: each row's first cell its header (flightColumn), each further
// column a flight, as tableFlight reads a row. The table ends at end.
func (c *msgContext) sideFlights(lines []string, h int) (out []*Segment, end int) {
	first, _, _ := strings.Cut(lines[h], "\t")
	if flightColumn(first) == "" {
		return nil, h
	}
	cols, end := cellColumns(lines, h)
	if len(cols) < 2 || end == h {
		return nil, h
	}
	head := cols[0]
	roles, ok := flightHeadRoles(head)
	if !ok {
		return nil, h
	}
	for _, col := range cols[1:] {
		if seg := c.tableFlight(roles, col, lines, h, dayFirst(head, roles)); seg != nil {
			out = append(out, seg)
		}
	}
	return out, end
}

// tableFlight reads one row of a flight table (roles by flightColumn)
// under the header at line h: its number, its airports, its departure's
// date and clock, its arrival's clock on the departure's day unless the
// row gives its own date or days after ("+1"). A row without a date
// takes the nearest date above the table (a heading: "Outbound – Fri 13
// June"). Both airports must be known: a cell no table places is no
// airport. dayFirst reads the row's dates day first (a header in another
// language than English).
func (c *msgContext) tableFlight(roles, cells []string, lines []string, h int, dayFirst bool) *Segment {
	dates := c.dates
	if dayFirst {
		dates = func(s string) []dateMatch { return c.findDates(s, false) }
	}
	var num string
	var day *dateMatch
	var side [2]tableSide
	for k, role := range roles {
		cell := cells[k]
		switch role {
		case "flight":
			if num != "" {
				continue
			}
			if m := flightNumRE.FindStringSubmatch(cell); m != nil {
				num = m[1] + " " + strings.TrimLeft(m[2], "0")
			} else if m := icaoFlightRE.FindStringSubmatch(cell); m != nil {
				num = m[1] + " " + strings.TrimLeft(m[2], "0")
			} else if hasDigit(cell) {
				// "AMERICAN AIRLINES 2714" (flightnamed.go).
				num = namedFlightNumber(cell, c.airlineDesignator(lines))
			}
		case "date":
			if day == nil {
				day = cellDate(cell, dates, !dayFirst && c.usSender())
			}
		case "dep":
			side[0].read(c, cell, dates)
		case "arr":
			side[1].read(c, cell, dates)
		}
	}
	dep, arr := &side[0], &side[1]
	if num == "" || dep.clock == nil {
		return nil
	}
	if dep.place == nil || arr.place == nil {
		a, b := dep.name, arr.name
		if dep.place != nil {
			a = dep.place.Name
		}
		if arr.place != nil {
			b = arr.place.Name
		}
		from, to := namedPair(a, b)
		if dep.place == nil {
			dep.place = from
		}
		if arr.place == nil {
			arr.place = to
		}
	}
	if dep.place == nil || arr.place == nil || dep.place.Code == "" || arr.place.Code == "" || dep.place.Code == arr.place.Code {
		return nil
	}
	if day == nil {
		day = dep.day
	}
	for i := h - 1; day == nil && i >= 0 && i >= h-15; i-- {
		if ds := c.dates(lines[i]); len(ds) > 0 {
			day = &ds[len(ds)-1]
		}
	}
	if day == nil {
		return nil
	}
	return c.sidesSegment(day, dep, arr, num)
}

// sidesSegment is flight num from dep to arr, leaving on day: each clock
// at its airport's offset, the arrival on its own day, else on the days
// after the departure it says ("+1"), else on the next when it lands
// before it leaves.
func (c *msgContext) sidesSegment(day *dateMatch, dep, arr *tableSide, num string) *Segment {
	d := day.withYear(c.ref)
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, Number: num, From: dep.place, To: arr.place}
	seg.Depart = resolve(at(d, dep.clock), c.airportZone(dep.place), c.dateLoc)
	if arr.clock != nil {
		ad := d
		if arr.day != nil {
			ad = arr.day.withYear(c.ref)
		}
		seg.Arrive = resolve(at(ad, arr.clock), c.airportZone(arr.place), c.dateLoc)
		switch {
		case arr.day == nil && arr.plus > 0:
			seg.Arrive.Time = seg.Arrive.AddDate(0, 0, arr.plus)
		case arr.day == nil && seg.Arrive.Before(seg.Depart.Time):
			seg.Arrive.Time = seg.Arrive.AddDate(0, 0, 1)
		}
	}
	return seg
}

// flightTableShaped reports whether text holds a flight table that
// tableFlights reads: its header and rows make a flight mail whatever its
// words ("Flynr.", "Let" in a mail whose words name no flight).
func (c *msgContext) flightTableShaped(text string) bool {
	if !strings.Contains(text, "\t") && !strings.Contains(text, "  ") {
		return false
	}
	segs, _ := c.tableFlights(strings.Split(text, "\n"), nil)
	return len(segs) > 0
}

// flightHeadRoles is each heading cell's column (flightColumn), and
// whether the headings name a flight, a departure and an arrival: a
// table of flights by its header row, whichever way it is laid out.
func flightHeadRoles(head []string) ([]string, bool) {
	roles := make([]string, len(head))
	has := map[string]bool{}
	for k, hc := range head {
		roles[k] = flightColumn(hc)
		has[roles[k]] = true
	}
	return roles, has["flight"] && has["dep"] && has["arr"]
}

// regionInParens reports whether the three capitals in parentheses after
// a place's name are its state's, not its airport's: "Melbourne (VIC)",
// "Brisbane (QLD)" (Vicenza's and Blida's codes too). The capitals are a
// state's of three letters (Australia's) and the name alone names an
// airport in another zone than the code's; "Paris (ORY)" and "New York
// (EWR)" keep their codes, and so does a name the cleaning cut short
// ("St Petersburg (LED)" read as "Petersburg", Alaska's).
func regionInParens(name, code string) bool {
	if !threeLetterStates[code] {
		return false
	}
	own, ok := places.AirportByName(name)
	if !ok || own == code {
		return false
	}
	z, _ := places.Zone(code)
	oz, _ := places.Zone(own)
	return z != "" && oz != "" && z != oz
}

// threeLetterStates are the states abbreviated in three capitals after a
// city, as Australia's are ("Sydney (NSW)"); the two-letter ones of the
// United States and Canada are places.InRegion's.
var threeLetterStates = map[string]bool{"NSW": true, "VIC": true, "QLD": true, "TAS": true, "ACT": true}
