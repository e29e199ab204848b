package extract

import "testing"

// TestDinars: Serbian dinars after the number with their dot or in full,
// and "RSD" either side; "din" without its dot is Romanian's or Swedish's
// word, not a currency.
func TestDinars(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Iznos za uplatu: 2.499,00 din.", "2499.00 RSD"},
		{"Укупно: 12.499,00 дин.", "12499.00 RSD"},
		{"Ukupno: 690 dinara", "690.00 RSD"},
		{"Total: RSD 1.200,00", "1200.00 RSD"},
		{"Total: 5 din 10", ""},
	} {
		c := &msgContext{}
		got := ""
		if m := c.labelledAmount(tc.text); m != nil {
			got = m.Amount + " " + m.Currency
		}
		if got != tc.want {
			t.Errorf("labelledAmount(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
