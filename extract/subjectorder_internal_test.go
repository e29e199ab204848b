package extract

import (
	"strings"
	"testing"
)

// TestConfirmedNumber: the code right after an order placed's words in a
// subject, never a date or a short count; hostile subjects end quickly.
func TestConfirmedNumber(t *testing.T) {
	for in, want := range map[string]string{
		"Potwierdzenie zamówienia ZAM/2026/10/0412":   "ZAM/2026/10/0412",
		"Bestellbestätigung 4471-2290":                "4471-2290",
		"Order confirmation: SO-55120":                "SO-55120",
		"Order confirmation 19/11/2027":               "",
		"Thank you for your order 2 of 3":             "",
		"Your order from Paper & Quill":               "",
		"Order confirmation SO-55120, thanks!":        "SO-55120",
		strings.Repeat("bestellbestätigung", 20000):   "",
		strings.Repeat("your order ", 20000) + "1234": "",
	} {
		if got := confirmedNumber(in); got != want {
			t.Errorf("confirmedNumber(%.60q) = %q, want %q", in, got, want)
		}
	}
}
