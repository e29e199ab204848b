package extract_test

import (
	"testing"
	"time"
)

// TestNextBillDueDate: a bill that prints the next bill's due day above
// its own ("Bir Sonraki Son Ödeme Tarihi", foreign-21's Türk Telekom
// invoice; "Next due date") is due on its own day; a next day alone is
// still read.
func TestNextBillDueDate(t *testing.T) {
	day := time.Date(2026, 5, 31, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct{ name, from, body, due string }{
		{"tr", "Türk Telekom <e-fatura@turktelekom.example.com.tr>",
			"Fatura Tarihi : 31 Mayıs 2026\nBir Sonraki Fatura Kesim Tarihi : 28/06/2026\nBir Sonraki Son Ödeme Tarihi : 15/07/2026\nFATURA ID: A012026049583107\nSON ÖDEME TARİHİ : 16/06/2026\nÖdenecek Tutar : 22,75 TL\n",
			"2026-06-16"},
		{"en", "Northfield Broadband <billing@northfield.example>",
			"Invoice NB-0093314\nNext due date: 15/07/2026\nAmount due: £34.20\nDue date: 16/06/2026\n",
			"2026-06-16"},
		{"en, the next day alone", "Northfield Broadband <billing@northfield.example>",
			"Invoice NB-0093314\nAmount due: £34.20\nNext due date: 15/07/2026\n",
			"2026-07-15"},
	} {
		t.Run(c.name, func(t *testing.T) {
			facts := mailFacts(c.from, "Your invoice", c.body, day)
			if len(facts) != 1 || facts[0].Bill == nil || facts[0].Bill.Due == nil {
				t.Fatalf("got %+v, want one bill with its due day", facts)
			}
			if got := facts[0].Bill.Due.Format("2006-01-02"); got != c.due {
				t.Errorf("due %s, want %s", got, c.due)
			}
		})
	}
}
