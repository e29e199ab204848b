package relayclient

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"

	"golang.org/x/crypto/nacl/box"
)

// TestLibsodiumSealedBoxes: boxes sealed by libsodium's crypto_box_seal
// (testdata/sealedbox.json, made by testdata/sealedbox.cjs with
// libsodium-wrappers) open with the node's code, so an agent using
// libsodium reaches a node through the queue; a box the node seals to its
// own key opens with the same keys again.
func TestLibsodiumSealedBoxes(t *testing.T) {
	raw, err := os.ReadFile("testdata/sealedbox.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Pub     string `json:"public_key"`
		Sec     string `json:"secret_key"`
		Vectors []struct {
			Plaintext, Sealed string
		}
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	dec := func(s string) []byte {
		b, err := base64.RawURLEncoding.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	sec, err := ecdh.X25519().NewPrivateKey(dec(f.Sec))
	if err != nil {
		t.Fatal(err)
	}
	k := Keys{Box: sec}
	if base64.RawURLEncoding.EncodeToString(k.BoxPublic()) != f.Pub {
		t.Fatal("libsodium's public key is not the X25519 public key of its secret key")
	}
	var pub, priv [32]byte
	copy(pub[:], k.BoxPublic())
	copy(priv[:], sec.Bytes())
	for _, v := range f.Vectors {
		sealed := dec(v.Sealed)
		got, ok := box.OpenAnonymous(nil, sealed, &pub, &priv)
		if !ok || string(got) != v.Plaintext {
			t.Errorf("libsodium's box of %.20q: opened %v, %.20q", v.Plaintext, ok, got)
		}
		if len(sealed) != len(v.Plaintext)+48 {
			t.Errorf("sealed %d bytes for %d: overhead is not 48", len(sealed), len(v.Plaintext))
		}
		sealed[len(sealed)-1] ^= 1
		if _, ok := box.OpenAnonymous(nil, sealed, &pub, &priv); ok {
			t.Error("a changed box opened")
		}
	}
	again, err := box.SealAnonymous(nil, []byte("reply"), &pub, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := box.OpenAnonymous(nil, again, &pub, &priv); !ok || string(got) != "reply" {
		t.Error("the node's own sealed reply does not open")
	}
}
