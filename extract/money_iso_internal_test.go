package extract

import "testing"

// TestISOCodeAmounts: an amount in a currency the readers know only by
// its ISO 4217 code, in capitals, before or after the figure; three
// decimal places where the currency has them. Lower-case words that spell
// a code ("try", "pen") and capitals that are no code name no currency.
func TestISOCodeAmounts(t *testing.T) {
	c := &msgContext{}
	for _, tc := range []struct{ line, want string }{
		{"Amount due: KWD 18.750", "18.750 KWD"},
		{"Amount due: 18.750 KWD", "18.750 KWD"},
		{"Total: KWD 1,250.500", "1250.500 KWD"},
		{"Total: BHD 4.25", "4.250 BHD"},
		{"Total: OMR 1,250", "1250.000 OMR"},
		{"Total: TND 1.250,500", "1250.500 TND"},
		{"Total amount due      AUD 214.36", "214.36 AUD"},
		{"Total 1,299.00 AUD", "1299.00 AUD"},
		{"Total SGD 45.50", "45.50 SGD"},
		{"Total AED 1,250", "1250.00 AED"},
		{"Summe ₪ 89.90", "89.90 ILS"},
		{"Total 2.450 THB", "2450.00 THB"},
		{"try 3 times", ""},
		{"ALL 12 CLASSES", ""},
		{"Order ABCD 12", ""},
	} {
		got := ""
		l := lowerLine(tc.line)
		if holdsCurrency(tc.line, l) {
			if m := moneyRE.FindStringSubmatchIndex(tc.line); m != nil {
				if mo := c.moneyAt(tc.line, m, tc.line); mo != nil {
					got = mo.Amount + " " + mo.Currency
				}
			}
		}
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.line, got, tc.want)
		}
	}
}
