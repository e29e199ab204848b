package extract

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Flights whose departure and arrival sit side by side as two columns
// (pairedFlights): an e-ticket receipt's rows, each a pair of cells apart
// by tabs or a run of spaces, the departure's on the left and the
// arrival's on the right ("Sun, Apr 26, 2026 ⇥ Sun, Apr 26, 2026",
// "10:25 AM ⇥ 01:20 PM", "London, GB (LHR) ⇥ Newark, NJ, US (EWR)"),
// the flight's number on a row of its own above or below. The rows come
// in any order, a cell perhaps wrapped over two rows (the other column's
// rows between); a leg starts at each row of the kind the block starts
// with (its number, its places, its dates or its clocks). Each side is
// read as a table's cell is (tableSide), so the window readers, which
// would pair the left column's clock with the right column's airport,
// never see these rows.

// pairRow is a line of two cells: left the departure's, right the
// arrival's; one of them may be empty (a wrapped cell's second row).
type pairRow struct {
	line        int
	left, right string
	kind        byte // 'n' number, 'p' place, 'd' date, 'c' clock, 'o' other
	num         string
	// alone: a line of one cell and no separator, a wrapped place's
	// second row whose column its indent no longer says.
	alone bool
}

// pairCells splits ln into its two cells: apart by tabs, or by a run of
// three spaces or more (col is then where the right column starts, in
// runes, from the block's rows before; 0 when not known yet). ok is false
// for a line of one cell that is not the right column's, or of more than
// two cells.
func pairCells(ln string, col int) (left, right string, ok bool) {
	ln = strings.TrimRight(ln, " \r")
	if strings.TrimSpace(ln) == "" {
		return "", "", false
	}
	if strings.Contains(ln, "\t") {
		lead := ln[0] == '\t'
		var cells []string
		for _, f := range strings.Split(ln, "\t") {
			if f = strings.TrimSpace(f); f != "" {
				cells = append(cells, f)
			}
		}
		switch {
		case len(cells) == 2 && !lead:
			return cells[0], cells[1], true
		case len(cells) == 1 && lead:
			return "", cells[0], true
		case len(cells) == 1 && strings.HasSuffix(ln, "\t"):
			return cells[0], "", true
		}
		return "", "", false
	}
	i := strings.Index(ln, "   ")
	if i < 0 {
		// Two spaces, where a mail client's HTML left a tab's run as
		// one no-break space and a space: the line's only such run.
		t := strings.TrimLeft(ln, " ")
		j := strings.Index(t, "  ")
		if j < 0 || strings.Contains(t[j+2:], "  ") || len(t) < len(ln) {
			return "", "", false
		}
		return strings.TrimSpace(t[:j]), strings.TrimSpace(t[j:]), true
	}
	if strings.TrimSpace(ln[:i]) == "" {
		// Indented: the right column's row alone, when it starts where
		// that column does.
		t := strings.TrimLeft(ln, " ")
		if at := utf8.RuneCountInString(ln[:len(ln)-len(t)]); col > 0 && at >= col-2 && at <= col+2 && !strings.Contains(t, "   ") {
			return "", t, true
		}
		return "", "", false
	}
	rest := strings.TrimLeft(ln[i:], " ")
	if strings.Contains(rest, "   ") {
		return "", "", false
	}
	return strings.TrimSpace(ln[:i]), rest, true
}

// pairRows is the block of two-cell rows from line h on, each with its
// kind, and the line after it.
func (c *msgContext) pairRows(lines []string, h int, skip map[int]bool) (rows []pairRow, end int) {
	col := 0
	i := h
	for ; i < len(lines) && len(rows) < 40; i++ {
		if skip[i] {
			break
		}
		ln := lines[i]
		if strings.TrimSpace(ln) == "" {
			// HTML's rows flattened with blank lines between them.
			if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" && len(rows) > 0 {
				continue
			}
			break
		}
		l, r, ok := pairCells(ln, col)
		if !ok {
			// A short line of the leg's number alone ("Flight EW 7582").
			t := strings.TrimSpace(ln)
			if n := c.pairNumber(ln); n != "" && len(t) <= 60 {
				rows = append(rows, pairRow{line: i, left: t, kind: 'n', num: n})
				continue
			}
			// The left column's wrapped place alone, its code in
			// parentheses, under its first row ("MX (MEX)" under
			// "Ciudad de México, ⇥ Cancún (CUN)").
			if len(rows) > 0 && rows[len(rows)-1].left != "" && len(t) <= 60 && len(airportCodes(t)) == 1 && findClocks(t) == nil {
				rows = append(rows, pairRow{line: i, left: t, kind: 'p', alone: true})
				continue
			}
			break
		}
		if col == 0 && l != "" && r != "" && !strings.Contains(ln, "\t") {
			col = utf8.RuneCountInString(ln[:strings.LastIndex(ln, r)])
		}
		row := pairRow{line: i, left: l, right: r, kind: 'o'}
		both := l + "\t" + r
		switch {
		case c.pairNumber(both) != "" && len(airportCodes(both)) == 0:
			row.kind, row.num = 'n', c.pairNumber(both)
		case len(airportCodes(both)) > 0:
			row.kind = 'p'
		case len(c.dates(l)) > 0 || len(c.dates(r)) > 0:
			row.kind = 'd'
		case findClocks(l) != nil || findClocks(r) != nil:
			row.kind = 'c'
		}
		rows = append(rows, row)
	}
	return rows, i
}

// pairNumber is the flight number a row or line names, as the window
// readers take one ("Flight 1 of 4 UA17", "Flug EW 7582"), or "".
func (c *msgContext) pairNumber(ln string) string {
	if !mayHoldFlightNumber(ln) {
		return ""
	}
	for _, m := range flightNumRE.FindAllStringSubmatchIndex(ln, -1) {
		if rest := ln[m[5]:]; len(rest) > 2 && rest[0] == ':' && isDigitByte(rest[1]) {
			continue // "T3 08:00": a terminal and a clock
		}
		if gateBefore(ln, m[0]) || !isFlightDesignator(ln[m[2]:m[3]]) && travelWordCounts(ln)[0] == 0 {
			continue
		}
		return ln[m[2]:m[3]] + " " + strings.TrimLeft(ln[m[4]:m[5]], "0")
	}
	return ""
}

// pairedFlights reads the flights of every block of two-cell rows in
// lines, but for the lines of skip; used are the lines read, for no other
// reader to take again.
func (c *msgContext) pairedFlights(lines []string, skip map[int]bool) (out []*Segment, used []int) {
	if !slices.ContainsFunc(lines, func(ln string) bool { return strings.Contains(ln, "(") && parenCode.MatchString(ln) }) {
		return nil, nil // no airport's code in parentheses: no side to read
	}
	for h := 0; h < len(lines); h++ {
		ln := lines[h]
		if skip[h] || !strings.Contains(ln, "\t") && !strings.Contains(ln, "  ") {
			continue
		}
		rows, end := c.pairRows(lines, h, skip)
		segs := c.pairLegs(rows, lines, h)
		if len(segs) == 0 {
			// The block's later rows are read with it or not at all:
			// each line is read once.
			h = max(h, end-1)
			continue
		}
		for _, r := range rows {
			used = append(used, r.line)
		}
		out = append(out, segs...)
		h = end - 1
	}
	return out, used
}

// pairLegs reads the legs of a block of rows that starts at line h: a
// leg from each row of the block's first kind (after a header without
// digits) to the next such row, once a row of another kind came between.
func (c *msgContext) pairLegs(rows []pairRow, lines []string, h int) []*Segment {
	for len(rows) > 0 && rows[0].kind == 'o' {
		rows = rows[1:]
	}
	places := 0
	for _, r := range rows {
		if r.kind == 'p' {
			places++
		}
	}
	if places == 0 || len(rows) < 2 {
		return nil
	}
	start := rows[0].kind
	var legs [][]pairRow
	other := true
	for _, r := range rows {
		if r.kind == start && other {
			legs = append(legs, nil)
			other = false
		}
		if r.kind != start {
			other = true
		}
		legs[len(legs)-1] = append(legs[len(legs)-1], r)
	}
	var out []*Segment
	for _, leg := range legs {
		seg := c.pairLeg(leg, lines, h, len(legs) == 1)
		if seg == nil {
			// One leg the block does not read makes the block no
			// flights': its rows are something else's.
			return nil
		}
		out = append(out, seg)
	}
	return out
}

// pairLeg reads one leg's rows: each side's cells as a flight table's
// cell, the number on the leg's number row, or, for a block of one leg,
// on a line of the three above it.
func (c *msgContext) pairLeg(leg []pairRow, lines []string, h int, alone bool) *Segment {
	var num string
	var day *dateMatch
	var dep, arr tableSide
	var place [2][]string
	for j, r := range leg {
		if r.kind == 'n' {
			if num == "" {
				num = r.num
			}
			if ds := c.dates(r.left + "\t" + r.right); day == nil && len(ds) > 0 {
				day = &ds[0]
			}
			continue
		}
		cells := []string{r.left, r.right}
		if r.alone && len(airportCodes(strings.Join(place[0], " "))) > 0 && len(airportCodes(strings.Join(place[1], " "))) == 0 {
			// The place whose code is still to come is the one wrapped.
			cells[0], cells[1] = "", r.left
		}
		for k, cell := range cells {
			if cell == "" {
				continue
			}
			// A row of no date nor clock beside a place's row is that
			// place's name wrapped ("Newark, NJ/New York," over "NY, US
			// (EWR)").
			if r.kind == 'p' || r.kind == 'o' && (j > 0 && leg[j-1].kind == 'p' || j+1 < len(leg) && leg[j+1].kind == 'p') {
				place[k] = append(place[k], cell)
				continue
			}
			side := &dep
			if k == 1 {
				side = &arr
			}
			side.read(c, cell, c.dates)
		}
	}
	if len(place[0]) == 0 || len(place[1]) == 0 {
		return nil
	}
	dep.read(c, strings.Join(place[0], " "), c.dates)
	arr.read(c, strings.Join(place[1], " "), c.dates)
	if num == "" && alone {
		for i := h - 1; i >= 0 && i >= h-3 && num == ""; i-- {
			num = c.pairNumber(lines[i])
		}
	}
	if num == "" || dep.clock == nil || dep.place == nil || arr.place == nil || dep.place.Code == "" || arr.place.Code == "" || dep.place.Code == arr.place.Code {
		return nil
	}
	if dep.day != nil {
		day = dep.day
	}
	if day == nil {
		return nil
	}
	seg := c.sidesSegment(day, &dep, &arr, num)
	// A leg that lands before it leaves, or more than a day and a half
	// later, is no leg these rows hold.
	if seg.Arrive != nil && (seg.Arrive.Before(seg.Depart.Time) || seg.Arrive.Sub(seg.Depart.Time).Hours() > 36) {
		return nil
	}
	return seg
}
