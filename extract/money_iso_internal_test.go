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

// TestAmountAfterAYear: a figure grouped by a space never takes the
// digits of a number before it ("prélevé le 18 décembre 2022 241,16 €"
// had read 22,241.16); "Rs:" and a Romanian statement's "lei" before
// the figure are currencies, "Lei" in Italian no currency.
func TestAmountAfterAYear(t *testing.T) {
	c := &msgContext{}
	for _, tc := range []struct{ line, text, want string }{
		{"MONTANT TTC prélevé le 18 décembre 2022 241,16 €", "", "241.16 EUR"},
		{"Total 2027 1 204,50 €", "", "1204.50 EUR"},
		{"Montant 1 204,50 €", "", "1204.50 EUR"},
		{"Bill Amount Rs: 660.00", "", "660.00 INR"},
		{"Total de plata (6=4+5) lei 38,17", "Dată scadenţă", "38.17 RON"},
		{"Grazie a Lei 12 volte", "Grazie", ""},
	} {
		got := ""
		text := tc.text + "\n" + tc.line
		if m := moneyRE.FindStringSubmatchIndex(tc.line); m != nil {
			if mo := c.moneyAt(tc.line, m, text); mo != nil {
				got = mo.Amount + " " + mo.Currency
			}
		}
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.line, got, tc.want)
		}
	}
}
