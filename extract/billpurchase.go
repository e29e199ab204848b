package extract

import (
	"strings"

	"mailnode/extract/lang"
	"mailnode/extract/words"
)

// A purchase's receipt is no bill (issue 46, the sixth outside set): an
// airline's eTicket receipt or a shop's purchase summary prints "Date of
// purchase", "Purchase Summary", "Kaufdatum" over its fares and its total,
// and a fee's "(Reference Number: …)" among them. It tells what was bought
// and paid at once, and the trip's and the order's readers read it; the
// bill reader took its total and the fee's reference for a bill due.

// purchaseLabels are a purchase's labels and headings (bill.purchase in
// extract/lang/data), found in one pass.
var (
	purchaseLabels  = lang.Entries("bill.purchase")
	purchasePhrases = words.NewSet(purchaseLabels)
)

// purchaseReceipt reports whether text labels a purchase: a phrase of
// bill.purchase that stands as a label or a heading, whole words followed
// on their line by a colon, a tab or nothing ("Date of purchase: Tue, Mar
// 31, 2026", "Purchase Summary"). The phrase in a sentence ("keep the date
// of purchase for your warranty") labels nothing.
func purchaseReceipt(text string) bool {
	l := lower(text)
	found := false
	purchasePhrases.EachAt(l, func(p, end int) bool {
		if words.In(l, end-len(purchaseLabels[p]), true) || words.In(l, end, false) {
			return true
		}
		rest := l[end:]
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i]
		}
		rest = strings.TrimLeft(rest, " ")
		found = rest == "" || rest[0] == ':' || rest[0] == '\t' || rest[0] == '\r'
		return !found
	})
	return found
}
