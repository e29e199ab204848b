package extract

import "testing"

// TestNumberedOrder: an order's number before the word that numbers the
// order (Turkish, Hungarian); a number before another noun is none.
func TestNumberedOrder(t *testing.T) {
	for text, want := range map[string]string{
		"MS-77120934 numaralı siparişiniz kargoya verildi.": "MS-77120934",
		"Merhaba, 4410923 nolu siparişiniz hazırlanıyor.":   "4410923",
		"A KB-20441 számú rendelését a futár átvette.":      "KB-20441",
		"A 7712044 számú megrendelés visszaigazolása":       "7712044",
		"0850 123 45 67 numaralı müşteri hattımızı arayın.": "",
		"A 2027 számú hírlevél":                             "",
		"Sipariş özeti":                                     "",
		// A shop's order line is a phone's number (the sixth review).
		"Sipariş hattı: 0850-333-0333 numaralı sipariş hattımız 7/24 açıktır.":           "",
		"0212/444-0333 numaralı sipariş hattı; 026-1234567-1234567 numaralı siparişiniz": "026-1234567-1234567",
	} {
		if got := numberedOrder(text); got != want {
			t.Errorf("numberedOrder(%q) = %q, want %q", text, got, want)
		}
	}
}
