package extract

import (
	"strings"
	"unicode"

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

// returnJourneyWords are a journey's nouns that a return's word may stand
// beside (status.return.journey: "flight", "vol", "reis").
var returnJourneyWords = words.NewWholeSet(lang.Entries("status.return.journey"))

// journeyBeside reports whether the word right after a return's phrase
// (after) or right before it (before) is a journey's noun: "Return
// flight", "vol retour".
func journeyBeside(before, after string) bool {
	// The phrase may end inside its word ("retur" in "return"): the
	// next word is the one after the word's end.
	after = strings.TrimLeftFunc(after, unicode.IsLetter)
	next := strings.Fields(after[:min(len(after), 40)])
	prev := strings.Fields(before[max(0, len(before)-40):])
	return len(next) > 0 && returnJourneyWords.In(strings.ToLower(strings.Trim(next[0], ".,:;!?()"))) ||
		len(prev) > 0 && returnJourneyWords.In(strings.ToLower(strings.Trim(prev[len(prev)-1], ".,:;!?()")))
}
