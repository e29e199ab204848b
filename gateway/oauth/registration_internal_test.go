package oauth

import (
	"slices"
	"testing"
	"time"
)

func TestRegistrationRoundTrip(t *testing.T) {
	key := make([]byte, 32)
	r := registration{Issued: time.Unix(1_800_000_000, 0), Name: "Claude", LogoURI: "https://claude.ai/logo.png",
		RedirectURIs: []string{"https://claude.ai/api/mcp/auth_callback", "http://127.0.0.1:33418/cb"}}
	id, domain := registeredID(key, r)
	got, d, err := openRegistration(key, id)
	if err != nil || d != domain || got.Name != r.Name || got.LogoURI != r.LogoURI || !got.Issued.Equal(r.Issued) ||
		!slices.Equal(got.RedirectURIs, r.RedirectURIs) {
		t.Fatalf("open(%q) = %+v %q %v, want %+v %q", id, got, d, err, r, domain)
	}
	if _, _, err := openRegistration([]byte("another key, another node......"), id); err == nil {
		t.Error("an id opened under another key")
	}
}

// FuzzDecodeRegistration: the payload of an id is parsed before nothing
// but its MAC; it must never panic, and what parses encodes to what
// parses the same.
func FuzzDecodeRegistration(f *testing.F) {
	f.Add(registration{Issued: time.Unix(1, 0), Name: "n", RedirectURIs: []string{"https://a.example/cb"}}.encode())
	f.Add([]byte{1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRegistration(b)
		if err != nil {
			return
		}
		r2, err := decodeRegistration(r.encode())
		if err != nil || !r2.Issued.Equal(r.Issued) || r2.Name != r.Name || r2.LogoURI != r.LogoURI || !slices.Equal(r2.RedirectURIs, r.RedirectURIs) {
			t.Errorf("decode(%x) = %+v does not survive encoding: %+v %v", b, r, r2, err)
		}
	})
}
