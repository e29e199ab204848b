package extract_test

import (
	"testing"
	"time"
)

// Proves L2 of the ninth outside review (2026-11-29) is fixed: a
// newsletter's tip whose sentence (or clause) a conditional opens ("if
// your statement shows a past due balance of …, please pay by …", "Should
// …", "In case …") is no bill; the sentence as a notice writes it still is.
func TestReview9ConditionalSentenceIsNoBill(t *testing.T) {
	at := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	bill := func(text string) bool {
		for _, f := range mailFacts("MyBank <news@mybank-news.example>", "Your monthly account newsletter", text, at) {
			if f.Bill != nil && f.Bill.Amount != nil && f.Bill.Amount.Amount == "86.40" {
				return true
			}
		}
		return false
	}
	for _, text := range []string{
		"Hi Alex,\n\nTip of the month: if your statement shows a past due balance of $86.40, please pay by December 22, 2026 to avoid a late fee.\n",
		"Hi Alex,\n\nDid you know? If your statement shows a past due balance of $86.40, please pay by December 22, 2026.\n",
		"Hi Alex,\n\nShould your statement show a past due balance of $86.40, please pay by December 22, 2026.\n",
		"Hi Alex,\n\nA tip: in case your statement shows a past due balance of $86.40, please pay by December 22, 2026.\n",
		"Dear Alex, if your statement shows a past due balance of $86.40, please pay by December 22, 2026.\n",
	} {
		if bill(text) {
			t.Errorf("%q is a bill", text)
		}
	}
	if text := "Hi Alex,\n\nYour statement shows a past due balance of $86.40. Please pay by December 22, 2026 to avoid a late fee.\n"; !bill(text) {
		t.Errorf("%q is no bill", text)
	}
}
