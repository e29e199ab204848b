package relay_test

import (
	"testing"

	"mailnode/relay"
)

// TestCodeHash pins relay.CodeHash: the vector was computed with Python's
// hashlib over "mailnode-relay-code-v1\nann@example.com\nABCDE...XY", and
// the ways a code or address may be written hash alike.
func TestCodeHash(t *testing.T) {
	const want = "X4MWCBWpBnnmX_XaWPoZ4AnIOKXsiPzI4QEKk7Vn7wc"
	for _, tc := range []struct{ address, code string }{
		{"ann@example.com", "ABCDE-FGHIJ-KLMNO-PQRST-UVWXY"},
		{" Ann@Example.com ", "abcde-fghij-klmno-pqrst-uvwxy"},
		{"ann@example.com", " ABCDEFGHIJKLMNOPQRSTUVWXY\t"},
		{"ann@example.com", "ABCDE FGHIJ KLMNO PQRST UVWXY"},
	} {
		if got := relay.EncodeKey(relay.CodeHash(tc.address, tc.code)); got != want {
			t.Errorf("CodeHash(%q, %q) = %s, want %s", tc.address, tc.code, got, want)
		}
	}
	if relay.EncodeKey(relay.CodeHash("bob@example.com", "ABCDE-FGHIJ-KLMNO-PQRST-UVWXY")) == want {
		t.Error("CodeHash does not depend on the address")
	}
}
