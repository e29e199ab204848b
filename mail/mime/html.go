package mime

import (
	"strings"

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
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			if skipDepth == 0 {
				b.text(string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if skipDepth > 0 {
				if a == skipTag && tt == html.StartTagToken {
					skipDepth++
				}
				continue
			}
			hidden := invisibleElement(a)
			var alt string
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				switch string(k) {
				case "hidden":
					hidden = true
				case "style":
					if hiddenStyle(string(v)) {
						hidden = true
					}
				case "alt":
					alt = string(v)
				}
			}
			if hidden && tt == html.StartTagToken && !voidElement(a) {
				skipDepth, skipTag = 1, a
				continue
			}
			switch {
			case a == atom.Br:
				b.newline()
			case a == atom.Li:
				b.block()
				b.text("- ")
			case a == atom.Img && alt != "":
				b.text(" " + alt + " ")
			case a == atom.Td || a == atom.Th:
				b.text(" ")
			case blockElement(a):
				b.block()
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if skipDepth > 0 {
				if a == skipTag {
					skipDepth--
				}
				continue
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

func hiddenStyle(style string) bool {
	s := strings.ToLower(strings.Join(strings.Fields(style), ""))
	return strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") ||
		strings.Contains(s, "font-size:0") || strings.Contains(s, "font-size:1px") ||
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
	sb       strings.Builder
	newlines int  // trailing newlines already written
	space    bool // a space is pending before the next word
}

func (b *textBuilder) text(s string) {
	if s == "" {
		return
	}
	if isHTMLSpace(rune(s[0])) {
		b.space = true
	}
	for i, w := range strings.FieldsFunc(s, isHTMLSpace) {
		if (i > 0 || b.space) && b.newlines == 0 && b.sb.Len() > 0 {
			b.sb.WriteByte(' ')
		}
		b.sb.WriteString(w)
		b.newlines = 0
		b.space = false
	}
	b.space = isHTMLSpace(rune(s[len(s)-1]))
}

func (b *textBuilder) newline() {
	if b.sb.Len() == 0 {
		return
	}
	if b.newlines < 2 {
		b.sb.WriteByte('\n')
		b.newlines++
	}
	b.space = false
}

func (b *textBuilder) block() {
	if b.sb.Len() == 0 {
		return
	}
	for b.newlines < 2 {
		b.sb.WriteByte('\n')
		b.newlines++
	}
	b.space = false
}

func (b *textBuilder) String() string { return strings.TrimSpace(b.sb.String()) }

func isHTMLSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\u00a0'
}
