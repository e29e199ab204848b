package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestJapanesePaymentReceipt: a payment app's receipt in Japanese, its
// labels and values apart by tabs ("ご利用明細", "決済総額", "伝票番号"),
// is a paid bill of its amount and slip number; a card company's
// statement of the same name, paid by a debit to come, is no paid one.
func TestJapanesePaymentReceipt(t *testing.T) {
	sent := time.Date(2027, 3, 13, 14, 52, 0, 0, time.FixedZone("JST", 9*3600))
	for _, tt := range []struct {
		name, from, text string
		status, amount   string
		number           string
	}{
		{"payment app's receipt", "Sakura Pay <no-reply@sakurapay.example.jp>",
			"ご利用明細\n\nご利用日時\t2027/03/13(土) 14:52\n伝票番号\tSPX4471902-270313\n\nご利用店舗\tカフェ・ミモザ\n\n決済総額\t¥2,480\nポイント\t0\nカード\t¥2,480\n\nお取引内容\t決済\n",
			"paid", "2480 JPY", "SPX4471902-270313"},
		{"card statement, debited later", "Hoshi Card <info@hoshicard.example.jp>",
			"ご利用明細のお知らせ\n\nご請求金額\t¥48,210\nお引き落とし日\t2027/04/10\nお支払い方法\t口座振替\n",
			"due", "48210 JPY", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b *extract.Bill
			for _, f := range mailFacts(tt.from, "ご利用明細", tt.text, sent) {
				if f.Bill != nil {
					b = f.Bill
				}
			}
			if b == nil || b.Amount == nil {
				t.Fatalf("no bill with an amount")
			}
			if got := b.Amount.Amount + " " + b.Amount.Currency; got != tt.amount || b.Status != tt.status || b.Number != tt.number {
				t.Errorf("bill %s, %s, %q; want %s, %s, %q", got, b.Status, b.Number, tt.amount, tt.status, tt.number)
			}
		})
	}
}
