package pdfdoc

import (
	"math"
	"slices"
	"strings"

	"github.com/ledongthuc/pdf"
)

// joinWrapped moves the lines of a table cell whose text wrapped ("SK"
// over "4402", "Oslo Gardermoen" over "(OSL)") up onto the cell's first
// line, after its text, so that a row of the table comes out as one line
// ("SK 4402   Oslo Gardermoen (OSL)   Tromsø (TOS)"); laid out as they
// stand, the tails make a row of their own that the readers take for the
// next row or lose. A line is a cell's tail when the producer draws it
// right after the cell's line above and then goes back up to draw the
// row's next cell (producers draw a table cell by cell: Chromium,
// LibreOffice), it starts where the cell starts, one line below, in the
// same font and size, and its first word would not have fitted on the
// line above before the next cell: a line of a block that was not
// wrapped (an address's street under a hotel's name) and a value under
// its header drawn column by column (the header in another font) stay
// where they are. Only a cell's second line is a tail (nextInRow).
func joinWrapped(texts []pdf.Text) []pdf.Text {
	pieceEnd := func(t pdf.Text) float64 {
		if t.W > 0 {
			return t.X + t.W
		}
		return t.X + max(t.FontSize, 4)/2
	}
	var runs []textRun
	for i, t := range texts {
		if t.S == "" {
			continue
		}
		size := max(t.FontSize, 4)
		if n := len(runs); n > 0 {
			r := &runs[n-1]
			if math.Abs(t.Y-r.y) <= r.size/3 && t.X >= r.end-size && t.X <= r.end+size {
				r.to, r.end = i+1, pieceEnd(t)
				continue
			}
		}
		runs = append(runs, textRun{from: i, to: i + 1, x: t.X, y: t.Y, end: pieceEnd(t), size: size})
	}
	if len(runs) < 3 {
		return texts
	}
	var out []pdf.Text
	// The cell being continued: its row's baseline, where it starts and
	// where its text now ends, and the baseline of its last line as drawn.
	var cellY, cellX, cellEnd, lastY float64
	cell, cellLast := -1, 0
	for j, r := range runs {
		if cell >= 0 && r.size == runs[cell].size && texts[r.from].Font == texts[cellLast].Font && math.Abs(r.x-cellX) <= max(1, r.size/10) {
			if pitch := lastY - r.y; pitch >= 0.8*r.size && pitch <= 1.5*r.size {
				if j+1 >= len(runs) {
					break
				}
				if next, ok := nextInRow(runs[j+1], cellY, cellX); ok && cellEnd+firstWord(texts[r.from:r.to]) > next-r.size {
					if out == nil {
						out = slices.Clone(texts)
					}
					// The tail's text goes into the cell's last piece, a
					// space before it and a column's gap after it (the
					// piece keeps its place and width: the gap rows reckons
					// to the next cell is the first line's).
					var tail strings.Builder
					for i := r.from; i < r.to; i++ {
						tail.WriteString(out[i].S)
						out[i].S = ""
					}
					out[cellLast].S += " " + strings.TrimSpace(tail.String()) + "   "
					cellEnd += r.size/4 + r.end - r.x
					lastY = r.y
					continue
				}
			}
		}
		cell, cellY, cellX, cellEnd, lastY, cellLast = j, r.y, r.x, r.end, r.y, r.to-1
	}
	if out == nil {
		return texts
	}
	return out
}

// textRun is pieces drawn one after another along a line: texts[from:to],
// from x to end on baseline y.
type textRun struct {
	from, to  int
	x, y, end float64
	size      float64
}

// nextInRow is where the next cell of the row at baseline y starts: the
// run drawn right after a tail, when it stands on that row right of x.
// A tail with a further line under it is not taken: a cell of three
// lines is as often a block of lines ("Départ …", "Arrivée …") whose
// first filled its column.
func nextInRow(next textRun, y, x float64) (float64, bool) {
	return next.x, math.Abs(next.y-y) <= next.size/3 && next.x > x
}

// firstWord is the width of the text's first word.
func firstWord(ts []pdf.Text) float64 {
	w := 0.0
	for _, t := range ts {
		if strings.TrimSpace(t.S) == "" && w > 0 {
			break
		}
		if t.W > 0 {
			w += t.W
		} else {
			w += max(t.FontSize, 4) / 2
		}
	}
	return w
}
