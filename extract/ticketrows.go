package extract

import "strings"

// Rows of an airline's e-ticket receipt that give a flight on one line by
// its number, its day, the two airports by their cities' names and the
// departure's clock, a status after it (Lufthansa's receipt under "Flight
// Date from to Departure Status Class"):
//
//	LH 1089* 17.July Marseille Francfort 18:50 Confirmed L
//
// The names stand apart by single spaces, as a PDF's text gives them: the
// row is read where one split of the words between the day and the clock
// makes two airports' names (namedPair), no other.

// receiptNameRows reads such rows among lines, skipping used ones, and
// marks the lines it read.
func (c *msgContext) receiptNameRows(lines []string, used map[int]bool) []*Segment {
	var out []*Segment
	for i, ln := range lines {
		if used[i] || len(ln) > 160 {
			continue
		}
		// A cheap gate before the expressions: the row opens with a
		// designator's two capitals or digits and the number's digit
		// ("LH 1089", "U21234").
		t := strings.TrimSpace(ln)
		if len(t) < 4 || !isUpperOrDigit(t[0]) || !isUpperOrDigit(t[1]) || !isDigitByte(t[2]) && !(t[2] == ' ' && isDigitByte(t[3])) {
			continue
		}
		if seg := c.receiptNameRow(t); seg != nil {
			used[i] = true
			out = append(out, seg)
		}
	}
	return out
}

// receiptNameRow reads one row, or nil.
func (c *msgContext) receiptNameRow(ln string) *Segment {
	m := flightNumRE.FindStringSubmatchIndex(ln)
	if m == nil || m[0] != 0 || !isFlightDesignator(ln[m[2]:m[3]]) {
		return nil
	}
	num := ln[m[2]:m[3]] + " " + strings.TrimLeft(ln[m[4]:m[5]], "0")
	rest := strings.TrimLeft(strings.TrimPrefix(ln[m[1]:], "*"), " \t")
	ds := c.dates(rest)
	if len(ds) == 0 || ds[0].start != 0 {
		return nil
	}
	afterDate := rest[ds[0].end:]
	clocks := findClocks(afterDate)
	if len(clocks) == 0 {
		return nil
	}
	from, to := splitNamedPair(afterDate[:clocks[0].start])
	if from == nil {
		return nil
	}
	d := ds[0].withYear(c.ref)
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, Number: num, From: from, To: to}
	seg.Depart = resolve(at(d, &clocks[0]), c.airportZone(from), c.dateLoc)
	if seg.Depart == nil {
		return nil
	}
	// The arrival's clock right after the departure's ("18:50 20:05").
	if len(clocks) > 1 && strings.TrimSpace(afterDate[clocks[0].end:clocks[1].start]) == "" {
		seg.Arrive = resolve(at(d, &clocks[1]), c.airportZone(to), c.dateLoc)
		if seg.Arrive != nil && seg.Arrive.Before(seg.Depart.Time) {
			seg.Arrive.Time = seg.Arrive.AddDate(0, 0, 1)
		}
	}
	return seg
}

func isUpperOrDigit(b byte) bool { return b >= 'A' && b <= 'Z' || isDigitByte(b) }

// splitNamedPair reads words, two airports' names run together apart by
// single spaces ("Marseille Francfort", "Chennai Coimbatore"), as the one
// cut of them that makes two airports' names (namedPair, by oneCut); nil,
// nil for none or two.
func splitNamedPair(words string) (from, to *Place) {
	names := strings.Fields(words)
	if len(names) < 2 || len(names) > 8 {
		return nil, nil
	}
	return oneCut(names, namedPair)
}

// Rows of an itinerary that open with the departure's clock and the
// check-in's close before it, then the two cities, the number and the
// arrival's clock, the day first on the row or on a line above it
// (IndiGo's itinerary under "Date Departs Check-in/Bag drop closes From
// To Via Flight Arrives", its table's text run together by a PDF):
//
//	24Nov16 06:30 05:45 Chennai Coimbatore 6E 101 07:30
//
// The check-in's close, from a quarter of an hour to three hours before
// the departure, is what tells the row's first clock the departure's;
// the cities are read as receiptNameRow reads them.

// checkInFirstRows reads such rows among lines, skipping used ones, and
// marks the lines it read.
func (c *msgContext) checkInFirstRows(lines []string, used map[int]bool) []*Segment {
	var out []*Segment
	for i, ln := range lines {
		// A cheap gate: a short line with three clocks' colons.
		if used[i] || len(ln) > 160 || strings.Count(ln, ":") < 3 {
			continue
		}
		if seg := c.checkInFirstRow(lines, i); seg != nil {
			used[i] = true
			out = append(out, seg)
		}
	}
	return out
}

// checkInFirstRow reads the row lines[i], or nil.
func (c *msgContext) checkInFirstRow(lines []string, i int) *Segment {
	rest := strings.TrimSpace(lines[i])
	var day *dateMatch
	if ds := c.dates(rest); len(ds) > 0 && ds[0].start == 0 {
		day, rest = &ds[0], strings.TrimLeft(rest[ds[0].end:], " \t")
	}
	clocks := findClocks(rest)
	if len(clocks) < 3 || clocks[0].start != 0 || strings.TrimSpace(rest[clocks[0].end:clocks[1].start]) != "" {
		return nil
	}
	if before := clocks[0].h*60 + clocks[0].m - clocks[1].h*60 - clocks[1].m; before < 15 || before > 180 {
		return nil // no check-in's close before the departure
	}
	after := rest[clocks[1].end:]
	m := flightNumRE.FindStringSubmatchIndex(after)
	if m == nil || !isFlightDesignator(after[m[2]:m[3]]) {
		return nil
	}
	arr := findClocks(after[m[1]:])
	if len(arr) == 0 || strings.TrimSpace(after[m[1]:m[1]+arr[0].start]) != "" {
		return nil
	}
	from, to := splitNamedPair(after[:m[0]])
	if from == nil {
		return nil
	}
	if day == nil {
		// The day alone on the nearest line above with words ("13 Oct",
		// its year's digits on the line under the row).
		for k := i - 1; k >= 0 && k >= i-2; k-- {
			if t := strings.TrimSpace(lines[k]); t != "" {
				if c.dateAlone(t) {
					ds := c.dates(t)
					day = &ds[0]
				}
				break
			}
		}
	}
	if day == nil {
		return nil
	}
	d := day.withYear(c.ref)
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, Number: after[m[2]:m[3]] + " " + strings.TrimLeft(after[m[4]:m[5]], "0"), From: from, To: to}
	seg.Depart = resolve(at(d, &clocks[0]), c.airportZone(from), c.dateLoc)
	seg.Arrive = resolve(at(d, &arr[0]), c.airportZone(to), c.dateLoc)
	if seg.Depart == nil || seg.Arrive == nil {
		return nil
	}
	if seg.Arrive.Before(seg.Depart.Time) {
		seg.Arrive.Time = seg.Arrive.AddDate(0, 0, 1)
	}
	return seg
}

// Rows under a header that names a check-in's column before the
// departure's and the arrival's (US-Bangla's e-ticket under "Flight
// Checkin From To Departure Arrival Terminal Cabin Status Fleet Info"),
// the row's cells wrapped over lines by a PDF:
//
//	Flight Checkin From To Departure Arrival Terminal Cabin Status Fleet Info
//	04Apr24 04Apr24 ATR 72  600
//	BS191 18:45 Dhaka (DAC) Saidpur (SPD)
//	19:45 20:45
//
// The header's order of its three clock columns says which clock is
// which: the row's first is the desk's, not the departure's. The row is
// read only whole: one flight's number, two airports by their codes, the
// three clocks and the day.

// headerClockOrder reads a header line's clock columns: ok when it names,
// among a flight's column, one service column (check-in, boarding: the
// words of clock.service), then a departure's and an arrival's, in that
// order.
func headerClockOrder(ln string) bool {
	ws := strings.FieldsFunc(lower(ln), func(r rune) bool { return r == ' ' || r == '\t' || r == '/' || r == '|' })
	if len(ws) < 4 || len(ws) > 16 {
		return false
	}
	flight, svc, dep, arr := -1, -1, -1, -1
	for k, w := range ws {
		switch {
		case flight < 0 && flightColumnWords[w]:
			flight = k
		case svc < 0 && (serviceClockWords.In(w) || k+1 < len(ws) && serviceClockWords.In(w+" "+ws[k+1]) && !serviceClockWords.In(ws[k+1])):
			svc = k
		case dep < 0 && depLabelWords.has(w):
			dep = k
		case arr < 0 && arrColumn.has(w):
			arr = k
		}
	}
	return flight >= 0 && svc >= 0 && svc < dep && dep < arr
}

// checkInColumnRows reads such rows among lines, skipping used ones, and
// marks the lines it read.
func (c *msgContext) checkInColumnRows(lines []string, used map[int]bool) []*Segment {
	var out []*Segment
	for h, ln := range lines {
		// A cheap gate before the words: a header of words alone, three
		// clocks' colons in the lines under it.
		if len(ln) > 160 || len(ln) < 20 || strings.ContainsAny(ln, ":0123456789") || colonsUnder(lines, h) < 3 || !headerClockOrder(ln) {
			continue
		}
		// The row: the lines under the header up to a blank one, at most
		// four, none read yet, each short as a row's cells are.
		end := h + 1
		for end < len(lines) && end <= h+4 && strings.TrimSpace(lines[end]) != "" && !used[end] && len(lines[end]) <= 160 {
			end++
		}
		if end == h+1 {
			continue
		}
		if seg := c.checkInColumnRow(strings.Join(lines[h+1:end], " ")); seg != nil {
			for k := h + 1; k < end; k++ {
				used[k] = true
			}
			out = append(out, seg)
		}
	}
	return out
}

// checkInColumnRow reads a row's text run together, or nil.
func (c *msgContext) checkInColumnRow(row string) *Segment {
	codes := airportCodes(row)
	clocks := findClocks(row)
	ds := c.dates(row)
	if len(codes) != 2 || codes[0] == codes[1] || len(clocks) != 3 || len(ds) == 0 || len(ds) > 2 {
		return nil
	}
	// The flight's number is the last before the desk's clock, the
	// header's order ("Q400 VQ921 07:10": the aircraft's type a cell
	// before it); one after it is a second flight's.
	var num string
	for _, m := range flightNumRE.FindAllStringSubmatchIndex(row, -1) {
		if !isFlightDesignator(row[m[2]:m[3]]) {
			continue
		}
		if m[0] > clocks[0].start {
			return nil
		}
		num = row[m[2]:m[3]] + " " + strings.TrimLeft(row[m[4]:m[5]], "0")
	}
	if num == "" {
		return nil
	}
	from, to := &Place{Code: codes[0]}, &Place{Code: codes[1]}
	dd, ad := ds[0].withYear(c.ref), ds[0].withYear(c.ref)
	if len(ds) == 2 {
		if !legDays(ds[0], ds[1]) {
			return nil
		}
		ad = ds[1].withYear(c.ref)
	}
	seg := &Segment{Type: KindFlight, Status: StatusConfirmed, Number: num, From: from, To: to}
	seg.Depart = resolve(at(dd, &clocks[1]), c.airportZone(from), c.dateLoc)
	seg.Arrive = resolve(at(ad, &clocks[2]), c.airportZone(to), c.dateLoc)
	if seg.Depart == nil || seg.Arrive == nil {
		return nil
	}
	if seg.Arrive.Before(seg.Depart.Time) && len(ds) == 1 {
		seg.Arrive.Time = seg.Arrive.AddDate(0, 0, 1)
	}
	return seg
}

// colonsUnder counts the colons of the four lines under lines[h].
func colonsUnder(lines []string, h int) int {
	n := 0
	for k := h + 1; k < len(lines) && k <= h+4; k++ {
		n += strings.Count(lines[k], ":")
	}
	return n
}
