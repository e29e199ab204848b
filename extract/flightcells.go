package extract

import "strings"

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
		if skip[i] || len(ln) > 24 || hasDigit(ln) || flightColumn(ln) == "" {
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
	var out []*Segment
	for start, tries := i, 0; start < len(lines) && tries <= 8; start++ {
		cells, at := cellRow(lines, start, len(head), skip)
		if cells == nil {
			break
		}
		seg := c.tableFlight(roles, cells, lines, h, dayFirst(head, roles))
		if seg == nil {
			tries++
			continue
		}
		out = append(out, seg)
		used = append(used, at...)
		start, tries = at[len(at)-1], 0
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, used
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
