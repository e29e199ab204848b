package extract

import (
	"regexp"
	"strings"
)

// The table reader's cells: cells apart by bars, dots or tabs (the mime
// package keeps a data table's cells apart by tabs and each row on a
// line), and labelled cells set onto lines of their own.

// cellLabelRE is a label that starts a cell of a line whose cells are
// apart by two spaces or more: "  Partenza: 08:15".
var cellLabelRE = regexp.MustCompile(`(?:\s{2,}|\t)\p{L}[\p{L} .'’-]{0,24}:\s`)

// labelCells puts each labelled cell of a line on a line of its own when
// the line holds three or more ("Da: Lecce  A: Gallipoli  Partenza: 08:15
// Arrivo: 09:22"), so that each label is read as if it started its line.
func labelCells(lines []string) []string {
	var out []string
	for i, ln := range lines {
		cuts := cellLabelRE.FindAllStringIndex(ln, 8)
		if len(cuts) < 2 || !strings.Contains(ln[:cuts[0][0]], ":") {
			if out != nil {
				out = append(out, ln)
			}
			continue
		}
		if out == nil {
			out = append(out, lines[:i]...)
		}
		prev := 0
		for _, c := range cuts {
			out = append(out, strings.TrimSpace(ln[prev:c[0]]))
			prev = c[0]
		}
		out = append(out, strings.TrimSpace(ln[prev:]))
	}
	if out == nil {
		return lines
	}
	return out
}

// cellSplitRE is what keeps a line's cells apart: a middle dot, a bullet,
// a bar or a tab.
var cellSplitRE = regexp.MustCompile(`\s*[·•|\t]\s*`)
