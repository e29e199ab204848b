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
	if i < 0 || !billTopic.Any(lower(subject[:i])) {
		return ""
	}
	m := subjectNumRE.FindStringSubmatch(subject[i+1:])
	if m == nil || !hasDigit(m[1]) {
		return ""
	}
	return m[1]
}
