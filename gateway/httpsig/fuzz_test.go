package httpsig_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"mailnode/gateway/httpsig"
)

// FuzzVerify feeds arbitrary Signature-Input, Signature and Content-Digest
// fields to the verifier. It must never panic, and it must never accept a
// request that does not carry the one genuine signature (other spellings
// of the same fields may verify: the parameters are re-serialised
// canonically, as RFC 9421 prescribes).
func FuzzVerify(f *testing.F) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	valid := sign(&testing.T{}, priv, body, signOpts{nonce: "seed"})
	vInput, vSig, vDigest := valid.Header.Get("Signature-Input"), valid.Header.Get("Signature"), valid.Header.Get("Content-Digest")
	genuine := strings.TrimRight(strings.TrimPrefix(vSig, "sig1=:"), "=:")
	f.Add(vInput, vSig, vDigest)
	f.Add(`sig1=("@method");tag="svc-agent"`, `sig1=:AAAA:`, `sha-256=:AAAA:`)
	f.Add(`sig1=(`, `sig1=`, `sha-256=`)
	f.Add(`a=1, b=?0, sig1=("@method" "@target-uri" "@authority" "content-digest");created=1;expires=2;keyid="a.b#c";alg="ed25519";nonce="n";tag="svc-agent"`, `sig1=:`+string(make([]byte, 3))+`:`, `sha-256=:x:`)
	f.Fuzz(func(t *testing.T, input, sig, digest string) {
		req := sign(t, priv, body, signOpts{nonce: "seed"})
		req.Header.Set("Signature-Input", input)
		req.Header.Set("Signature", sig)
		req.Header.Set("Content-Digest", digest)
		v := &httpsig.Verifier{Host: nodeHost, Keys: keys{"agent.example#k1": pub}, Nonces: &httpsig.MemoryNonces{},
			Now: func() time.Time { return now }}
		_, err := v.Verify(context.Background(), req, body)
		if err == nil && !strings.Contains(strings.TrimRight(sig, "=:"), genuine) {
			t.Fatalf("accepted a request without the genuine signature: %q %q %q", input, sig, digest)
		}
	})
}
