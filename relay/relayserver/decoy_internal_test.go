package relayserver

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"

	"golang.org/x/crypto/curve25519"
)

// TestDecoyBoxKeyIsX25519: the fixed-base Edwards computation gives what
// X25519 of the same secret with the base point gives.
func TestDecoyBoxKeyIsX25519(t *testing.T) {
	d := newDecoys([]byte("test secret"))
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
	d := newDecoys([]byte("test secret"))
	for b.Loop() {
		d.boxKey("someone@example.com")
	}
}

// TestDecoyMAC: the MAC from the keyed clone is HMAC-SHA-256 of the
// secret as it always was (decoys never change across an upgrade: a
// changed one would tell a decoy from a node), from callers at once.
func TestDecoyMAC(t *testing.T) {
	secret := []byte("test secret")
	d := newDecoys(secret)
	if d.keyed == nil {
		t.Fatal("HMAC-SHA-256 cannot be cloned: every mac hashes the key again")
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				a := fmt.Sprintf("user%d-%d@example.com", w, i)
				for _, purpose := range []string{"label", "box"} {
					m := hmac.New(sha256.New, secret)
					m.Write([]byte(purpose + "\x00" + a))
					if got := d.mac(purpose, a); !bytes.Equal(got, m.Sum(nil)) {
						t.Errorf("mac(%s, %s) = %x, want %x", purpose, a, got, m.Sum(nil))
					}
				}
			}
		}()
	}
	wg.Wait()
}

func BenchmarkDecoyMAC(b *testing.B) {
	d := newDecoys([]byte("test secret"))
	for b.Loop() {
		d.mac("box", "someone@example.com")
	}
}
