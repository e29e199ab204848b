package extract

import (
	"strings"
	"unicode/utf8"
)

// Marks that print nothing: a bidi embedding or mark (U+202A-U+202E,
// U+2066-U+2069, U+200E, U+200F), a zero-width space or joiner (U+200B-
// U+200D, U+2060, U+FEFF), a soft hyphen (U+00AD) and the grapheme joiner
// (U+034F) that shops pad their preheaders with. Gmail's forward of a
// right-to-left-aware part leaves U+202B before an order's number
// ("Nr zamówienia \u202b403-1234567-1234567"); between a label and its value,
// or inside a value, such a mark broke it.

// printsNothing reports whether r is one of those marks (mail/invisible
// strips more: controls, tags, variation selectors, which a value never
// holds in the middle and the readers count lines and tabs by).
func printsNothing(r rune) bool {
	switch {
	case r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return r == 0xFEFF || r == 0xAD || r == 0x34F
}

// dropInvisible is s without the marks that print nothing. Their UTF-8
// forms start with 0xE2, 0xEF, 0xC2 or 0xCD: a text without such a mark
// is returned as it is, without a copy, found by looking for each of
// those bytes (strings.IndexByte) rather than at every byte: every mail's
// text passes here.
func dropInvisible(s string) string {
	i := firstInvisible(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !printsNothing(r) || n == 1 {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// invisibleLeads are the first bytes of the marks' UTF-8 forms.
const invisibleLeads = "\xe2\xef\xc2\xcd"

// firstInvisible is the offset of s's first mark that prints nothing, or
// -1. Each lead byte's next place is kept and looked for again only once
// passed, so that a text of many "€" or no-break spaces is still read
// once for each lead byte.
func firstInvisible(s string) int {
	var next [len(invisibleLeads)]int
	for k := range next {
		next[k] = -2 // not looked for yet
	}
	from := 0
	for {
		i := -1
		for k := range next {
			if next[k] == -2 || next[k] >= 0 && next[k] < from {
				next[k] = -1
				if j := strings.IndexByte(s[from:], invisibleLeads[k]); j >= 0 {
					next[k] = from + j
				}
			}
			if next[k] >= 0 && (i < 0 || next[k] < i) {
				i = next[k]
			}
		}
		if i < 0 {
			return -1
		}
		if r, _ := utf8.DecodeRuneInString(s[i:]); printsNothing(r) {
			return i
		}
		from = i + 1
	}
}
