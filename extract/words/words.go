// Package words finds whole words in lower-cased text: the test the
// extractors use to tell a travel mail by its vocabulary and the
// injection rules use to look for their required words, without a regular
// expression per word.
package words

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Has reports whether text holds w as a whole word: not inside a longer
// word of letters, digits or underscores ("hotel" is not in "hotels").
// A trailing '*' lets more letters follow ("instruct*" finds
// "instructions"), a leading one lets more letters come before
// ("*bussen" finds "västkustbussen"); a leading '=' asks for the plain
// substring.
func Has(text, w string) bool {
	if lit, ok := strings.CutPrefix(w, "="); ok {
		return strings.Contains(text, lit)
	}
	prefix := strings.HasSuffix(w, "*")
	w = strings.TrimSuffix(w, "*")
	suffix := strings.HasPrefix(w, "*")
	w = strings.TrimPrefix(w, "*")
	if w == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (suffix || !In(text, j, true)) && (prefix || !In(text, end, false)) {
			return true
		}
		i = j + 1
	}
}

// In reports whether the rune just before (before) or at offset i of text
// belongs to a word; the text's ends belong to none.
func In(text string, i int, before bool) bool {
	var r rune
	switch {
	case before && i > 0:
		r, _ = utf8.DecodeLastRuneInString(text[:i])
	case !before && i < len(text):
		r, _ = utf8.DecodeRuneInString(text[i:])
	default:
		return false
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
}
