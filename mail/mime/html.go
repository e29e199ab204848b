package mime

import (
	"bytes"
	"slices"
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
	var blockClasses, hiddenClasses map[string]bool
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
	// preStyled are the elements open whose style keeps the text's line
	// breaks ("white-space: pre-wrap", as clients render a plain-text
	// mail as HTML): each is a <pre> to the reader.
	var preStyled []size
	depth := map[atom.Atom]int{}
	// stack are the elements open, innermost last, as far as end tags
	// are concerned: an inline element's end tag with a block opened
	// inside it still open, or with no such element open, is ignored,
	// as a browser ignores it ("<span style=font-size:0><div></span>…"
	// keeps the span's size over the div's text; the fifteenth outside
	// review, MEDIUM-9).
	var stack []atom.Atom
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
			if !voidElement(a) && len(stack) < maxOpen {
				stack = append(stack, a)
			}
			if a == atom.Style && tt == html.StartTagToken {
				inStyle = true
			}
			if skipDepth > 0 {
				if a == skipTag && !voidElement(a) {
					skipDepth++
				}
				continue
			}
			hidden := invisibleElement(a)
			var alt string
			shownBlock, preStyle := false, false
			sized, tiny, relative := false, false, false
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				switch string(k) {
				case "hidden":
					hidden = true
				case "style":
					// The declarations read once, for each question
					// asked of them.
					ds := declsOf(string(v))
					if hiddenDecls(ds) {
						hidden = true
					}
					sized, tiny, relative = fontSizeDecls(ds)
					shownBlock = shownBlock || strings.HasPrefix(winning(ds, "display"), "block")
					preStyle = strings.HasPrefix(winning(ds, "white-space"), "pre")
				case "class":
					if blockClasses == nil {
						blockClasses, hiddenClasses = classesOf(sheet.String())
					}
					for c := range strings.FieldsSeq(string(v)) {
						shownBlock = shownBlock || blockClasses[c]
						hidden = hidden || hiddenClasses[c]
					}
				case "alt":
					alt = string(v)
				}
			}
			// "<div …/>" opens a div to a browser: only a void element
			// closes itself (the fifteenth outside review, MEDIUM-9).
			opens := !voidElement(a)
			if hidden && opens {
				skipDepth, skipTag = 1, a
				continue
			}
			if opens {
				depth[a]++
				if sized {
					// A size relative to the parent's ("1em", "100%",
					// "larger", "inherit") of a parent no reader sees
					// is none either.
					sizes = append(sizes, size{a, depth[a], tiny || relative && tinyText()})
				}
				if preStyle && a != atom.Pre {
					preStyled = append(preStyled, size{a: a, level: depth[a]})
					pre++
					if blockElement(a) {
						b.block()
						b.preStart = true
					}
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
			case a == atom.Img && alt != "" && !tinyText():
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
			if i := lastOpen(stack, a); i < 0 && !blockElement(a) && len(stack) < maxOpen {
				continue // no such element open
			} else if i >= 0 {
				if !blockElement(a) && slices.ContainsFunc(stack[i+1:], blockElement) {
					continue // a block opened inside it is still open
				}
				stack = stack[:i]
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
				for len(preStyled) > 0 && preStyled[len(preStyled)-1].a == a && preStyled[len(preStyled)-1].level > depth[a] {
					preStyled = preStyled[:len(preStyled)-1]
					pre = max(pre-1, 0)
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
	case atom.Rt, atom.Rp:
		// A ruby's reading (Japanese furigana: "注文" over "ちゅうもん")
		// and its fallback brackets annotate the text, they are not of
		// it: read with it, "注文（ちゅうもん）" breaks every word and
		// label it is in.
		return true
	}
	return false
}

// decl is one declaration of a style: its property and value in lower
// case without spaces, and whether it is !important.
type decl struct {
	prop, value string
	important   bool
}

// declsOf reads a style attribute's (or a rule's) declarations, comments
// and spaces taken out ("display:/**/none" is display:none to a browser).
func declsOf(style string) []decl {
	style = strings.ToLower(stripComments(style))
	var out []decl
	for d := range strings.SplitSeq(style, ";") {
		prop, value, ok := strings.Cut(d, ":")
		if !ok {
			continue
		}
		value = strings.Join(strings.Fields(value), "")
		important := false
		if v, ok := strings.CutSuffix(value, "!important"); ok {
			value, important = v, true
		}
		out = append(out, decl{strings.TrimSpace(prop), value, important})
	}
	return out
}

// winning is the value of the property that applies: the last !important
// declaration of it, else the last; "" when none sets it.
func winning(ds []decl, prop string) string {
	v, imp := "", false
	for _, d := range ds {
		if d.prop == prop && (d.important || !imp) {
			v, imp = d.value, imp || d.important
		}
	}
	return v
}

// hiddenDecls reports whether declarations hide their element and all
// inside it: display none, visibility hidden, no opacity, a transparent
// colour, or no height with its overflow hidden.
func hiddenDecls(ds []decl) bool {
	if winning(ds, "display") == "none" {
		return true
	}
	if v := winning(ds, "visibility"); v == "hidden" || v == "collapse" {
		return true
	}
	if v := winning(ds, "opacity"); v != "" && zeroNumber(strings.TrimSuffix(v, "%")) {
		return true
	}
	if c := winning(ds, "color"); c == "transparent" || zeroAlpha(c) {
		return true
	}
	h, mh := winning(ds, "height"), winning(ds, "max-height")
	if h != "" && zeroNumber(h) || mh != "" && zeroNumber(mh) {
		for _, o := range []string{"overflow", "overflow-y"} {
			if v := winning(ds, o); v == "hidden" || v == "clip" || strings.HasPrefix(v, "hidden") {
				return true
			}
		}
	}
	return false
}

// zeroNumber reports whether a length or number is zero in any unit
// ("0", "0.0", "0px", "0em").
func zeroNumber(v string) bool {
	n := 0
	for n < len(v) && (v[n] >= '0' && v[n] <= '9' || v[n] == '.' || v[n] == '-' || v[n] == '+') {
		n++
	}
	f, err := strconv.ParseFloat(v[:n], 64)
	return n > 0 && err == nil && f == 0
}

// zeroAlpha reports whether a colour function gives no opacity
// ("rgba(0,0,0,0)", "hsl(0 0% 0% / 0)").
func zeroAlpha(c string) bool {
	open, closing := strings.IndexByte(c, '('), strings.LastIndexByte(c, ')')
	if open < 0 || closing < open {
		return false
	}
	args := c[open+1 : closing]
	// The alpha is the fourth argument ("rgba(0,0,0,0)") or the one after
	// a slash; "rgb(0,0,0)" is black, its last argument the blue.
	i := strings.LastIndexByte(args, '/')
	if i < 0 && strings.Count(args, ",") == 3 {
		i = strings.LastIndexByte(args, ',')
	}
	if i < 0 {
		return false
	}
	return zeroNumber(strings.TrimSuffix(args[i+1:], "%"))
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

// lastOpen is the index of the innermost a in stack, or -1.
func lastOpen(stack []atom.Atom, a atom.Atom) int {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == a {
			return i
		}
	}
	return -1
}

// maxOpen bounds the open elements followed for end tags: past it, end
// tags are taken as they come, as before.
const maxOpen = 512

// maxStyleSheet is the most of a part's style sheets read for classes.
const maxStyleSheet = 64 << 10

// classesOf are the classes a style sheet lays out as blocks, by rules
// of a class alone or an element's class (".info", "span.ResDate"),
// outside any at-rule (a media query's layout is a phone's, not the one a
// reader sees first), and the classes it hides by the same rules
// (hiddenDecls: ".preheader{display:none}"), which hide their element and
// all inside it as its style attribute would.
func classesOf(sheet string) (block, hidden map[string]bool) {
	classes, hides := map[string]bool{}, map[string]bool{}
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
		ds := declsOf(decls)
		isBlock, isHidden := strings.HasPrefix(winning(ds, "display"), "block"), hiddenDecls(ds)
		if !isBlock && !isHidden {
			continue
		}
		for s := range strings.SplitSeq(sel, ",") {
			s = strings.TrimSpace(s)
			_, class, ok := strings.Cut(s, ".")
			if ok && class != "" && !strings.ContainsAny(class, ".#:[ >+~*") && !strings.ContainsAny(s[:len(s)-len(class)-1], ".#:[ >+~*") {
				if isBlock {
					classes[class] = true
				}
				if isHidden {
					hides[class] = true
				}
			}
		}
	}
	return classes, hides
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

// fontSizeDecls reports whether declarations set a font size, whether
// that size is one no reader sees (tinyFontSize), and whether it is
// relative to the parent's ("1em", "100%", "larger", "inherit", calc() and
// var(), whose parent's size no reader sees is none either). The font
// shorthand sets it too ("font:0/0 a").
func fontSizeDecls(ds []decl) (sized, tiny, relative bool) {
	v := winning(ds, "font-size")
	if v == "" {
		if f := winning(ds, "font"); f != "" {
			size, _, _ := strings.Cut(f, "/")
			if i := strings.IndexAny(size, "0123456789."); i >= 0 {
				v = size[i:]
			}
		}
	}
	if v == "" {
		return false, false, false
	}
	if tinyFontSize("font-size:" + v) {
		return true, true, false
	}
	if v[0] >= '0' && v[0] <= '9' || v[0] == '.' {
		u := strings.TrimLeft(v, "0123456789.")
		if len(u) > 1 && u[0] == 'e' && (u[1] == '-' || u[1] == '+' || u[1] >= '0' && u[1] <= '9') {
			u = strings.TrimLeft(u[1:], "+-0123456789") // an exponent: "1e-9px"
		}
		return true, false, u == "em" || u == "%" || u == "ex" || u == "ch"
	}
	switch v {
	case "xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large", "xxx-large", "initial":
		return true, false, false
	}
	return true, false, true // larger, smaller, inherit, unset, revert, calc(), var()
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
		for n < len(rest) && (rest[n] >= '0' && rest[n] <= '9' || rest[n] == '.' ||
			rest[n] == 'e' && n > 0 && n+1 < len(rest) && (rest[n+1] == '-' || rest[n+1] == '+' || rest[n+1] >= '0' && rest[n+1] <= '9') ||
			(rest[n] == '-' || rest[n] == '+') && n > 0 && rest[n-1] == 'e') {
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
		case unit == "mm" || unit == "q" || unit == "in" || unit == "cm" || unit == "pc":
			// Two pixels: 0.53 mm, 2.1 Q, 0.021 in, 0.053 cm, 0.125 pc.
			limit := map[string]float64{"mm": 0.53, "q": 2.1, "in": 0.021, "cm": 0.053, "pc": 0.125}[unit]
			if v < limit {
				return true
			}
		case unit == "vw" || unit == "vh" || unit == "vmin" || unit == "vmax":
			if v < 0.25 {
				return true
			}
		}
	}
}
