package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
)

// stopMarkers are the one-word labels that say a stop departs or arrives
// ("ab", "Odjezd", "dép."), every language's (extract/lang), looked up
// as words. One regular expression of all of them, tried at every
// position of every stop line, cost more than the rest of reading a stop.
// The value says whether the word may end with a dot ("dep.").
type stopMarkers map[string]bool

// newStopMarkers reads the categories' entries, each a word or a word
// with an optional dot (`dep\.?`).
func newStopMarkers(categories ...string) stopMarkers {
	m := stopMarkers{}
	for _, c := range categories {
		for _, e := range lang.Entries(c) {
			w, dot := strings.CutSuffix(e, `\.?`)
			if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
				panic("extract: the stop marker " + e + " of " + c + " is not one word")
			}
			w = strings.ToLower(w)
			m[w] = m[w] || dot
		}
	}
	return m
}

var (
	depMarkers     = newStopMarkers("departure", "departure.marker", "departure.verb")
	arrMarkers     = newStopMarkers("arrival", "arrival.marker")
	allStopMarkers = newStopMarkers("departure", "departure.marker", "departure.verb", "arrival", "arrival.marker")
	// depLabelWords are the departure's labels alone, without the short
	// words for "from" ("fra", "de") a stay's start may follow.
	depLabelWords = newStopMarkers("departure")
)

// has reports whether the lower-case word w is a marker.
func (m stopMarkers) has(w string) bool {
	_, ok := m[w]
	return ok
}

// ends reports whether s ends with a marker (spaces after it aside) and
// returns s without it.
func (m stopMarkers) ends(s string) (string, bool) {
	t := strings.TrimRightFunc(s, unicode.IsSpace)
	dot := strings.HasSuffix(t, ".")
	t = strings.TrimSuffix(t, ".")
	i := len(t)
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(t[:i])
		if !unicode.IsLetter(r) {
			break
		}
		i -= n
	}
	if i == len(t) {
		return s, false
	}
	dotOK, ok := m[strings.ToLower(t[i:])]
	if !ok || dot && !dotOK {
		return s, false
	}
	return t[:i], true
}

// starts reports whether s starts with a marker (after anything but
// letters) that is followed by anything but a letter, and returns what
// follows the marker.
func (m stopMarkers) starts(s string) (string, bool) {
	t := strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) })
	if i < 0 {
		i = len(t)
	}
	if i == 0 {
		return s, false
	}
	if _, ok := m[strings.ToLower(t[:i])]; !ok {
		return s, false
	}
	return t[i:], true
}
