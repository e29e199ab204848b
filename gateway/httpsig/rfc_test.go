package httpsig

import (
	"crypto/ed25519"
	"encoding/base64"
	"testing"

	"github.com/dunglas/httpsfv"
)

// TestRFC9421B26 checks the signature base builder and the serialisation
// of @signature-params against RFC 9421 Appendix B.2.6 (ed25519, key from
// B.1.4): the RFC's published signature must verify over our base.
func TestRFC9421B26(t *testing.T) {
	pub, _ := base64.RawURLEncoding.DecodeString("JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs")
	sig, _ := base64.StdEncoding.DecodeString("wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==")
	inputs, err := httpsfv.UnmarshalDictionary([]string{
		`sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"`})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := inputs.Get("sig-b26")
	base, err := signatureBase([][2]string{
		{"date", "Tue, 20 Apr 2021 02:07:55 GMT"},
		{"@method", "POST"},
		{"@path", "/foo"},
		{"@authority", "example.com"},
		{"content-type", "application/json"},
		{"content-length", "18"},
	}, m.(httpsfv.InnerList))
	if err != nil {
		t.Fatal(err)
	}
	if !ed25519.Verify(ed25519.PublicKey(pub), []byte(base), sig) {
		t.Fatalf("RFC 9421 B.2.6 signature does not verify over our base:\n%s", base)
	}
}
