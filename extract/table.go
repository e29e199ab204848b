package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
)

// The table reader's cells: cells apart by bars, dots or tabs (the mime
// package keeps a data table's cells apart by tabs and each row on a
// line), labelled cells set onto lines of their own, and a value in the
// column under its label (columnBelow, which the labelled-text reader in
// labels.go uses for every kind), and a row read under its header row
// by what each column's header names (tabRow, columns: a kind says what
// its headers' words mean, as trainColumn does for a train's table), and
// a whole table under its header row, HTML's or text's columns apart by
// spaces (headedTable, which flighttable.go reads flights with).

// cellLabelRE is a label that starts a cell of a line whose cells are
// apart by two spaces or more: "  Partenza: 08:15".
var cellLabelRE = lazyregexp.New(`(?:\s{2,}|\t)\p{L}[\p{L} .'’-]{0,24}:\s`)

// labelCells puts each labelled cell of a line on a line of its own when
// the line holds three or more ("Da: Lecce  A: Gallipoli  Partenza: 08:15
// Arrivo: 09:22"), so that each label is read as if it started its line.
func labelCells(lines []string) []string {
	var out []string
	for i, ln := range lines {
		if cells := smsCells(ln); cells != nil {
			if out == nil {
				out = append(out, lines[:i]...)
			}
			out = append(out, cells...)
			continue
		}
		cuts := cellLabelRE.FindAllStringIndex(ln, 8)
		if len(cuts) < 2 || !strings.Contains(ln[:cuts[0][0]], ":") {
			cuts = ticketCellCuts(ln)
		}
		if len(cuts) == 0 {
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

// ticketCellLabels are the labels of a ticket's fields that start a cell
// after one space only, as a printed ticket's two columns run together
// when its text is taken out ("Origem: SALVADOR - BA Destino: VITORIA DA
// CONQUISTA - BA", "Data: 2024-01-23 23:10:00 Poltrona: 26"): a stop's, a
// seat's, a bay's, a line's or a day's (station.from, station.to,
// seat.label, bus.number, journey.date, date.noun, the bay and platform
// words), lower case, of one to three words.
var ticketCellLabels = func() map[string]bool {
	var alts []string
	for _, cat := range []string{"station.from", "station.to", "seat.label", "bus.number", "journey.date", "date.noun"} {
		alts = append(alts, lang.Entries(cat)...)
	}
	alts = append(alts, strings.Split(platformWords+"|"+bayWords, "|")...)
	m := map[string]bool{}
	for _, a := range alts {
		if utf8.RuneCountInString(a) >= 2 && !strings.ContainsAny(a, `\()[]?*+|.`) && len(strings.Fields(a)) <= 3 {
			m[strings.ToLower(a)] = true
		}
	}
	return m
}()

// ticketCellCuts are the starts of the cells in ln that open with one of
// ticketCellLabels after one space, its first letter a capital, then its
// colon and a value, each as [start, start]: for a line that opens with a
// label of its own, or where the cell's label has five letters or more (a
// short one inside a sentence, "To:", "Data:", is a word of it). Nil when
// there is none. One pass over the line's colons.
func ticketCellCuts(ln string) [][]int {
	if len(ln) > 400 {
		return nil
	}
	var cuts [][]int
	first := strings.IndexByte(ln, ':')
	for k := first; k > 0; {
		if v := strings.TrimLeft(ln[k+1:], " "); v != "" && len(v) >= len(ln)-k-2 {
			if at := labelBefore(ln, k); at > 0 {
				label := strings.TrimSpace(ln[at:k])
				if strings.Contains(ln[:at], ":") || utf8.RuneCountInString(label) >= 5 {
					cuts = append(cuts, []int{at, at})
				}
			}
		}
		next := strings.IndexByte(ln[k+1:], ':')
		if next < 0 {
			break
		}
		k += 1 + next
	}
	return cuts
}

// labelBefore is where a ticketCellLabels label that ends at the colon
// ln[k] (one space before the colon allowed) starts, after a space and
// with a capital, or 0.
func labelBefore(ln string, k int) int {
	end := k
	if end > 0 && ln[end-1] == ' ' {
		end--
	}
	start := end
	for words := 0; words < 3; words++ {
		sp := strings.LastIndexByte(ln[:start], ' ')
		if sp <= 0 {
			return 0
		}
		start = sp
		w := ln[start+1 : end]
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsUpper(r) && ticketCellLabels[strings.ToLower(w)] {
			return start + 1
		}
	}
	return 0
}

// markedStopCells puts each cell of a line apart by bars on a line of
// its own when every cell opens with a label and holds one clock, as two
// stops written side by side do ("Vertrek: 07:45 uur, Utrecht Centraal |
// Aankomst: 10:12 uur, Maastricht"): each is then read as a stop's line.
func markedStopCells(lines []string) []string {
	var out []string
	for i, ln := range lines {
		cells := splitStopCells(ln)
		if cells == nil {
			if out != nil {
				out = append(out, ln)
			}
			continue
		}
		if out == nil {
			out = append(out, lines[:i]...)
		}
		out = append(out, cells...)
	}
	if out == nil {
		return lines
	}
	return out
}

// splitStopCells is markedStopCells' cells of one line, or nil. A
// card's next stop's label joined to a clock by the flattening of cells
// side by side ("18/12/2027 07:45 → Llegada") is a cell of its own too.
func splitStopCells(ln string) []string {
	if cells := clockThenLabel(ln); cells != nil {
		return cells
	}
	if strings.Count(ln, " | ") != 1 || !hasDigit(ln) {
		return nil
	}
	a, b, _ := strings.Cut(ln, " | ")
	for _, c := range []string{a, b} {
		label, _, ok := strings.Cut(c, ":")
		if !ok || len(findClocks(c)) != 1 || hasDigit(label) || len(strings.Fields(label)) > 3 {
			return nil
		}
	}
	return []string{strings.TrimSpace(a), strings.TrimSpace(b)}
}

// clockThenLabel parts a line whose one clock is followed by nothing but
// an arrow and the arrival's or departure's label word ("Llegada",
// "Ankunft", "Arrival"): the clock's line, and the label's.
func clockThenLabel(ln string) []string {
	if !hasDigit(ln) || len(ln) > 60 {
		return nil
	}
	cks := findClocks(ln)
	if len(cks) != 1 {
		return nil
	}
	w := strings.Trim(ln[cks[0].end:], " \t→>-–—:")
	if w == "" || strings.ContainsAny(w, " \t") {
		return nil
	}
	if l := lower(w); !arrColumn.has(l) && !depColumn.has(l) {
		return nil
	}
	return []string{strings.TrimRight(ln[:cks[0].end], " "), w}
}

// smsCellRE is a labelled cell of a text message's one line, right after
// its comma: ",TRAIN:12138", ",DOJ:25-08-2012".
var smsCellRE = lazyregexp.New(`,\p{Lu}[\p{Lu}\p{Ll} .]{0,15}:\S`)

// smsCells are the cells of a ticket sent as a text message, its fields
// apart by commas without spaces ("PNR:2438941616,TRAIN:12138,DOJ:
// 25-08-2012,TIME:05:15,SL,NDLS TO FDB"), one a line; nil for any other
// line. Three labelled cells after commas make a line one.
func smsCells(ln string) []string {
	if strings.Count(ln, ",") < 3 || strings.Count(ln, ":") < 3 || strings.Contains(ln, ", ") {
		return nil
	}
	if len(smsCellRE.FindAllStringIndex(ln, 3)) < 3 {
		return nil
	}
	cells := strings.Split(ln, ",")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// cellSplitRE is what keeps a line's cells apart: a middle dot, a bullet,
// a bar or a tab.
var cellSplitRE = lazyregexp.New(`\s*[·•|\t]\s*`)

// columnGap splits a row laid out by the PDF reader into its columns.
var columnGap = lazyregexp.New(`[ \t]{3,}`)

// columnBelow reads a table's header row: a row of several columns
// that are all labels (no digit in it), whose next row has as many
// columns and a digit; the value of the label at [start, end) of text is
// the one below it ("Factuur datum   Vervaldatum" over "8-9-2022
// 22-9-2022"). The label must fill its column: nothing follows it before
// the next column gap.
func columnBelow(text string, start, end int) (string, bool) {
	rowStart := strings.LastIndexByte(text[:start], '\n') + 1
	rowEnd := strings.IndexByte(text[end:], '\n')
	if rowEnd < 0 {
		return "", false
	}
	rowEnd += end
	row := text[rowStart:rowEnd]
	if hasDigit(row) {
		return "", false
	}
	// The label's match takes the spaces after it: a column gap there,
	// or the row's end, ends its column.
	if rest := text[end:rowEnd]; strings.TrimSpace(rest) != "" && !strings.HasSuffix(text[start:end], "  ") {
		return "", false
	}
	next, after, _ := strings.Cut(text[rowEnd+1:], "\n")
	cols, below := columnGap.Split(strings.TrimSpace(row), -1), columnGap.Split(strings.TrimSpace(next), -1)
	if len(cols) < 2 || len(cols) != len(below) || !hasDigit(next) || labelColumn(lineBefore(text, rowStart), row, next, after) {
		return "", false
	}
	// The label's column: the column gaps before it.
	k := len(columnGap.FindAllStringIndex(strings.TrimLeft(text[rowStart:start+1], " \t"), -1))
	if k >= len(below) {
		return "", false
	}
	return below[k], true
}

// labelColumn reports whether row and the lines around it are a list of
// labels down the left, each with its value in a second column at one
// place ("Property      Baan Suan Riverside" over "Address       88/12
// Charoen Krung", "Booking ID    1187734562" above): the label's value is
// beside it, not the cell below, which is the next label. Three such
// lines in a row, row and next among them, make the list.
func labelColumn(above, row, next, rest string) bool {
	third, _, _ := strings.Cut(rest, "\n")
	at := -1
	pair := func(ln string) bool {
		ln = strings.TrimRight(ln, " \t\r")
		gaps := columnGap.FindAllStringIndex(strings.TrimLeft(ln, " \t"), -1)
		if len(gaps) != 1 {
			return false
		}
		indent := len(ln) - len(strings.TrimLeft(ln, " \t"))
		if hasDigit(ln[:indent+gaps[0][0]]) || at >= 0 && indent+gaps[0][1] != at {
			return false
		}
		at = indent + gaps[0][1]
		return true
	}
	if !pair(row) || !pair(next) {
		return false
	}
	return pair(above) || pair(third)
}

// lineBefore is the line of text that ends just before offset i, a
// line's start.
func lineBefore(text string, i int) string {
	if i == 0 {
		return ""
	}
	return text[strings.LastIndexByte(text[:i-1], '\n')+1 : i-1]
}

// columnBefore returns the column of text's row that ends just before
// offset i, set apart from it by a column gap (three spaces, as the PDF
// reader lays rows out), when it holds a digit and is the row's only
// other column; else "".
func columnBefore(text string, i int) string {
	row := text[strings.LastIndexByte(text[:i], '\n')+1 : i]
	col := strings.TrimRight(row, " \t")
	// The label's match may begin with one of the gap's spaces.
	if len(row)-len(col) < 2 {
		return ""
	}
	col = strings.TrimSpace(col)
	if col == "" || strings.Contains(col, "   ") || len(col) > 40 || !hasDigit(col) {
		return ""
	}
	return col
}

// tabRow is row i of a data table as the mime package flattens it (cells
// apart by tabs, at least minCells of them) under its header row, the
// nearest line with text among the three above, which holds no digit and
// as many cells: the header's cells and the row's. A kind reads the row
// by what columns says each header names.
func tabRow(lines []string, i, minCells int) (head, cells []string, ok bool) {
	row := lines[i]
	if strings.Count(row, "\t") < minCells-1 {
		return nil, nil, false
	}
	h := i - 1
	for h >= 0 && h > i-4 && strings.TrimSpace(lines[h]) == "" {
		h--
	}
	if h < 0 || hasDigit(lines[h]) {
		return nil, nil, false
	}
	head, cells = strings.Split(lines[h], "\t"), strings.Split(row, "\t")
	if len(head) != len(cells) {
		return nil, nil, false
	}
	return head, cells, true
}

// tabLabels writes each row of text's data tables (cells apart by tabs,
// under a header row of as many cells: tabRow) as its header's labels,
// one "label: value" line per cell ("Confirmation Number: 58812047"), so
// that a kind's label rules read a table's cells as a card's. Only the
// rows that hold a digit: a value a label heads is a date or a number.
func tabLabels(text string) string {
	return headedLabels(text, false)
}

// headedLabels is tabLabels, of only the tables that are a header row over
// one row of values when oneRow is set (oneRowTableLabels).
func headedLabels(text string, oneRow bool) string {
	if strings.IndexByte(text, '\t') < 0 {
		return ""
	}
	var b strings.Builder
	lines := strings.Split(text, "\n")
	for i, ln := range lines {
		if strings.IndexByte(ln, '\t') < 0 || !hasDigit(ln) {
			continue
		}
		head, cells, ok := tabRow(lines, i, 2)
		if !ok {
			continue
		}
		if oneRow {
			next := i + 1
			for next < len(lines) && next < i+3 && strings.TrimSpace(lines[next]) == "" {
				next++
			}
			if next < len(lines) && hasDigit(lines[next]) && strings.Count(lines[next], "\t") == strings.Count(ln, "\t") {
				continue // a second row of the same table: items
			}
		}
		for k, h := range head {
			if h, v := strings.TrimSpace(h), strings.TrimSpace(cells[k]); h != "" && v != "" {
				b.WriteString(h + ": " + v + "\n")
			}
		}
	}
	return b.String()
}

// columns maps what a table's columns hold to the first column whose
// header names it: role says it from the header's text, lower case,
// trimmed of spaces, dots and colons ("" for a column no kind reads).
func columns(head []string, role func(header string) string) map[string]int {
	col := map[string]int{}
	for k, hc := range head {
		r := role(strings.ToLower(strings.Trim(strings.TrimSpace(hc), ".:")))
		if _, seen := col[r]; r != "" && !seen {
			col[r] = k
		}
	}
	return col
}

// cellColumns reads the table whose row is line i as columns: the run of
// rows from line i down (blank lines between them allowed) that have as
// many cells as line i, each column its cells top to bottom. A ticket
// laid out as columns of stops stacks each stop's station, clock and date
// in its column. end is the last row's line.
func cellColumns(lines []string, i int) (cols [][]string, end int) {
	n := strings.Count(lines[i], "\t") + 1
	if n < 2 {
		return nil, i
	}
	cols = make([][]string, n)
	end = i
	for j := i; j < len(lines) && j <= end+2; j++ {
		if strings.TrimSpace(lines[j]) == "" {
			continue
		}
		cells := strings.Split(lines[j], "\t")
		if len(cells) != n {
			break
		}
		for k, cell := range cells {
			cols[k] = append(cols[k], strings.TrimSpace(cell))
		}
		end = j
	}
	return cols, end
}

// tableCell is a cell of a row and the rune where it starts on its line:
// a text table's cells start under their header's.
type tableCell struct {
	text string
	at   int
}

// textCellGap keeps the cells of a text table's row apart: a tab, or two
// spaces or more.
var textCellGap = lazyregexp.New(`\t|[ \t]{2,}`)

// rowCells cuts a line into its cells: apart by tabs when it has any (a
// data table as the mime package flattens it), else by two spaces or
// more (text laid out in columns).
func rowCells(ln string) []tableCell {
	tabbed := strings.Contains(ln, "\t")
	if tabbed {
		ln = strings.TrimRight(ln, " \r") // an empty last cell is a cell
	} else {
		ln = strings.TrimRight(ln, " \t\r")
	}
	var cells []tableCell
	prev := 0
	cut := func(end int) {
		if t := strings.TrimSpace(ln[prev:end]); t != "" || tabbed {
			lead := len(ln[prev:end]) - len(strings.TrimLeft(ln[prev:end], " "))
			cells = append(cells, tableCell{t, utf8.RuneCountInString(ln[:prev+lead])})
		}
	}
	gaps := textCellGap.FindAllStringIndex(ln, -1)
	if tabbed {
		gaps = tabRE.FindAllStringIndex(ln, -1)
	}
	for _, g := range gaps {
		cut(g[0])
		prev = g[1]
	}
	cut(len(ln))
	return cells
}

var tabRE = lazyregexp.New(`\t`)

// headedRow is a row of a table under its header: its line and its cells,
// one for each of the header's columns ("" where it has none).
type headedRow struct {
	line  int
	cells []string
}

// headedTable reads the table whose header row is line h (cells apart by
// tabs, or by two spaces or more; no digit) as the rows under it: the
// lines that follow (at most two blank lines between them), each with a
// digit, until one that is no row. A tabbed row has as many cells as the
// header; a text row's cells go to the header's column they start under
// (the last that starts at or before it, a space or two of slack), so
// that an empty cell or a name wider than its header is read where it
// stands.
func headedTable(lines []string, h int) (head []string, rows []headedRow) {
	hc := rowCells(lines[h])
	if len(hc) < 3 || hasDigit(lines[h]) {
		return nil, nil
	}
	tabbed := strings.Contains(lines[h], "\t")
	for _, c := range hc {
		head = append(head, c.text)
	}
	blank := 0
	for i := h + 1; i < len(lines) && blank <= 2; i++ {
		if strings.TrimSpace(lines[i]) == "" {
			blank++
			continue
		}
		blank = 0
		if !hasDigit(lines[i]) || strings.Contains(lines[i], "\t") != tabbed {
			break
		}
		rc := rowCells(lines[i])
		cells := make([]string, len(head))
		if tabbed {
			if len(rc) != len(head) {
				break
			}
			for k, c := range rc {
				cells[k] = c.text
			}
		} else {
			if len(rc) < 2 {
				break
			}
			for _, c := range rc {
				k := 0
				for k+1 < len(hc) && hc[k+1].at <= c.at+2 {
					k++
				}
				cells[k] = strings.TrimSpace(cells[k] + " " + c.text)
			}
		}
		rows = append(rows, headedRow{i, cells})
	}
	return head, rows
}
