package extract

import (
	"strings"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/words"
)

// returnPolicyWords say a return may be made, for how long or on what
// terms ("Free returns within 30 days", "Повернення товару можливе
// протягом 14 днів"; status.return_policy): a shop's footer, not a
// return done.
var returnPolicyWords = words.NewWholeSet(lang.Entries("status.return_policy"))

// policyReach is how far before and after a return's phrase its terms are
// looked for: a sentence's reach.
const policyReach = 160

// inReturnPolicy reports whether the sentence of s around a return's
// phrase ending at end says a return's possibility, period or policy, not
// a return done ("Your return has been received" still is one). Asked
// only of a return's phrases, so a mail without one pays nothing.
func inReturnPolicy(s string, end int) bool {
	start, stop := lineAround(s, end, policyReach, policyReach)
	return returnPolicyWords.In(s[start:stop])
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
