package uic918

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// Layout is a ticket layout record (U_TLAY): the printed ticket's text,
// field by field, at its line and column of the ticket's grid.
type Layout struct {
	Standard string // "RCT2", "PLAI"
	Fields   []Field
	grid     [][]rune // the fields written at their places; ' ' where none is
}

// Field is one text of a layout.
type Field struct {
	Line, Column, Height, Width int
	Text                        string
}

// The grid's bounds: lines and columns are two digits; a field's text
// may run past its width (issuers overrun), not past the grid.
const (
	gridLines   = 100
	gridColumns = 200
)

// ParseLayout reads a U_TLAY record's content: the layout standard (four
// characters), the number of fields (four digits), then per field its
// line, column, height and width (two digits each), a format digit, the
// length of its text (four digits) and the text. The length counts bytes
// as the standard says, or characters as some issuers write it (a "ø"
// is one of them): the reading that ends where the next field starts is
// taken, and a field neither does is a broken layout.
func ParseLayout(r Record) (*Layout, error) {
	d := r.Data
	if r.ID != "U_TLAY" || len(d) < 8 {
		return nil, errors.New("uic918: not a ticket layout")
	}
	l := &Layout{Standard: string(d[:4])}
	// The field count is not relied on: issuers pad it ("14  ").
	d = d[8:]
	for len(d) >= 13 {
		if len(d) < 13 || !digits(d[:8]) || !digits(d[9:13]) {
			return nil, errors.New("uic918: broken layout field")
		}
		n, _ := number(d[9:13])
		line, _ := number(d[0:2])
		col, _ := number(d[2:4])
		h, _ := number(d[4:6])
		w, _ := number(d[6:8])
		rest := d[13:]
		end := -1
		if n <= len(rest) && fieldStarts(rest[n:]) {
			end = n
		} else if k := runeBytes(rest, n); k >= 0 && fieldStarts(rest[k:]) {
			end = k
		}
		if end < 0 && n > len(rest) {
			break // a last field cut short by the record's end: dropped
		}
		if end < 0 {
			return nil, errors.New("uic918: layout field length")
		}
		l.Fields = append(l.Fields, Field{Line: line, Column: col, Height: h, Width: w, Text: text(rest[:end])})
		d = rest[end:]
	}
	l.draw()
	return l, nil
}

// fieldStarts says whether b is the end of the record (or a remainder
// too short to be a field) or a field's header.
func fieldStarts(b []byte) bool {
	return len(b) < 13 || digits(b[:8]) && digits(b[9:13])
}

// runeBytes is the number of bytes of b's first n UTF-8 characters, -1
// when b is shorter.
func runeBytes(b []byte, n int) int {
	i := 0
	for ; n > 0; n-- {
		if i >= len(b) {
			return -1
		}
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return i
}

// text decodes a field: UTF-8 as the standard says, else ISO 8859-1.
func text(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

// draw writes each field's lines at their places. A cell two fields
// write keeps the first one's character.
func (l *Layout) draw() {
	for _, f := range l.Fields {
		for i, s := range strings.Split(f.Text, "\n") {
			line := f.Line + i
			if line >= gridLines {
				break
			}
			for len(l.grid) <= line {
				l.grid = append(l.grid, nil)
			}
			col := f.Column
			for _, c := range s {
				if col >= gridColumns {
					break
				}
				for len(l.grid[line]) <= col {
					l.grid[line] = append(l.grid[line], ' ')
				}
				if l.grid[line][col] == ' ' && c != '\r' {
					l.grid[line][col] = c
				}
				col++
			}
		}
	}
}

func (l *Layout) cell(line, col int) rune {
	if line < 0 || line >= len(l.grid) || col < 0 || col >= len(l.grid[line]) {
		return ' '
	}
	return l.grid[line][col]
}

// Text is the grid's text of a line from column col, width columns wide,
// trimmed; ok is false when a word crosses either edge, so that a value
// is never half of a longer text that overruns its place.
func (l *Layout) Text(line, col, width int) (s string, ok bool) {
	if col > 0 && l.cell(line, col-1) != ' ' && l.cell(line, col) != ' ' ||
		l.cell(line, col+width-1) != ' ' && l.cell(line, col+width) != ' ' {
		return "", false
	}
	var b strings.Builder
	for c := col; c < col+width; c++ {
		b.WriteRune(l.cell(line, c))
	}
	return strings.TrimSpace(b.String()), true
}
