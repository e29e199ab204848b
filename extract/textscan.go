package extract

import (
	"iter"
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
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

// firstTextLines is s up to its n-th line that holds more than white
// space: flattened HTML parts its paragraphs by blank lines, which say
// nothing of how far down a mail something is.
func firstTextLines(s string, n int) string {
	i := 0
	for k := 0; k < n; {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		if strings.TrimSpace(s[i:i+j]) != "" {
			k++
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

// isREspace is the regexp package's \s: ASCII white space but \v.
func isREspace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r' }

// firstWordOf is where in s the first word of words starts, or -1.
func firstWordOf(s string, words map[string]bool) int {
	for start, end := range letterRuns(s) {
		if words[strings.ToLower(s[start:end])] {
			return start
		}
	}
	return -1
}

// letterRuns yields where each run of letters of s starts and ends: its
// words, as the stop markers are written.
func letterRuns(s string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < len(s); {
			j := strings.IndexFunc(s[i:], unicode.IsLetter)
			if j < 0 {
				return
			}
			start := i + j
			end := strings.IndexFunc(s[start:], func(r rune) bool { return !unicode.IsLetter(r) })
			if end < 0 {
				end = len(s) - start
			}
			if !yield(start, start+end) {
				return
			}
			i = start + end
		}
	}
}

// withoutLeading is s less a first word that is one of words.
func withoutLeading(s string, words map[string]bool) string {
	w, rest, ok := strings.Cut(s, " ")
	if ok && words[strings.ToLower(w)] {
		return strings.TrimLeft(rest, " ")
	}
	return s
}

// wordSet is a category's entries of every language as a set of words.
func wordSet(category string) map[string]bool {
	m := map[string]bool{}
	for _, e := range lang.Entries(category) {
		m[e] = true
	}
	return m
}

func hasDigit(s string) bool {
	return indexDigit(s, 0) >= 0
}

// mayHoldFolded reports whether s may hold one of words (lower case) in
// any case, as an expression's (?i) reads it: whether s lowered holds
// one. Lowering maps every case of the words' letters to the one the
// words have, the Kelvin sign to "k" too, but not "ſ", which (?i) takes
// for an "s": with one in s, the expression is left to decide. It spares
// expressions that are tried from every place in a text a text without
// their words.
func mayHoldFolded(s string, words []string) bool {
	if strings.Contains(s, "ſ") {
		return true
	}
	l := lowerLine(s)
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(l, w) })
}

// spacesAt counts the regexp package's white space (\s) in s from i on.
func spacesAt(s string, i int) int {
	n := 0
	for i+n < len(s) && isREspace(s[i+n]) {
		n++
	}
	return n
}

// isASCIIWordByte is the regexp package's \w, which \b looks at.
func isASCIIWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// indexDigit returns the index of the first ASCII digit in text at or
// after from, or -1. It runs over the text of every synced message, where
// a loop of a byte at a time was a sixth of extracting generated mail:
// eight bytes are tested at once (hasbetween, from Sean Anderson's "Bit
// Twiddling Hacks"; exact per byte, since no lane borrows or carries).
func indexDigit(text string, from int) int {
	const (
		ones = 0x0101010101010101
		low7 = ones * 0x7f
		high = ones * 0x80
	)
	i := from
	for ; i+8 <= len(text); i += 8 {
		w := uint64(text[i]) | uint64(text[i+1])<<8 | uint64(text[i+2])<<16 | uint64(text[i+3])<<24 |
			uint64(text[i+4])<<32 | uint64(text[i+5])<<40 | uint64(text[i+6])<<48 | uint64(text[i+7])<<56
		x := w & low7
		// A lane's high bit: below '9'+1, at or above '0', and ASCII.
		if d := (ones*(127+'9'+1) - x) & ^w & (x + ones*(127-('0'-1))) & high; d != 0 {
			return i + bits.TrailingZeros64(d)/8
		}
	}
	for ; i < len(text); i++ {
		if text[i]-'0' < 10 {
			return i
		}
	}
	return -1
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// hasCapitals reports whether s holds n capital letters (ASCII) in a
// row: an airport's code, a flight's designator.
func hasCapitals(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }

// digitCount is how many ASCII digits s holds.
func digitCount(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}

// lineAround bounds the part of s's line around offset at that a
// phrase's context is read in: at most before bytes back and after bytes
// on, on rune boundaries. Only those bytes are looked at, so that a
// hostile line holding a phrase thousands of times costs each a bounded
// look (the fifth outside review: a line scanned whole per phrase took
// 17 s for 1.6 MB).
func lineAround(s string, at, before, after int) (start, stop int) {
	lo, hi := max(0, at-before), min(len(s), at+after)
	start = strings.LastIndexByte(s[lo:at], '\n') + 1 + lo
	stop = hi
	if i := strings.IndexByte(s[at:hi], '\n'); i >= 0 {
		stop = at + i
	}
	for start < at && !utf8.RuneStart(s[start]) {
		start++
	}
	for stop > at && stop < len(s) && !utf8.RuneStart(s[stop]) {
		stop--
	}
	return start, stop
}
