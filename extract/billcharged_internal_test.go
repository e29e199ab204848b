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
