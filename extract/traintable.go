package extract

import (
	"cmp"
	"mailnode/extract/lazyregexp"
	"strings"
	"time"
)

// A train leg as a table's row: a row under a header that names each
// column (From / To / Depart / Arrive, Von / Nach / Ab / An, a train's
// column), or a row of a table whose cells flattening has joined.

// tableRowLeg reads a leg that is one row of a table under a header row
// that names the departure and the arrival ("Train From Departs To
// Arrives" over "1S09 London Kings Cross 16/07/2027 09:00 Edinburgh
// 16/07/2027 13:20"): flattened HTML keeps a table's cells on one line
// with nothing between them, so the header is what says which clock is
// which. Each station is the text before its clock, less its date (else
// the date above the table, day); a leading token with a digit is the
// train.
func (c *msgContext) tableRowLeg(lines []string, i int, clocks []clockMatch, ref time.Time, day dateMatch) *Segment {
	ln := lines[i]
	h := i - 1
	for h >= 0 && h > i-4 && strings.TrimSpace(lines[h]) == "" {
		h--
	}
	// A later row of the same table (a change's second leg) is under the
	// rows before it: its header is above them.
	for rows := 0; h >= 0 && rows < 8 && sameTabRow(lines[h], ln); rows++ {
		h--
		for h >= 0 && h > i-40 && strings.TrimSpace(lines[h]) == "" {
			h--
		}
	}
	if h < 0 || findClocks(lines[h]) != nil || !depLabel.MatchString(lines[h]) || !arrLabel.MatchString(lines[h]) {
		return nil
	}
	us := c.usSender()
	cell := func(s string) (name string, d *dateMatch) {
		if ds := c.findDates(s, us); len(ds) > 0 {
			d = &ds[0]
			before := withoutWeekday(s[:ds[0].start])
			if wordCellBefore(before, s[ds[0].end:]) {
				// A column of words before the date's, the station's
				// after it: the leg's direction ("Vuelta", "Outward"),
				// no part of the station's name.
				before = ""
			}
			s = before + " " + s[ds[0].end:]
		}
		return s, d
	}
	first, depDay := cell(ln[:clocks[0].start])
	second, arrDay := cell(ln[clocks[0].end:clocks[1].start])
	number, k := headedTrainCell(lines[h], ln)
	if k >= 0 {
		// The train's own column by its header ("Treno", "Zug"): its
		// cell is no part of a station's name.
		cell := strings.Split(ln, "\t")[k]
		if strings.Contains(first, cell) {
			first = strings.Replace(first, cell, " ", 1)
		} else {
			second = strings.Replace(second, cell, " ", 1)
		}
	} else if t := trainNumRE.FindStringIndex(first); t != nil {
		number = normaliseTrain(first[t[0]:t[1]])
		first = first[:t[0]] + " " + first[t[1]:]
	} else if f := strings.Fields(first); len(f) > 1 && hasDigit(f[0]) && len(f[0]) <= 8 {
		number, first = f[0], strings.Join(f[1:], " ")
	} else if f := strings.Fields(ln[clocks[1].end:]); len(f) == 1 && allDigits(f[0]) && len(f[0]) <= 6 && !seatOrBayHeaded(lines[h]) {
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

// seatOrBayHeaded reports whether a table's header ends in a column of
// bays, platforms or seats ("… Llegada Dársena"): its numbers are no
// train's.
func seatOrBayHeaded(header string) bool {
	cells := strings.Split(strings.TrimSpace(header), "\t")
	last := strings.ToLower(strings.Trim(cells[len(cells)-1], " .:"))
	return notService[last] || ticketClass.In(last)
}

// wordCellBefore reports whether before, a row's text before its date's
// cell, is one cell of words alone (no digit: a train's number stays) and
// after, the text after the date, holds a cell of its own.
func wordCellBefore(before, after string) bool {
	b := strings.TrimSpace(before)
	return b != "" && strings.HasSuffix(strings.TrimRight(before, " "), "\t") && !strings.Contains(b, "\t") &&
		!hasDigit(b) && strings.HasPrefix(after, "\t") && strings.TrimSpace(after) != ""
}

// withoutWeekday is s, the text before a date, less the weekday's name
// that ends it ("Rosenheim Di, " before "15.10.2030", "Amsterdam
// Sloterdijk za ").
func withoutWeekday(s string) string {
	t := strings.TrimRight(s, " ,.\t")
	i := strings.LastIndexAny(t, " \t")
	if i < 0 || weekdayNames[lower(strings.TrimRight(t[i+1:], "."))] == 0 {
		return s
	}
	return t[:i+1]
}

// headedTrainCell is the cell of row, cells apart by tabs, under the
// header's column of the train ("Treno", "Zug"), when the two have as
// many cells and that one holds a number; and its index, else -1.
func headedTrainCell(header, row string) (string, int) {
	hc, rc := strings.Split(header, "\t"), strings.Split(row, "\t")
	if len(hc) < 3 || len(hc) != len(rc) {
		return "", -1
	}
	for k, h := range hc {
		if trainColumn(lower(strings.TrimSpace(h))) == "train" {
			if v := strings.Join(strings.Fields(rc[k]), " "); hasDigit(v) && len(v) <= 24 && findClocks(v) == nil {
				return v, k
			}
			return "", -1
		}
	}
	return "", -1
}

// sameTabRow reports whether a, a line above row, is a row of the same
// table: as many cells apart by tabs, two clocks.
func sameTabRow(a, row string) bool {
	n := strings.Count(row, "\t")
	return n > 0 && strings.Count(a, "\t") == n && len(findClocks(a)) == 2
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
var trainColumnRE = lazyregexp.New(`^(?:train|zug|treno|tren|vlak|trein|tåg|tog|juna|pociąg|comboio|trem|поезд|потяг|поїзд|влак|воз|τρένο|τρενο|vonat|traukinys|vilciens|rong)$`)

// trainColumn is what a train table's column holds by its header's
// word: a station ("from", "to"), a clock ("dep", "arr"), the train.
func trainColumn(w string) string {
	switch {
	case stationFromWords[w] || fromColumn.has(w) && !depColumn.has(w):
		return "from"
	case stationToWords[w] || toColumn.has(w) && !arrColumn.has(w):
		return "to"
	case depColumn.has(w):
		return "dep"
	case arrColumn.has(w):
		return "arr"
	case trainColumnRE.MatchString(w):
		return "train"
	}
	return ""
}

// headerRowLeg reads a row of a table whose header names each column
// (the mime package keeps cells apart by tabs): "From To Depart Arrive",
// then "London King's Cross, Hull, 10:48, 13:35". A column's header
// says what its cell holds; the stations' columns hold no clock.
func (c *msgContext) headerRowLeg(lines []string, i int, ref time.Time, day dateMatch) *Segment {
	head, cells, ok := tabRow(lines, i, 4)
	if !ok {
		return nil
	}
	row := lines[i]
	col := columns(head, trainColumn)
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

// cellTableLegs reads legs from tables laid out as columns of stops, two
// columns a leg (an Amtrak-style ticket: "New York, NY - Penn Station
// (NYP)" beside "Washington, DC - Union Station (WAS)", "Depart 8:05 AM"
// beside "Arrive 11:35 AM" on the row under them, each stop's date under
// that): in each column the clock is the cell with one clock, the station
// the nearest cell above it that names one (else the one below it), the
// date a cell of the column's, else the nearest above the table. The
// departure's column is the one its marker or its header names, else the
// left one. The train is named on the lines above the table ("Train 171:
// Northeast Regional"). Read before the readers of lines, which would
// take the cells for stops stacked one under the other.
func (c *msgContext) cellTableLegs(text string, ref time.Time) []*Segment {
	if !strings.Contains(text, "\t") {
		return nil
	}
	lines := strings.Split(text, "\n")
	var legs []*Segment
	prevEnd := -1
	for i := 0; i < len(lines); i++ {
		if n := strings.Count(lines[i], "\t"); n >= 2 && n <= 4 {
			// Three to five columns: the journey's stops, its changes
			// between its ends.
			more, end := c.cellTableStops(lines, i, ref, prevEnd)
			if len(more) > 0 {
				legs = append(legs, more...)
				prevEnd, i = end, end
			}
			continue
		}
		if strings.Count(lines[i], "\t") != 1 {
			continue
		}
		cols, end := cellColumns(lines, i)
		if end-i < 2 {
			continue
		}
		type stop struct {
			station  string
			clock    *clockMatch
			date     *dateMatch
			dep, arr bool
		}
		var stops [2]stop
		ok := true
		for k, col := range cols {
			s := &stops[k]
			at := -1
			for r, cell := range col {
				if cs := findClocks(cell); len(cs) == 1 && at < 0 {
					at, s.clock = r, &cs[0]
					s.dep, s.arr = stopMarks(cell[:cs[0].start])
				}
				if ds := c.dates(cell); len(ds) > 0 && s.date == nil {
					d := ds[0].withYear(ref)
					s.date = &d
				}
			}
			if r := trainColumn(strings.ToLower(strings.Trim(col[0], ".: "))); r == "from" || r == "dep" {
				s.dep = true
			} else if r == "to" || r == "arr" {
				s.arr = true
			}
			if at < 0 {
				ok = false
				break
			}
			// The station: the nearest cell above the clock's that names
			// one, else the cell under it.
			for r := at - 1; r >= 0 && s.station == ""; r-- {
				if !hasDigit(col[r]) {
					s.station = stationName(col[r])
				}
			}
			if s.station == "" && at+1 < len(col) && !hasDigit(col[at+1]) {
				s.station = stationName(col[at+1])
			}
			if s.station == "" {
				ok = false
				break
			}
		}
		if !ok || stops[0].station == stops[1].station {
			i = end
			continue
		}
		a, b := stops[0], stops[1]
		if a.arr && !a.dep || b.dep && !b.arr {
			a, b = b, a
		}
		// The date above the table, and the train named there.
		day, number := a.date, ""
		for k := i - 1; k > prevEnd && k >= i-6; k-- {
			ln := lines[k]
			if day == nil {
				if ds := c.dates(ln); len(ds) > 0 {
					d := ds[0].withYear(ref)
					day = &d
				}
			}
			if number == "" {
				// A service's code with the number ("AVE 02071") before
				// the number a label gives.
				if m := trainLabel(ln); m != nil {
					number = m[1]
					if t := trainNumRE.FindString(ln); strings.HasSuffix(t, m[1]) {
						number = normaliseTrain(t)
					}
				} else if t := trainNumRE.FindString(ln); t != "" {
					number = normaliseTrain(t)
				}
			}
		}
		if day == nil {
			i = end
			continue
		}
		arrDay := day
		if b.date != nil {
			arrDay = b.date
		}
		leg := c.railLeg(number, a.station, b.station, *day, *arrDay, a.clock, b.clock)
		if isBus(number) {
			leg.Type = KindBus
		}
		legs = append(legs, leg)
		prevEnd, i = end, end
	}
	return legs
}

// cellTableStops reads legs from a table laid out as three to five columns
// of stops (the first and last the journey's ends, those between its
// changes): each column's station (the first cell that names one, above
// its clocks), its clocks (an intermediate stop's arrival and departure,
// each by its marker, else the first and the last: "an 08:58 / ab
// 09:04"), its train (a cell's service, "IC 61 Gleis 5") and date, else
// the date and train above the table. A leg runs from each column to the
// next. lines[i] is the table's first row; end its last.
func (c *msgContext) cellTableStops(lines []string, i int, ref time.Time, prevEnd int) (legs []*Segment, end int) {
	cols, end := cellColumns(lines, i)
	if len(cols) < 3 || len(cols) > 5 || end-i < 1 {
		return nil, end
	}
	type stop struct {
		station  string
		dep, arr *clockMatch
		train    string
		date     *dateMatch
	}
	stops := make([]stop, len(cols))
	for k, col := range cols {
		s := &stops[k]
		var clocks []clockMatch
		for _, cell := range col {
			cs := findClocks(cell)
			// A header's word ("Ab", "Von", "Departure") names no station.
			if len(cs) == 0 && s.station == "" && clocks == nil && !hasDigit(cell) && trainColumn(strings.ToLower(strings.Trim(cell, ".: "))) == "" {
				s.station = stationName(cell)
			}
			prev := 0
			for _, ck := range cs {
				dep, arr := stopMarks(cell[prev:ck.start])
				ck := ck
				switch {
				case dep && !arr && s.dep == nil:
					s.dep = &ck
				case arr && !dep && s.arr == nil:
					s.arr = &ck
				}
				clocks = append(clocks, ck)
				prev = ck.end
			}
			if s.train == "" && len(cs) == 0 {
				if t := trainNumRE.FindString(cell); t != "" {
					s.train = normaliseTrain(t)
				}
			}
			if ds := c.dates(cell); len(ds) > 0 && s.date == nil {
				d := ds[0].withYear(ref)
				s.date = &d
			}
		}
		if s.station == "" || len(clocks) == 0 {
			return nil, end
		}
		if s.arr == nil {
			s.arr = &clocks[0]
		}
		if s.dep == nil {
			s.dep = &clocks[len(clocks)-1]
		}
	}
	// The date above the table, and the train named there.
	var day *dateMatch
	number := ""
	for k := i - 1; k > prevEnd && k >= i-6; k-- {
		if day == nil {
			if ds := c.dates(lines[k]); len(ds) > 0 {
				d := ds[0].withYear(ref)
				day = &d
			}
		}
		if number == "" {
			if t := trainNumRE.FindString(lines[k]); t != "" {
				number = normaliseTrain(t)
			}
		}
	}
	for k := 0; k+1 < len(stops); k++ {
		a, b := stops[k], stops[k+1]
		depDay, arrDay := cmp.Or(a.date, day), cmp.Or(b.date, a.date, day)
		if depDay == nil || a.station == b.station {
			return nil, end
		}
		legs = append(legs, c.railLeg(cmp.Or(a.train, number), a.station, b.station, *depDay, *arrDay, a.dep, b.arr))
	}
	return legs, end
}
