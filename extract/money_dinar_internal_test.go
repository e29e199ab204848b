package extract

import "testing"

// TestDinars: Serbian dinars after the number with their dot or in full,
// and "RSD" either side; "din" without its dot is Romanian's or Swedish's
// word, not a currency. Macedonian denars ("ден.") in a Macedonian text
// only: in Bulgarian the word is "day".
func TestDinars(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Iznos za uplatu: 2.499,00 din.", "2499.00 RSD"},
		{"Укупно: 12.499,00 дин.", "12499.00 RSD"},
		{"Ukupno: 690 dinara", "690.00 RSD"},
		{"Total: RSD 1.200,00", "1200.00 RSD"},
		{"Total: 5 din 10", ""},
		{"Вкупно: 2.490,00 ден.\nВи благодариме што купувате кај нас, ќе ве известиме.", "2490.00 MKD"},
		{"Сума: 1 ден.", ""}, // Bulgarian "day", no Macedonian letter
		{"Вкупно: 1.150 MKD", "1150.00 MKD"},
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

// TestLabelCurrencyAmount: a label that names its currency, its figure
// bare on its line or the next; a label whose line goes on in words, or a
// figure without cents, gives none.
func TestLabelCurrencyAmount(t *testing.T) {
	for _, c := range []struct{ line, next, want string }{
		{" in CHF", "53,00", "53.00 CHF"},
		{" (EUR)   41,80", "", "41.80 EUR"},
		{" EUR: 1.234,56", "", "1234.56 EUR"},
		{" in CHF", "3 Artikel", ""},
		{" in CHF inkl. MwSt.", "53,00", ""},
		{" (EUR)", "42", ""},
	} {
		got := ""
		if m := labelCurrencyAmount(c.line, c.next); m != nil {
			got = m.Amount + " " + m.Currency
		}
		if got != c.want {
			t.Errorf("labelCurrencyAmount(%q, %q) = %q, want %q", c.line, c.next, got, c.want)
		}
	}
}
