package extract

import (
	"mailnode/extract/lazyregexp"
)

// An order's number in its subject right after the words of an order
// placed in any language (status.ordered: "Potwierdzenie zamówienia
// ZAM/2026/10/0412", "Bestellbestätigung 4471-2290", "Order confirmation
// #SO-55120"), where subjectOrderRE wants one of six languages' words for
// an order and a sign for "number".

// subjectCodeRE is the code after the words: an optional sign for
// "number", then letters and digits with dashes, slashes or dots inside.
var subjectCodeRE = lazyregexp.New(`^[ \t]*(?:(?:nr|no|n[°º]|č|br|núm)\.?[ \t]*)?[#:]?[ \t]*([A-Za-z0-9][A-Za-z0-9/.\-]{2,30}[0-9])(?:$|[ \t,;)!])`)

// subjectDateRE is a date written with slashes, dots or dashes, which is
// no order's number.
var subjectDateRE = lazyregexp.New(`^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$`)

// maxSubjectScan bounds the subject read: a subject is a line of a
// few dozen words.
const maxSubjectScan = 512

// confirmedNumber is the code right after an order placed's words in a
// subject, with four digits or more and not a date, or "".
func confirmedNumber(subject string) string {
	if len(subject) > maxSubjectScan {
		subject = subject[:maxSubjectScan]
	}
	l := lower(subject)
	if len(l) != len(subject) {
		return "" // a letter whose lower case is longer: offsets differ
	}
	num, tries := "", 0
	orderedWords.EachAt(l, func(_, end int) bool {
		// A stem's word ("order confirm|ation") ends within a few
		// letters; hostile text may hold thousands of hits.
		if tries++; tries > 8 {
			return false
		}
		for n := 0; end < len(l) && isLetterByte(l[end]) && n < 24; n++ {
			end++
		}
		m := subjectCodeRE.FindStringSubmatchIndex(subject[end:])
		if m == nil {
			return true
		}
		code := subject[end+m[2] : end+m[3]]
		if countDigits(code) < 4 || subjectDateRE.MatchString(code) || masked(code) {
			return true
		}
		num = code
		return false
	})
	return num
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 0x80 }

func countDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) {
			n++
		}
	}
	return n
}
