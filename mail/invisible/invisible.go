// Package invisible tells which characters a person reading a text cannot
// see: Unicode format characters (category Cf: zero-width space and
// joiners, soft hyphen, word joiner, BOM, bidi controls, tag characters),
// controls other than newline and tab, variation selectors, the few
// letters and symbols that render as blank, and the line and paragraph
// separators (U+2028, U+2029), which a text view breaks lines at though
// nothing counting lines by newline sees a line. Mail and agents' arguments are
// hostile input, and these are how a text says one thing to a program and
// another to a person: an address padded with zero-width spaces, a phrase
// split by a soft hyphen so that no rule matches it.
package invisible

import (
	"strings"
	"unicode"
)

// Is reports whether r is invisible or changes how the text around it is
// shown.
func Is(r rune) bool {
	switch r {
	case '\n', '\t':
		return false
	case '\u115F', '\u1160', '\u3164', '\uFFA0', '\u2800', // render as blank
		'\u034F',           // combining grapheme joiner
		'\uFFFC',           // object replacement
		'\u2028', '\u2029': // line and paragraph separators: a line break to a text view, none to a line count
		return true
	}
	return unicode.Is(unicode.Cf, r) || unicode.IsControl(r) ||
		unicode.Is(unicode.Variation_Selector, r) || (r >= 0xE0000 && r <= 0xE0FFF)
}

// Has reports whether s holds an invisible character.
func Has(s string) bool { return strings.ContainsFunc(s, Is) }

// Strip returns s without its invisible characters.
func Strip(s string) string {
	if !Has(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if Is(r) {
			return -1
		}
		return r
	}, s)
}
