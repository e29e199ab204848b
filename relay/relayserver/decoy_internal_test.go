package relayserver

import (
	"bytes"
	"fmt"
	"testing"

	"golang.org/x/crypto/curve25519"
)

// TestDecoyBoxKeyIsX25519: the fixed-base Edwards computation gives what
// X25519 of the same secret with the base point gives.
func TestDecoyBoxKeyIsX25519(t *testing.T) {
	d := &decoys{secret: []byte("test secret")}
	for i := range 200 {
		a := fmt.Sprintf("user%d@example.com", i)
		want, err := curve25519.X25519(d.mac("box", a), curve25519.Basepoint)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.boxKey(a); !bytes.Equal(got, want) {
			t.Fatalf("boxKey(%s) = %x, want X25519 %x", a, got, want)
		}
	}
}

func BenchmarkDecoyBoxKey(b *testing.B) {
	d := &decoys{secret: []byte("test secret")}
	for b.Loop() {
		d.boxKey("someone@example.com")
	}
}
