package extract_test

// The fifteenth outside review: what one mail may cost after 56c5e59f.

import (
	"strings"
	"testing"
	"time"
)

// ATTACK (MEDIUM, one mail holds sync and extraction for seconds; new
// with 56c5e59f): onlyAmount reads every amount of a notice's first 60
// lines (eight a line) when the mail has an invoice number, and each
// amount's currency (moneyAt -> dollar) runs dollarCodeRE over the
// text's first 80 lines, which may be the whole 256 KB a text is cut at
// (lines 61-80 long). 56 lines of eight "$1.00" and a 240 KB line after
// them: 480 scans of 240 KB, 5 s of one core for one stranger's mail
// here (89 ms before 56c5e59f; the same mail without "Invoice number"
// 28 ms). A hundred such mails hold sync's facts pass for minutes.
// SAFE: under a second: the currency's context read once a mail (or
// once a line: dollar's codes of firstLines(text, 80) cached in the
// msgContext), onlyAmount returning at the first second amount it would
// compare, or firstLines bounded by bytes as well as lines.
func TestReview15OnlyAmountCost(t *testing.T) {
	var b strings.Builder
	b.WriteString("Invoice number: INV-20271\nYour invoice is ready\n\n$1.00\n\n")
	for range 56 {
		b.WriteString(strings.Repeat("$1.00 ", 8) + "\n")
	}
	b.WriteString(strings.Repeat("lorem ipsum dolor sit amet ", 9000) + "\n")
	start := processCPU()
	mailFacts("Brightlane <billing@brightlane.example>", "Your invoice", b.String(), time.Date(2027, 3, 12, 9, 0, 0, 0, time.UTC))
	if d := processCPU() - start; d > time.Second*raceSlowdown {
		t.Errorf("one %d-byte mail took %v", b.Len(), d)
	}
}
