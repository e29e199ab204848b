package agentkeys

import "testing"

// FuzzParseDocument: the key document is untrusted input. Parsing must not
// panic, and every key it returns must be a 32-byte Ed25519 key.
func FuzzParseDocument(f *testing.F) {
	f.Add([]byte(`{"domain":"a.example","keys":[{"kid":"k1","kty":"OKP","crv":"Ed25519","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}`))
	f.Add([]byte(`{"domain":"a.example","keys":[{"kid":"","kty":"OKP","crv":"Ed25519","x":"=="}]}`))
	f.Add([]byte(`{"domain":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		keys, err := parseDocument("a.example", b)
		if err != nil {
			return
		}
		for kid, k := range keys {
			if kid == "" || len(k) != 32 {
				t.Fatalf("parseDocument returned kid %q with a %d-byte key", kid, len(k))
			}
		}
	})
}
