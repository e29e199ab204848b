package agent_test

import (
	"crypto/rand"
	"encoding/base64"
	"testing"

	"golang.org/x/crypto/nacl/box"
)

func boxKeys() (pub string, priv *[32]byte, pubKey *[32]byte) {
	pk, sk, _ := box.GenerateKey(rand.Reader)
	return base64.RawURLEncoding.EncodeToString(pk[:]), sk, pk
}

func openEnvelope(t *testing.T, env, pub string, priv *[32]byte) []byte {
	t.Helper()
	sealed, err := base64.RawURLEncoding.DecodeString(env)
	if err != nil {
		t.Fatal(err)
	}
	var pk [32]byte
	b, _ := base64.RawURLEncoding.DecodeString(pub)
	copy(pk[:], b)
	plain, ok := box.OpenAnonymous(nil, sealed, &pk, priv)
	if !ok {
		t.Fatal("envelope does not open with the node's box key")
	}
	return plain
}
