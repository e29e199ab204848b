package extract

import (
	"slices"
	"strings"
)

// A flight table flattened to a cell a line, as an e-ticket receipt's
// HTML table comes out in its text part: the header's cells each on a
// line of its own ("Flight", "Date", "From", "To", "Depart", "Arrive"),
// then each row's cells in the same order, one a line, a row's other
// lines (class, seat) between the rows.

// maxCellColumns is the most columns such a header has; more lines of
// column words in a row are a text's, not a header's.
const maxCellColumns = 8

// cellLineFlights reads the table whose header starts at line h: the run
// of lines, blank ones skipped, that each name a column (flightColumn),
// with a flight's number and both its ends among them; then rows of as
// many lines, each read as tableFlight reads a row, the next row within
// eight lines of the last. It returns the flights and the lines of the
// header and the rows read.
func (c *msgContext) cellLineFlights(lines []string, h int, skip map[int]bool) ([]*Segment, []int) {
	var head []string
	var used []int
	i := h
	for ; i < len(lines) && len(head) <= maxCellColumns; i++ {
		ln := strings.TrimSpace(lines[i])
		if ln == "" {
			continue
		}
		if skip[i] || len(ln) > 24 || hasDigit(ln) || flightColumn(ln) == "" && !otherFlightColumn(ln) {
			break
		}
		head = append(head, ln)
		used = append(used, i)
	}
	if len(head) < 3 || len(head) > maxCellColumns {
		return nil, nil
	}
	roles, ok := flightHeadRoles(head)
	if !ok {
		return nil, nil
	}
	// A cell a line first; else a cell a block of lines (cellBlockRow).
	for _, row := range []func([]string, int, int, map[int]bool) ([]string, []int){cellRow, cellBlockRow} {
		var out []*Segment
		rowUsed := used
		for start, tries := i, 0; start < len(lines) && tries <= 8; start++ {
			cells, at := row(lines, start, len(head), skip)
			if cells == nil {
				break
			}
			seg := c.tableFlight(roles, cells, lines, h, dayFirst(head, roles))
			if seg == nil {
				tries++
				continue
			}
			out = append(out, seg)
			rowUsed = append(slices.Clip(rowUsed), at...)
			start, tries = at[len(at)-1], 0
		}
		if len(out) > 0 {
			return out, rowUsed
		}
	}
	return nil, nil
}

// otherColumnWords are the headers of a flight table's columns that hold
// none of what a flight is read from (column.other: "Stops", "Fare Type",
// "Meal"): an e-ticket receipt's header names them among its own.
var otherColumnWords = wordSet("column.other")

// otherFlightColumn reports whether a header's cell is such a column's.
func otherFlightColumn(header string) bool {
	return otherColumnWords[strings.ToLower(strings.Join(strings.Fields(header), " "))]
}

// cellBlockRow is cellRow for a table whose cells are blocks of lines
// apart by blank lines, a cell's lines joined: an e-ticket receipt's
// "Calgary (AB)" over the day and the clock it leaves at. A block that
// is a flight's number alone after the first starts the next row: the
// row's last cells were empty ("Meal" with nothing under it) and are "".
func cellBlockRow(lines []string, start, n int, skip map[int]bool) ([]string, []int) {
	var cells []string
	var at []int
	cell := ""
	for i := start; i < len(lines) && len(cells) < n; i++ {
		if skip[i] {
			break
		}
		ln := strings.TrimSpace(lines[i])
		switch {
		case ln == "":
			if cell != "" {
				cells, cell = append(cells, cell), ""
			}
			continue
		case cell == "" && len(cells) > 0 && flightAlone(ln):
			i = len(lines) // the next row's
			continue
		case cell != "":
			cell += " "
		}
		cell += ln
		at = append(at, i)
	}
	if cell != "" && len(cells) < n {
		cells = append(cells, cell)
	}
	if len(cells) < 3 {
		return nil, nil
	}
	for len(cells) < n {
		cells = append(cells, "")
	}
	return cells, at
}

// flightAlone reports whether a line is a flight's number and nothing
// else ("AC323", "QF 401").
func flightAlone(ln string) bool {
	m := flightNumRE.FindStringIndex(ln)
	return m != nil && m[0] == 0 && m[1] == len(ln) && isFlightDesignator(ln[:2])
}

// cellHeadAt reports whether line h and the next two non-blank lines are
// short and without digits, as a header of a cell a line is: a byte test
// before any line's words are read.
func cellHeadAt(lines []string, h int) bool {
	for i, n := h, 0; i < len(lines) && n < 3; i++ {
		ln := strings.TrimSpace(lines[i])
		if ln == "" && i > h {
			continue
		}
		if ln == "" || len(ln) > 24 || hasDigit(ln) {
			return false
		}
		n++
		if n == 3 {
			return true
		}
	}
	return false
}

// cellRow is the n non-blank lines from line start on, trimmed, and
// where each is; nil when the text ends first or a line of skip comes.
func cellRow(lines []string, start, n int, skip map[int]bool) ([]string, []int) {
	var cells []string
	var at []int
	for i := start; i < len(lines) && len(cells) < n; i++ {
		if skip[i] {
			return nil, nil
		}
		if ln := strings.TrimSpace(lines[i]); ln != "" {
			cells = append(cells, ln)
			at = append(at, i)
		}
	}
	if len(cells) < n {
		return nil, nil
	}
	return cells, at
}
