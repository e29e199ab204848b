package extract

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// phraseExpr is an expression that starts with one of many phrases after
// no letter, "(?i)(?:^|[^\p{L}])(?:phrase|phrase…)rest": a label of every
// language's table and its value ("Línea 7", "desde 19,90 €"). Go's
// regexp has no literal to seek in such an expression and tries it from
// every byte of a mail, which cost a travel mail's extraction a fifth of
// its time for one of them. phraseExpr finds where a phrase's first word
// starts (one pass of a phrase set over the text, lower-cased as
// widthLower does) and tries the expression there only, anchored, which
// finds what the whole expression finds (FuzzPhraseExpr).
type phraseExpr struct {
	whole *lazyregexp.Regexp // the expression as written, for a phrase without a literal start
	at    *lazyregexp.Regexp // from the phrase on, anchored
	// anchors are the phrases' first words as widthLower writes them;
	// nil when a phrase starts with no literal.
	anchors []string
	set     *words.Set
}

// newPhraseExpr builds the expression of phrases (each an expression,
// most of them plain words) and rest. A phrase is looked for by its
// literal start (regexp's LiteralPrefix), as widthLower writes it; where
// one phrase has none, the whole expression runs as written.
func newPhraseExpr(phrases []string, rest string) *phraseExpr {
	alts := `(?:` + strings.Join(phrases, "|") + `)` + rest
	e := &phraseExpr{
		whole: lazyregexp.New(`(?i)(?:^|[^\p{L}])` + alts),
		at:    lazyregexp.New(`(?i)^` + alts),
	}
	for _, p := range phrases {
		lit, _ := regexp.MustCompile(p).LiteralPrefix()
		if lit == "" {
			return &phraseExpr{whole: e.whole}
		}
		if a := widthLower(lit); !slices.Contains(e.anchors, a) {
			e.anchors = append(e.anchors, a)
		}
	}
	e.set = words.NewSet(e.anchors)
	return e
}

// starts are the offsets in text where a phrase's first word starts
// after no letter, in order.
func (e *phraseExpr) starts(text string) []int {
	var out []int
	e.set.EachAt(widthLower(text), func(a, end int) bool {
		p := end - len(e.anchors[a])
		if p > 0 {
			if r, _ := utf8.DecodeLastRuneInString(text[:p]); unicode.IsLetter(r) {
				return true
			}
		}
		out = append(out, p)
		return true
	})
	slices.Sort(out)
	return slices.Compact(out)
}

// match reports whether text holds a match.
func (e *phraseExpr) match(text string) bool {
	if e.set == nil {
		return e.whole.MatchString(text)
	}
	for _, p := range e.starts(text) {
		if e.at.MatchString(text[p:]) {
			return true
		}
	}
	return false
}

// findAll is the whole expression's FindAllStringSubmatchIndex(text, n).
// A match's start is its phrase's, or the rune's before it: callers read
// its groups and its end.
func (e *phraseExpr) findAll(text string, n int) [][]int {
	if e.set == nil {
		return e.whole.FindAllStringSubmatchIndex(text, n)
	}
	var out [][]int
	last := 0
	for _, p := range e.starts(text) {
		if len(out) == n {
			break
		}
		// A match begins with the rune before its phrase: it may not be
		// in the last match.
		if p > 0 {
			if _, w := utf8.DecodeLastRuneInString(text[:p]); p-w < last {
				continue
			}
		} else if len(out) > 0 {
			continue
		}
		m := matchAt(e.at, text, p)
		if m == nil {
			continue
		}
		out = append(out, m)
		last = m[1]
	}
	return out
}

// matchAt is re's submatch indices in text[p:], anchored there, as
// offsets in text; nil when it does not match.
func matchAt(re *lazyregexp.Regexp, text string, p int) []int {
	m := re.FindStringSubmatchIndex(text[p:])
	for k := range m {
		if m[k] >= 0 {
			m[k] += p
		}
	}
	return m
}
