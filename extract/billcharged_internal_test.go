package extract

import "testing"

// TestScriptSpacedAgreement: Latin letters run into another script's
// agree with a domain by themselves, once spaced; spacing is stable (a
// spaced name spaced again is the same, so namesDomain's second look
// ends).
func TestScriptSpacedAgreement(t *testing.T) {
	for _, c := range []struct {
		name, org string
		spaced    string
		agrees    bool
	}{
		{"NTTファイナンス", "ntt-finance.co.jp", "NTT ファイナンス", true},
		{"ABCでんき", "abc-denki.example", "ABC でんき", true},
		{"ABCでんき", "xyz-gas.example", "ABC でんき", false},
		{"NTT ファイナンス", "other.example", "NTT ファイナンス", false},
		{"アマゾン", "example.org", "アマゾン", false},
	} {
		if got := scriptSpaced(c.name); got != c.spaced || scriptSpaced(got) != got {
			t.Errorf("scriptSpaced(%q) = %q (again %q), want %q", c.name, got, scriptSpaced(got), c.spaced)
		}
		if got := namesDomain(c.name, c.org); got != c.agrees {
			t.Errorf("namesDomain(%q, %q) = %v, want %v", c.name, c.org, got, c.agrees)
		}
	}
}

// TestCardGateHoldsEveryCard: cardGate lets through each form
// maskedCardRE matches, so that gating by it loses no card.
func TestCardGateHoldsEveryCard(t *testing.T) {
	for _, ln := range []string{"Visa •••• 1234", "****1234", "XXXX-1234", "xxxx 5678", "●●●● 4417", "·· 4417",
		"Mastercard-0000", "MASTER CARD ending in 2231", "Amex 1005", "American Express ••••1234", "Maestro 7710",
		"Discover 3310", "Diners Club 4401", "JCB 6021", "UnionPay 8812", "Carte bancaire 5520", "CB 9999",
		"Visa endet auf 1234", "Visa terminant par 1234"} {
		if !maskedCardRE.MatchString(ln) {
			t.Errorf("%q: maskedCardRE matches none", ln)
		}
		if !cardGate.AnyFold(ln) {
			t.Errorf("%q: cardGate holds none of it", ln)
		}
	}
}
