package tools

import (
	"bytes"
	"regexp"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"mailnode/mail/invisible"
)

// Visible returns a tool result, serialised as JSON, without characters a
// person cannot see: zero-width and bidi controls, Unicode tag characters
// (U+E0000-E0FFF, "ASCII smuggling": a model's tokenizer reads them as
// text while a person, and the node's own filters, see nothing), variation
// selectors and controls, raw or written as \u escapes. The tools' text
// already passes through redaction, which drops them; this is the last
// step before an agent sees anything, so that no field a tool forgot can
// carry them. None of them is JSON syntax, so the result stays valid.
func Visible(b []byte) []byte {
	if !invisible.Has(string(b)) && !bytes.Contains(b, []byte(`\u`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		if b[i] == '\\' && i+1 < len(b) {
			if m := escapeRE.FindSubmatchIndex(b[i:]); m != nil {
				hi := b[i+m[2] : i+m[3]]
				var lo []byte
				if m[4] >= 0 {
					lo = b[i+m[4] : i+m[5]]
				}
				if r := escaped(hi, lo); r == utf8.RuneError || !invisible.Is(r) {
					out = append(out, b[i:i+m[1]]...)
				}
				i += m[1]
				continue
			}
			out = append(out, b[i], b[i+1]) // another escape, kept whole
			i += 2
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError || !invisible.Is(r) {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

// escapeRE is a \u escape, or a surrogate pair of two.
var escapeRE = regexp.MustCompile(`^\\u([0-9a-fA-F]{4})(?:\\u([dD][c-fC-F][0-9a-fA-F]{2}))?`)

// escaped is the character a \u escape (and its low surrogate, if any)
// stands for.
func escaped(hi, lo []byte) rune {
	h, err := strconv.ParseUint(string(hi), 16, 32)
	if err != nil {
		return utf8.RuneError
	}
	if lo != nil && utf16.IsSurrogate(rune(h)) {
		l, err := strconv.ParseUint(string(lo), 16, 32)
		if err != nil {
			return utf8.RuneError
		}
		return utf16.DecodeRune(rune(h), rune(l))
	}
	return rune(h)
}
