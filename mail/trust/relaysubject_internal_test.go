package trust

import "testing"

// FuzzRelaySubjectMatch checks that the words tested before the expression
// never turn away a subject the expression matches.
func FuzzRelaySubjectMatch(f *testing.F) {
	for _, s := range []string{
		"Message from seller",
		"MESSAGE FROM THE SELLER",
		"meſſage from ſeller",
		"John requested $212.50 with Zelle",
		"Payment request from Anna",
		"Anna sent you a $50 Gift Card",
		"sent you an e-gift",
		"Your order has shipped",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := relaySubjectMatch(s), relaySubject.MatchString(s); got != want {
			t.Fatalf("relaySubjectMatch(%q) = %v, the expression %v", s, got, want)
		}
	})
}
