package extract

import (
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
