package mime

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HTMLToText renders HTML as readable plain text. It only tokenises: nothing
// is executed or fetched. Content a reader would not see (scripts, styles,
// the head, elements hidden with the hidden attribute or display:none) is
// dropped, so that text planted for a machine reader does not reach the
// extractors as if the user had seen it.
func HTMLToText(src string) string {
	z := html.NewTokenizer(strings.NewReader(src))
	var b textBuilder
	skipDepth := 0 // >0 while inside an element whose content is invisible
	var skipTag atom.Atom
	pre := 0 // >0 inside <pre>, whose spaces and line ends are the text's
	// A style sheet may make an inline element a block (a receipt's
	// "span.ResDate{display:block}"): its classes, and for each inline
	// element open, whether it is one, innermost last.
	var sheet strings.Builder
	inStyle := false
	var blockClasses map[string]bool
	open := map[atom.Atom][]bool{}
	// A font size no reader sees hides an element's own text, not its
	// children's that set a size of their own: MJML's templates (Mailjet,
	// many senders' receipts) set "font-size:0px" on every cell to close
	// the gaps between inline blocks, and each block sets its text's size
	// again. sizes are the sizes in force, innermost last, each with the
	// element that set it and how many of that element were open then.
	type size struct {
		a     atom.Atom
		level int
		tiny  bool
	}
	var sizes []size
	depth := map[atom.Atom]int{}
	tinyText := func() bool { return len(sizes) > 0 && sizes[len(sizes)-1].tiny }
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			if inStyle && sheet.Len() < maxStyleSheet {
				sheet.Write(z.Text())
			}
			if skipDepth == 0 && tinyText() {
				break
			}
			if skipDepth == 0 && pre > 0 {
				b.preText(string(z.Text()))
			} else if skipDepth == 0 {
				b.text(string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if a == atom.Style && tt == html.StartTagToken {
				inStyle = true
			}
			if skipDepth > 0 {
				if a == skipTag && tt == html.StartTagToken {
					skipDepth++
				}
				continue
			}
			hidden := invisibleElement(a)
			var alt string
			shownBlock := false
			sized, tiny := false, false
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				switch string(k) {
				case "hidden":
					hidden = true
				case "style":
					// The declarations once without spaces, in lower
					// case, for each question asked of them.
					decls := compactStyle(string(v))
					if hiddenDecls(decls) {
						hidden = true
					}
					sized, tiny = fontSizeDecls(decls)
					shownBlock = shownBlock || strings.Contains(decls, "display:block")
				case "class":
					if blockClasses == nil {
						blockClasses = blockClassesOf(sheet.String())
					}
					for c := range strings.FieldsSeq(string(v)) {
						shownBlock = shownBlock || blockClasses[c]
					}
				case "alt":
					alt = string(v)
				}
			}
			if hidden && tt == html.StartTagToken && !voidElement(a) {
				skipDepth, skipTag = 1, a
				continue
			}
			if tt == html.StartTagToken && !voidElement(a) {
				depth[a]++
				if sized {
					sizes = append(sizes, size{a, depth[a], tiny})
				}
			}
			if inlineElement(a) && tt == html.StartTagToken {
				open[a] = append(open[a], shownBlock)
				if shownBlock {
					b.block()
				}
			}
			switch {
			case a == atom.Br:
				b.lineBreak()
			case a == atom.Li:
				b.block()
				b.text("- ")
			case a == atom.Img && alt != "":
				b.text(" " + alt + " ")
			case a == atom.Td || a == atom.Th:
				b.cell()
				b.text(" ")
			case blockElement(a):
				b.block()
				switch a {
				case atom.Table:
					b.startTable()
				case atom.Tr:
					b.startRow()
				case atom.Pre:
					if tt == html.StartTagToken {
						pre++
						b.preStart = true
					}
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if a == atom.Style {
				inStyle = false
			}
			if skipDepth > 0 {
				if a == skipTag {
					skipDepth--
				}
				continue
			}
			if depth[a] > 0 {
				depth[a]--
				for len(sizes) > 0 && sizes[len(sizes)-1].a == a && sizes[len(sizes)-1].level > depth[a] {
					sizes = sizes[:len(sizes)-1]
				}
			}
			if n := len(open[a]); n > 0 {
				if open[a][n-1] {
					b.block()
				}
				open[a] = open[a][:n-1]
			}
			switch a {
			case atom.Tr:
				b.endRow()
			case atom.Table:
				b.endTable()
			case atom.Pre:
				pre = max(pre-1, 0)
			}
			if blockElement(a) || a == atom.Li {
				b.block()
			}
		}
	}
}

func invisibleElement(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Head, atom.Title, atom.Template,
		atom.Noscript, atom.Svg, atom.Object, atom.Iframe, atom.Select:
		return true
	}
	return false
}

// compactStyle is a style attribute's declarations in lower case without
// their spaces ("display: none" → "display:none").
func compactStyle(style string) string {
	return strings.ToLower(strings.Join(strings.Fields(style), ""))
}

// hiddenDecls reports whether compacted declarations hide their element
// and all inside it.
func hiddenDecls(s string) bool {
	return strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") ||
		strings.Contains(s, "opacity:0;") || strings.HasSuffix(s, "opacity:0") || strings.Contains(s, "color:transparent") ||
		(strings.Contains(s, "max-height:0") || strings.Contains(s, "height:0;") || strings.HasSuffix(s, "height:0")) && strings.Contains(s, "overflow:hidden")
}

func voidElement(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img,
		atom.Input, atom.Link, atom.Meta, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}

// inlineElement reports whether a is an element a browser lays out in
// its line unless a style makes it a block.
func inlineElement(a atom.Atom) bool {
	switch a {
	case atom.Span, atom.A, atom.Font, atom.B, atom.Strong, atom.I, atom.Em,
		atom.U, atom.Small, atom.Big, atom.Label, atom.Code, atom.Sup, atom.Sub:
		return true
	}
	return false
}

// blockDisplay reports whether a declaration list lays its element out as
// a block ("display:block", "display: block !important").
func blockDisplay(decls string) bool {
	s := strings.ToLower(strings.Join(strings.Fields(decls), ""))
	return strings.Contains(s, "display:block")
}

// maxStyleSheet is the most of a part's style sheets read for classes.
const maxStyleSheet = 64 << 10

// blockClassesOf are the classes a style sheet lays out as blocks, by
// rules of a class alone or an element's class (".info", "span.ResDate"),
// outside any at-rule (a media query's layout is a phone's, not the one
// a reader sees first).
func blockClassesOf(sheet string) map[string]bool {
	classes := map[string]bool{}
	sheet = stripComments(sheet) // once, not once a rule
	for sheet != "" {
		sheet = strings.TrimSpace(sheet)
		sel, rest, ok := strings.Cut(sheet, "{")
		if !ok {
			break
		}
		if strings.HasPrefix(strings.TrimSpace(sel), "@") {
			// Skip the at-rule's block, braces nested.
			depth, i := 1, 0
			for ; i < len(rest) && depth > 0; i++ {
				switch rest[i] {
				case '{':
					depth++
				case '}':
					depth--
				}
			}
			sheet = rest[i:]
			continue
		}
		decls, after, _ := strings.Cut(rest, "}")
		sheet = after
		if !blockDisplay(decls) {
			continue
		}
		for s := range strings.SplitSeq(sel, ",") {
			s = strings.TrimSpace(s)
			_, class, ok := strings.Cut(s, ".")
			if ok && class != "" && !strings.ContainsAny(class, ".#:[ >+~*") && !strings.ContainsAny(s[:len(s)-len(class)-1], ".#:[ >+~*") {
				classes[class] = true
			}
		}
	}
	return classes
}

// stripComments drops a style sheet's comments.
func stripComments(s string) string {
	// One pass, linear: a sheet of many comments rebuilt once a comment
	// was quadratic (the eleventh outside review, MEDIUM-5).
	if !strings.Contains(s, "/*") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			return b.String()
		}
		b.WriteByte(' ')
		s = s[i+2+j+2:]
	}
}

func blockElement(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.Tr, atom.Table, atom.H1, atom.H2, atom.H3, atom.H4,
		atom.H5, atom.H6, atom.Ul, atom.Ol, atom.Blockquote, atom.Pre, atom.Hr,
		atom.Section, atom.Article, atom.Header, atom.Footer, atom.Dl, atom.Dt,
		atom.Dd, atom.Address, atom.Center, atom.Form, atom.Main, atom.Nav, atom.Body:
		return true
	}
	return false
}

// textBuilder collapses HTML whitespace the way a browser does, with at most
// one blank line between blocks.
type textBuilder struct {
	buf      []byte
	newlines int  // trailing newlines already written
	space    bool // a space is pending before the next word
	// tables are the tables open around the text, innermost last.
	tables []tableState
	// preStart: a <pre> just opened, whose first line end is no line.
	preStart bool
}

// tableState is an open table's current row. A line break inside a cell
// of a data table's row ("Milano Linate (LIN)<br>12/10/2027 07:00")
// would split the row's cells across lines and mix them with the next
// cell's. In a table whose first row is a header (labels only, no digits
// and no breaks), a short row of as many cells, with no table inside,
// has its breaks made spaces: it stays one line, as the header reads.
// Other tables keep their breaks (an itinerary laid out in cells reads
// best line by line).
type tableState struct {
	inRow  bool
	start  int   // where the row's text starts in buf
	cells  int   // the row's cells so far
	breaks []int // the newlines its <br>s wrote
	nested bool  // a table inside the row: a layout, not data
	rows   int   // the rows ended so far
	header int   // the cells of a header row, or 0
	// cellAt are where the row's cells after its first begin in buf:
	// the space written there becomes a tab in a header's or a data
	// row, so that a reader can tell "Hamburg-Altona", "Westerland
	// (Sylt)" apart where words alone would run them together.
	cellAt []int
}

// maxDataRow is the longest row whose breaks are joined: data rows are
// short, layout rows (a whole mail in one cell beside a margin) are not.
const maxDataRow = 200

func (b *textBuilder) startTable() {
	if n := len(b.tables); n > 0 {
		b.tables[n-1].nested = true
	}
	b.tables = append(b.tables, tableState{})
}

func (b *textBuilder) endTable() {
	if n := len(b.tables); n > 0 {
		b.endRow()
		b.tables = b.tables[:n-1]
	}
}

func (b *textBuilder) startRow() {
	if n := len(b.tables); n > 0 {
		b.endRow()
		t := &b.tables[n-1]
		*t = tableState{inRow: true, start: len(b.buf), rows: t.rows, header: t.header}
	}
}

func (b *textBuilder) cell() {
	if n := len(b.tables); n > 0 && b.tables[n-1].inRow {
		t := &b.tables[n-1]
		t.cells++
		if t.cells > 1 {
			t.cellAt = append(t.cellAt, len(b.buf))
		}
	}
}

func (b *textBuilder) endRow() {
	n := len(b.tables)
	if n == 0 || !b.tables[n-1].inRow {
		return
	}
	t := &b.tables[n-1]
	row := b.buf[min(t.start, len(b.buf)):]
	tabs := func() {
		for _, i := range t.cellAt {
			if i < len(b.buf) && b.buf[i] == ' ' {
				b.buf[i] = '\t'
			}
		}
	}
	switch {
	case t.rows == 0 && t.cells >= 2 && len(t.breaks) == 0 && !t.nested && !bytes.ContainsAny(row, "0123456789"):
		t.header = t.cells
		tabs()
	case t.header > 0 && t.cells == t.header && !t.nested && len(row) <= maxDataRow:
		for _, i := range t.breaks {
			if i < len(b.buf) && b.buf[i] == '\n' {
				b.buf[i] = ' '
			}
		}
		tabs()
	case t.cells >= 2 && !t.nested && len(t.breaks) == 0 && len(row) <= maxDataRow:
		// Any other short row of cells keeps them apart too, the first
		// row's among them when it is no header: a ticket laid out as
		// columns of stops ("New York, NY (NYP)" beside "Washington, DC
		// (WAS)", their clocks on the row under them) is read column by
		// column (extract's cellColumns), a table on its side
		// ("Flugnummer | EW 582 | EW 583") row by row.
		tabs()
	}
	*t = tableState{rows: t.rows + 1, header: t.header}
}

// lineBreak is a <br>.
func (b *textBuilder) lineBreak() {
	at := len(b.buf)
	b.newline()
	if n := len(b.tables); n > 0 && b.tables[n-1].inRow && len(b.buf) > at {
		b.tables[n-1].breaks = append(b.tables[n-1].breaks, at)
	}
}

func (b *textBuilder) text(s string) {
	if s == "" {
		return
	}
	if strings.Contains(s, nbsp) && strings.TrimFunc(s, isHTMLSpace) != "" {
		b.spacedText(s)
		return
	}
	if isHTMLSpace(rune(s[0])) {
		b.space = true
	}
	for i, w := range strings.FieldsFunc(s, isHTMLSpace) {
		if (i > 0 || b.space) && b.newlines == 0 && len(b.buf) > 0 {
			b.buf = append(b.buf, ' ')
		}
		b.buf = append(b.buf, w...)
		b.newlines = 0
		b.space = false
	}
	b.space = isHTMLSpace(rune(s[len(s)-1]))
}

const nbsp = "\u00a0"

// spacedText writes text holding no-break spaces between its words as a
// browser shows it: a no-break space is a space that never collapses, so
// a run of them keeps a text's columns apart ("LH 400&nbsp;&nbsp;&nbsp;
// FRA", as Gmail's composer writes a plain text's runs of spaces), where
// the other whitespace collapses to one space. At the text's edges they
// count as one space, as a layout's spacers ("<td>&nbsp;</td>",
// "&nbsp;Total") always did, so a cell or line reads as before.
func (b *textBuilder) spacedText(s string) {
	words := strings.FieldsFunc(s, isCollapsible)
	for len(words) > 0 && strings.TrimRight(words[len(words)-1], nbsp) == "" {
		words = words[:len(words)-1]
	}
	for strings.TrimLeft(words[0], nbsp) == "" {
		words = words[1:]
	}
	if first, _ := utf8.DecodeRuneInString(s); isHTMLSpace(first) {
		b.space = true
	}
	words[0] = strings.TrimLeft(words[0], nbsp)
	words[len(words)-1] = strings.TrimRight(words[len(words)-1], nbsp)
	for i, w := range words {
		if (i > 0 || b.space) && b.newlines == 0 && len(b.buf) > 0 {
			b.buf = append(b.buf, ' ')
		}
		b.buf = append(b.buf, strings.ReplaceAll(w, nbsp, " ")...)
		b.newlines = 0
		b.space = false
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	b.space = isHTMLSpace(last)
}

// preText writes the text of a <pre> as it stands: its spaces, tabs and
// line ends are the sender's columns and lines (a text-only mail a client
// wrapped in <pre>), not whitespace to collapse.
func (b *textBuilder) preText(s string) {
	if b.preStart {
		s = strings.TrimPrefix(strings.TrimPrefix(s, "\r"), "\n")
		b.preStart = false
	}
	s = strings.ReplaceAll(s, "\r", "")
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.lineBreak()
		}
		line = strings.TrimRight(strings.ReplaceAll(line, nbsp, " "), " \t\f")
		if line == "" {
			continue
		}
		if b.space && b.newlines == 0 && len(b.buf) > 0 {
			b.buf = append(b.buf, ' ')
		}
		b.buf = append(b.buf, line...)
		b.newlines = 0
		b.space = false
	}
}

func (b *textBuilder) newline() {
	if len(b.buf) == 0 {
		return
	}
	if b.newlines < 2 {
		b.buf = append(b.buf, '\n')
		b.newlines++
	}
	b.space = false
}

func (b *textBuilder) block() {
	if len(b.buf) == 0 {
		return
	}
	for b.newlines < 2 {
		b.buf = append(b.buf, '\n')
		b.newlines++
	}
	b.space = false
}

// String is the text. The builder is done with: its bytes become the
// string without a copy (a mail's HTML part is tens of kilobytes).
func (b *textBuilder) String() string {
	return strings.TrimSpace(unsafe.String(unsafe.SliceData(b.buf), len(b.buf)))
}

func isHTMLSpace(r rune) bool {
	return isCollapsible(r) || r == '\u00a0'
}

// isCollapsible is HTML's whitespace, which a browser collapses; a
// no-break space it keeps.
func isCollapsible(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
}

// fontSizeDecls reports whether compacted declarations set a font size,
// and whether that size is one no reader sees (tinyFontSize).
func fontSizeDecls(s string) (sized, tiny bool) {
	i := strings.LastIndex(s, "font-size:")
	if i < 0 || strings.HasPrefix(s[i+len("font-size:"):], "inherit") {
		return false, false // none, or the parent's
	}
	return true, tinyFontSize(s)
}

// tinyFontSize reports a font size no reader sees: zero in any unit, under
// 2 px or pt, under a quarter of an em (rem, ex, ch) or under 25 %.
// Matching the text "font-size:0" took any size below one for hidden
// ("font-size: 0.750em" is the main table of USPS's Informed Delivery
// digests, whose whole text was lost), and missed 0.1em or 1pt, which hide
// text as well as zero does.
func tinyFontSize(s string) bool {
	for rest := s; ; {
		i := strings.Index(rest, "font-size:")
		if i < 0 {
			return false
		}
		rest = rest[i+len("font-size:"):]
		n := 0
		for n < len(rest) && (rest[n] >= '0' && rest[n] <= '9' || rest[n] == '.') {
			n++
		}
		v, err := strconv.ParseFloat(rest[:n], 64)
		if n == 0 || err != nil {
			continue // a keyword (small, x-small), a calc(), or no size
		}
		unit := rest[n:]
		if j := strings.IndexAny(unit, ";!"); j >= 0 {
			unit = unit[:j]
		}
		switch {
		case v == 0:
			return true
		case unit == "px" || unit == "pt" || unit == "":
			if v < 2 {
				return true
			}
		case unit == "em" || unit == "rem" || unit == "ex" || unit == "ch":
			if v < 0.25 {
				return true
			}
		case unit == "%":
			if v < 25 {
				return true
			}
		}
	}
}
