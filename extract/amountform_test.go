package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestAmountInMinorUnits: an amount takes one form, the places of its
// currency's minor unit (ISO 4217): none for JPY and KRW ("2420 JPY", as
// the seventh outside set's labels wrote a bill "2,420円" gave "2420.00
// JPY"), two for the rest; a figure with places other than zero keeps
// them.
func TestAmountInMinorUnits(t *testing.T) {
	for _, c := range []struct {
		from, subject, text, want string
	}{
		{"ソラクモ <billing@sorakumo.example>", "【ソラクモ】2026年10月分のご請求",
			"請求書番号: SK-2610-5581\nご請求金額: 2,420円（税込）\nお支払期限: 2026年11月30日\n", "2420 JPY"},
		{"Kumoshelf <invoices@kumoshelf.example>", "Your Kumoshelf invoice KS-10422",
			"Invoice number: KS-10422\nAmount due: 3,960 JPY\nDue date: November 20, 2026\n", "3960 JPY"},
		{"Hanbit Telecom <bill@hanbit.example>", "Your Hanbit invoice HB-5512",
			"Invoice number: HB-5512\nAmount due: ₩39,800\nDue date: November 25, 2026\n", "39800 KRW"},
		{"Rackmoss Cloud <accounts@rackmoss.example>", "Your invoice RM-2026-104475",
			"Invoice number: RM-2026-104475\nInvoice amount: € 41.00\nPayment due: 16 November 2026\n", "41.00 EUR"},
		{"Kumoshelf <invoices@kumoshelf.example>", "Your Kumoshelf invoice KS-10423",
			"Invoice number: KS-10423\nAmount due: 3,960.50 JPY\nDue date: November 20, 2026\n", "3960.50 JPY"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)) {
			if b := f.Bill; b != nil && b.Amount != nil {
				got = b.Amount.Amount + " " + b.Amount.Currency
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
	for _, c := range []struct{ amount, cur, want string }{
		{"2420.00", "JPY", "2420"}, {"2420.50", "JPY", "2420.50"}, {"39800.00", "KRW", "39800"},
		{"1200.00", "ISK", "1200"}, {"18990.00", "HUF", "18990.00"}, {"41.00", "EUR", "41.00"}, {"5.00", "", "5.00"},
	} {
		if got := extract.InMinorUnits(c.amount, c.cur); got != c.want {
			t.Errorf("InMinorUnits(%q, %q) = %q, want %q", c.amount, c.cur, got, c.want)
		}
	}
}
