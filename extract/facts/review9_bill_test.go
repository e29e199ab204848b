package facts_test

// The ninth outside review (2026-11-29), L2 (from the review's x9_test.go).

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Proves L2 of the ninth outside review is fixed: a bill in a sentence
// that a conditional opens states no bill (owedAmount). Before: a bank's newsletter tip in a conditional ("if your
// statement shows a past due balance of $86.40, please pay by …") is a
// trusted bill due.
func TestReview9NewsletterTipIsNoBill(t *testing.T) {
	seed := review9Mail("MyBank <news@mybank-news.example>", "mybank-news.example", "Welcome", "Mon, 01 Dec 2025 08:00:00 +0100", "s0", "Welcome.\r\n")
	tip := review9Mail("MyBank <news@mybank-news.example>", "mybank-news.example", "Your monthly account newsletter",
		"Sat, 21 Nov 2026 08:00:00 +0100", "n1",
		"Hi Alex,\r\n\r\nTip of the month: if your statement shows a past due balance of $86.40, please pay by December 22, 2026 to avoid a late fee.\r\n\r\nUnsubscribe\r\n")
	fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, tip, time.Now()))
	bills, err := fx.fx.BillsDue(context.Background(), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), time.Date(2027, 11, 22, 0, 0, 0, 0, time.UTC), 20)
	if err != nil {
		t.Fatal(err)
	}
	got := join(bills)
	t.Logf("bills_due: %s", got)
	if strings.Contains(got, "86.40") {
		t.Errorf("a newsletter's conditional tip is a bill due (trusted=%v)", strings.Contains(got, `"trusted_sender":true`))
	}
}
