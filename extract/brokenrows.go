package extract

import "strings"

// joinBrokenRows puts back on one line each row of a table that a mail
// client's plain-text rendering broke across lines. Apple Mail and others
// render an HTML table's cells apart by tabs and a <br> inside a cell as a
// line end, so under a header row ("Volo⇥Partenza⇥Arrivo") a row whose
// cells hold two lines each reads
//
//	AZ 1781⇥Milano Linate (LIN)
//	12/10/2027 07:00⇥Napoli (NAP)
//	12/10/2027 08:15
//
// and no reader sees a row. Under a header of three or more labels (no
// digits), the lines that together hold exactly the header's cells are
// joined by spaces, as mail/mime's own rendering of the HTML gives them;
// the last cell takes as many lines as the most broken cell before it,
// when they look alike (no tab, a digit where that cell's had one, no
// longer). Any other line, a row whose tabs overshoot, or a line that is
// a whole row of its own (a heading line and the next table's header)
// ends the table unchanged. Text without a tab is returned as it is.
func joinBrokenRows(text string) string {
	if !strings.Contains(text, "\t") {
		return text
	}
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	changed := false
	for i := 0; i < len(lines); {
		l := lines[i]
		out = append(out, l)
		i++
		n := strings.Count(l, "\t") + 1
		if n < 3 || !labelRow(l) {
			continue
		}
		for i < len(lines) {
			next, row, joined := brokenRow(lines, i, n)
			if next == i {
				break
			}
			out = append(out, row)
			i = next
			changed = changed || joined
		}
	}
	if !changed {
		return text
	}
	return strings.Join(out, "\n")
}

// labelRow reports a header row: every cell a short label without digits.
func labelRow(l string) bool {
	for _, c := range strings.Split(l, "\t") {
		c = strings.TrimSpace(c)
		if c == "" || len(c) > 40 || strings.ContainsAny(c, "0123456789") {
			return false
		}
	}
	return true
}

// brokenRow reads the row of n cells starting at lines[i]: where it ends,
// the row on one line, and whether lines were joined. next == i when no
// row of n cells starts there.
func brokenRow(lines []string, i, n int) (next int, row string, joined bool) {
	tabs, k := 0, i
	for k < len(lines) && tabs < n-1 && k-i < 2*n {
		s := lines[k]
		t := strings.Count(s, "\t")
		if strings.TrimSpace(s) == "" || k > i && t == n-1 {
			return i, "", false // a blank line, or a whole row of its own (the next table's header)
		}
		tabs += t
		k++
	}
	if tabs != n-1 {
		return i, "", false
	}
	pieces := lines[i:k]
	if len(pieces) == 1 {
		return k, pieces[0], false
	}
	// The lines each cell spans, and the longest piece that continued a cell.
	spans := make([]int, n)
	cell, refLen, refDigit := 0, 0, false
	for p, s := range pieces {
		for j, seg := range strings.Split(s, "\t") {
			if j > 0 {
				cell++
			}
			spans[cell]++
			if p > 0 && j == 0 && len(seg) > refLen {
				refLen, refDigit = len(seg), strings.ContainsAny(seg, "0123456789")
			}
		}
	}
	most := 0
	for _, s := range spans[:n-1] {
		most = max(most, s)
	}
	parts := append([]string(nil), pieces...)
	for extra := most - spans[n-1]; extra > 0 && k < len(lines); extra-- {
		s := lines[k]
		if strings.TrimSpace(s) == "" || strings.Contains(s, "\t") || len(s) > refLen+10 ||
			strings.ContainsAny(s, "0123456789") != refDigit {
			break
		}
		parts = append(parts, s)
		k++
	}
	return k, strings.Join(parts, " "), true
}
