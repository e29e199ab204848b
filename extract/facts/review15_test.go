package facts_test

// The fifteenth outside review (2026-11-30, an attacker given the docs and
// a clone): proofs through the facts store and bills_due.

import (
	"strings"
	"testing"
	"time"
)

// ATTACK (HIGH, a real bill lost; new with 56c5e59f): parenNumber reads
// a bill's number from "(...)" after the word bill/invoice/receipt in the
// first 30 lines, any run of capitals, digits and hyphens with three
// digits. A utility's footer "Questions about your bill
// (1-800-555-0199)" gives every mail of the sender the same number, so
// the bills merge into one: last month's payment receipt ($75.00 paid)
// and this month's bill ($80.00 due December 9) are one bill, paid, and
// the due one leaves bills_due (before 56c5e59f each was a bill of its
// own, the due one listed).
// SAFE: bills_due lists the $80.00 bill: a number in parentheses is
// none when it has a phone number's shape (a leading 1- or +, groups of
// 3-3-4) or follows "about/questions/call"; better, only right after the
// word for the bill with nothing between ("invoice (INV12430225)") and
// holding a letter or no hyphen.
func TestReview15PhoneInParenthesesMergesBills(t *testing.T) {
	seed := review10Mail("Riverton Power <billing@rivertonpower.example>", "rivertonpower.example", "", "Welcome to Riverton Power", "Sat, 21 Nov 2025 08:00:00 +0100", "Hi Alex, welcome.\r\n", 1)
	footer := "\r\nQuestions about your bill (1-800-555-0199) are welcome any day.\r\n"
	paid := review10Mail("Riverton Power <billing@rivertonpower.example>", "rivertonpower.example", "", "Payment received", "Mon, 23 Nov 2026 08:00:00 +0100",
		"Hi Alex,\r\n\r\nThank you for your payment of $75.00 for your October bill.\r\n"+footer, 2)
	due := review10Mail("Riverton Power <billing@rivertonpower.example>", "rivertonpower.example", "", "Your November bill is ready", "Wed, 25 Nov 2026 08:00:00 +0100",
		"Hi Alex,\r\n\r\nYour November bill is ready.\r\nAmount due: $80.00\r\nDue date: December 9, 2026\r\n"+footer, 3)
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, paid, time.Now().Add(-48*time.Hour)), review7Msg(3, due, time.Now()))
	got := review10Bills(t, fx)
	t.Logf("bills_due = %s", got)
	if !strings.Contains(got, "80.00") {
		t.Errorf("the November bill of $80.00 is not due: %s", got)
	}
}
