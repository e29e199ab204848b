package extract

import (
	"mailnode/extract/lazyregexp"
	"strings"
)

// A bill numbered only in its subject (issue 46, the sixth outside set):
// a payment processor's receipt writes "Your receipt from Linear Orbit,
// Inc. #2391-0042" as its subject and the amount and date paid in its
// body, with no label for the number anywhere.

// subjectNumRE is a bill's number right after "#": letters, digits,
// dashes and slashes, ending in a digit.
var subjectNumRE = lazyregexp.New(`^ ?([A-Za-z0-9][A-Za-z0-9\-/]{2,30}[0-9])\b`)

// subjectBillNumber is the number after the first "#" of a subject that
// names a bill (bill.topic: "receipt", "invoice", "Rechnung", "facture",
// "recibo"), a digit in it.
func subjectBillNumber(subject string) string {
	i := strings.IndexByte(subject, '#')
	if i < 0 {
		return subjectCodeAfterTopic(subject)
	}
	if !billTopic.Any(lower(subject[:i])) {
		return ""
	}
	m := subjectNumRE.FindStringSubmatch(subject[i+1:])
	if m == nil || !hasDigit(m[1]) {
		return ""
	}
	return m[1]
}

// subjectBillCodeRE is a bill's code right after its word in a subject, that
// ends the subject: capitals then digits ("Trip Invoice Receipt
// CRN82937402"), or digits alone, six or more.
var subjectBillCodeRE = lazyregexp.New(`^[ \t]*:?[ \t]*((?:[A-Z]{2,6}[-/]?)?\d{6,20})[ \t.]*$`)

// subjectCodeAfterTopic is the code a subject ends with right after a
// word that names a bill (bill.topic), "" when none: a ride's receipt
// numbers itself so, with no "#" and no label.
func subjectCodeAfterTopic(subject string) string {
	l := lower(subject)
	if len(l) != len(subject) {
		return "" // lowering changed the bytes' places
	}
	code := ""
	billTopic.EachAt(l, func(_, end int) bool {
		if m := subjectBillCodeRE.FindStringSubmatch(subject[end:]); m != nil && !yearRE.MatchString(m[1]) && !compactDate(m[1]) {
			code = m[1]
			return false
		}
		return true
	})
	return code
}
