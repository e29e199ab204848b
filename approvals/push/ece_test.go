package push

import (
	"crypto/ecdh"
	"testing"

	"mailnode/approvals/pairing"
)

// TestEncryptRFC8291 is the example of RFC 8291 Appendix A: the same keys,
// salt and text give the same bytes.
func TestEncryptRFC8291(t *testing.T) {
	dec := func(s string) []byte {
		b, err := pairing.Decode(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	as, err := ecdh.P256().NewPrivateKey(dec("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
	if err != nil {
		t.Fatal(err)
	}
	ua, err := ecdh.P256().NewPublicKey(dec("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := encryptWith([]byte("When I grow up, I want to be a watermelon"), ua, dec("BTBZMqHH6r4Tts7J_aSIgg"), as, dec("DGv6ra1nlYgDCS1FRnbzlw"), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
	if pairing.Encode(got) != want {
		t.Errorf("encryptWith(RFC 8291 Appendix A) = %s, want %s", pairing.Encode(got), want)
	}
}
