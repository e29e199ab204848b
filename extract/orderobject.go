package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/words"
)

// The order shipped as the object of a verb in the first person plural,
// as the inflected languages say it ("Wysłaliśmy Twoje zamówienie",
// "Odeslali jsme Vaši objednávku", "Poslali smo vašu narudžbu", "Мы
// отправили ваш заказ"; status.shipped.object in extract/lang/data). The
// verb alone says nothing of what was sent ("Wysłaliśmy Ci e-mail z
// potwierdzeniem zamówienia", "Poslali smo vam račun za narudžbu"): the
// order's or the parcel's noun in the accusative (status.object) must
// stand next to it, after it or before it, with only the words of
// status.object.filler between (a possessive, "you", "today", a number and
// its sign).

// objectPhrase is where statusPhrases' verbs that need an object begin.
var objectPhrase = len(statusPhrases) - len(lang.Entries("status.shipped.object"))

// objectNouns and objectFillers are status.object and
// status.object.filler, lower case.
var (
	objectNouns   = wordSet("status.object")
	objectFillers = wordSet("status.object.filler")
)

// asideWords send the order elsewhere than to its buyer
// (status.object.aside): "мы отправили ваш заказ на сборку" (for
// packing), "zostało przekazane do realizacji" is no shipping.
var asideWords = words.NewWholeSet(lang.Entries("status.object.aside"))

// sentAside reports whether the rest of the sentence after a shipped
// verb or participle that ends at end, its next 64 bytes, sends the order
// elsewhere (asideWords).
func sentAside(s string, end int) bool {
	rest := s[end:min(len(s), end+64)]
	if i := strings.IndexAny(rest, ".!?;\n"); i >= 0 {
		rest = rest[:i]
	}
	return asideWords.In(rest)
}

// objectNext reports whether the verb phrase that ends at end in the
// lower-cased s starts a word, has no negation fused to it, and has the
// order's or the parcel's noun for its object within four words either
// side in its sentence.
func objectNext(s string, phrase, end int) bool {
	start := end - len(statusPhrases[phrase])
	if r, _ := utf8.DecodeLastRuneInString(s[:start]); start > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
		return false // "neodeslali jsme": not sent
	}
	if end < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[end:]); unicode.IsLetter(r) {
			return false
		}
	}
	hi := min(len(s), end+96)
	if objectIn(strings.Fields(s[end:hi]), hi < len(s), false) {
		return true
	}
	lo := max(0, start-96)
	before := strings.Fields(s[lo:start])
	for i, j := 0, len(before)-1; i < j; i, j = i+1, j-1 {
		before[i], before[j] = before[j], before[i]
	}
	return objectIn(before, lo > 0, true)
}

// objectIn reports whether the first word of ws (words from the verb
// outward, back: going back before it) that is no filler is the order's
// or the parcel's noun. A word that ends its sentence ends the search
// (going back, the sentence before); a number's sign ("nr.", "č.", "br.")
// ends none. The last word of a window cut short is not read.
func objectIn(ws []string, cut, back bool) bool {
	for i, w := range ws {
		if i >= 5 || cut && i == len(ws)-1 {
			return false
		}
		t := strings.TrimLeft(strings.TrimRight(w, ",;:)"), "(„\"'«")
		core := strings.TrimRight(t, ".!?")
		ends := len(core) < len(t)
		if ends && objectFillers[core] && utf8.RuneCountInString(core) <= 3 {
			ends = false // "nr. 4471"
		}
		if back && ends {
			return false
		}
		switch {
		case objectNouns[core]:
			return true
		case objectFillers[core] || core == "" || core == "#" || hasDigit(core):
		default:
			return false
		}
		if ends {
			return false
		}
	}
	return false
}
