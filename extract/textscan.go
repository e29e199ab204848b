package extract

import (
	"iter"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/words"
)

// Small helpers every text reader shares: lines, words, digits.

// sharesWord reports whether name has a word of four letters or more
// that lower-cased about holds whole.
func sharesWord(name, about string) bool {
	for _, w := range strings.Fields(strings.ToLower(name)) {
		w = strings.Trim(w, ".,;:!'’*=")
		if utf8.RuneCountInString(w) >= 4 && words.Has(about, w) {
			return true
		}
	}
	return false
}

// endsWithWord reports whether s, less its trailing spaces, ends with one
// of ws as whole words.
func endsWithWord(s string, ws []string) bool {
	s = strings.TrimRight(s, " \t")
	for _, w := range ws {
		if !strings.HasSuffix(s, w) {
			continue
		}
		// "'ll be" holds to the word before it ("it'll be").
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsLetter(r) || !words.In(s, len(s)-len(w), true) {
			return true
		}
	}
	return false
}

func firstLines(s string, n int) string {
	i := 0
	for k := 0; k < n; k++ {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		i += j + 1
	}
	return s[:i]
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = regexp.QuoteMeta(x)
	}
	return out
}

// linesWith yields the lines of text whose lower case holds a phrase of
// set: an expression with no literal start to skip ahead by then reads
// only those.
func linesWith(set *words.Set, text string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if !set.Any(lower(text)) {
			return
		}
		for ln := range strings.Lines(text) {
			if set.Any(strings.ToLower(ln)) && !yield(ln) {
				return
			}
		}
	}
}
