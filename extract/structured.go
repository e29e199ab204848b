package extract

import (
	"bytes"
	"encoding/json"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// node is one schema.org item, from JSON-LD or microdata, as a JSON-like
// map: "@type" and property names to strings, numbers, nodes or lists.
type node = map[string]any

// Limits on what one message's structured data may cost.
const (
	maxScriptBytes = 512 << 10
	maxItems       = 200
)

// jsonLD returns the top-level items of every application/ld+json script
// of an HTML document. Scripts that are not valid JSON get the repairs
// senders are known to need (see repairJSON); what still fails is skipped.
func jsonLD(doc string) []node {
	if !strings.Contains(doc, "ld+json") {
		return nil
	}
	z := html.NewTokenizer(strings.NewReader(doc))
	var out []node
	for len(out) < maxItems {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		if tt != html.StartTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if atom.Lookup(name) != atom.Script {
			continue
		}
		isLD := false
		for hasAttr {
			var k, v []byte
			k, v, hasAttr = z.TagAttr()
			if string(k) == "type" && strings.EqualFold(strings.TrimSpace(string(v)), "application/ld+json") {
				isLD = true
			}
		}
		if !isLD {
			continue
		}
		if z.Next() != html.TextToken {
			continue
		}
		text := z.Text()
		if len(text) > maxScriptBytes {
			continue
		}
		out = append(out, parseJSONLD(text)...)
	}
	return out
}

// parseJSONLD decodes one script's JSON into items, flattening arrays and
// @graph.
func parseJSONLD(b []byte) []node {
	b = bytes.TrimSpace(b)
	// Some senders wrap the JSON in an HTML comment or CDATA.
	for _, p := range [][2]string{{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"//<![CDATA[", "//]]>"}} {
		if bytes.HasPrefix(b, []byte(p[0])) {
			b = bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimPrefix(b, []byte(p[0])), []byte(p[1])))
		}
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		if err := json.Unmarshal(repairJSON(b), &v); err != nil {
			return nil
		}
	}
	var out []node
	flattenItems(v, &out)
	return out
}

func flattenItems(v any, out *[]node) {
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			flattenItems(e, out)
		}
	case node:
		if g, ok := t["@graph"]; ok {
			flattenItems(g, out)
			return
		}
		if len(*out) < maxItems {
			*out = append(*out, t)
		}
	}
}

// repairJSON fixes the mistakes found in real booking mails: objects
// listed without commas ("}{"), trailing commas, raw newlines and tabs
// inside strings, and several top-level objects not wrapped in an array.
func repairJSON(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b) + 16)
	inStr, esc := false, false
	topLevel := 0 // complete top-level values seen
	depth := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			case c == '\n':
				out.WriteString(`\n`)
				continue
			case c == '\r':
				continue
			case c == '\t':
				out.WriteString(`\t`)
				continue
			}
			out.WriteByte(c)
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			if prev := lastNonSpace(out.Bytes()); prev == '}' || prev == ']' {
				out.WriteByte(',')
				if depth == 0 {
					topLevel++
				}
			}
			depth++
		case '}', ']':
			// Drop a trailing comma before a closing bracket.
			trimTrailingComma(&out)
			depth--
		}
		out.WriteByte(c)
	}
	r := out.Bytes()
	if topLevel > 0 {
		r = append(append([]byte{'['}, r...), ']')
	}
	return r
}

func lastNonSpace(b []byte) byte {
	for i := len(b) - 1; i >= 0; i-- {
		switch b[i] {
		case ' ', '\n', '\r', '\t':
			continue
		}
		return b[i]
	}
	return 0
}

func trimTrailingComma(out *bytes.Buffer) {
	b := out.Bytes()
	i := len(b) - 1
	for i >= 0 && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i--
	}
	if i >= 0 && b[i] == ',' {
		out.Truncate(i)
	}
}

// microdata returns the top-level schema.org items of an HTML document's
// microdata (HTML Living Standard, "Microdata"): elements with itemscope
// and no itemprop, their properties read from itemprop descendants.
// Values come from content, href, src, datetime or value attributes, else
// the element's text. Unlike the text the user reads, hidden elements
// count: senders put microdata in invisible <meta> tags on purpose.
func microdata(doc string) []node {
	if !strings.Contains(doc, "itemscope") {
		return nil
	}
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		return nil
	}
	var out []node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if len(out) >= maxItems {
			return
		}
		if n.Type == html.ElementNode && hasAttr(n, "itemscope") && !hasAttr(n, "itemprop") {
			out = append(out, microdataItem(n, 0))
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return out
}

func microdataItem(n *html.Node, depth int) node {
	item := node{}
	// An item may have several types ("…/LodgingReservation
	// …/Reservation"), as JSON-LD's list of types: each is kept.
	switch ts := strings.Fields(attr(n, "itemtype")); {
	case len(ts) == 1:
		item["@type"] = ts[0]
	case len(ts) > 1:
		types := make([]any, 0, min(len(ts), 8))
		for _, t := range ts[:min(len(ts), 8)] {
			types = append(types, t)
		}
		item["@type"] = types
	}
	if depth > 16 {
		return item
	}
	var props func(p *html.Node)
	props = func(p *html.Node) {
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			names := strings.Fields(attr(c, "itemprop"))
			scoped := hasAttr(c, "itemscope")
			if len(names) > 0 {
				var v any
				if scoped {
					v = microdataItem(c, depth+1)
				} else {
					v = microdataValue(c)
				}
				for _, name := range names {
					addProp(item, name, v)
				}
			}
			if !scoped {
				props(c)
			}
		}
	}
	props(n)
	return item
}

// addProp sets a property, turning it into a list when it repeats.
func addProp(item node, name string, v any) {
	old, ok := item[name]
	if !ok {
		item[name] = v
		return
	}
	if l, ok := old.([]any); ok {
		item[name] = append(l, v)
		return
	}
	item[name] = []any{old, v}
}

func microdataValue(n *html.Node) string {
	for _, k := range []string{"content", "datetime", "href", "src", "value"} {
		if hasAttr(n, k) {
			return strings.TrimSpace(attr(n, k))
		}
	}
	var b strings.Builder
	var text func(c *html.Node)
	text = func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
		for d := c.FirstChild; d != nil; d = d.NextSibling {
			text(d)
		}
	}
	text(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}
