package agent_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"mailnode/agent"
	"mailnode/gateway/httpsig"
)

const nodeHost = "node-1.relay.example"

type oneKey struct{ pub ed25519.PublicKey }

func (k oneKey) PublicKey(_ context.Context, domain, kid string) (ed25519.PublicKey, error) {
	if domain == "agent.example" && kid == "k1" {
		return k.pub, nil
	}
	return nil, errors.New("unknown key")
}

// TestSignerVerifies: what the SDK's reference signer produces is what the
// node's verifier accepts, as a server sees it on the wire.
func TestSignerVerifies(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	s := &agent.Signer{Domain: "agent.example", Kid: "k1", Key: priv}
	v := &httpsig.Verifier{Host: nodeHost, Keys: oneKey{pub}, Nonces: &httpsig.MemoryNonces{}}
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`)

	out, _ := http.NewRequest("POST", "https://"+nodeHost+"/mcp", bytes.NewReader(body))
	if err := s.Sign(out, body); err != nil {
		t.Fatal(err)
	}
	// The request as the node's server receives it.
	in := httptest.NewRequest("POST", "/mcp", bytes.NewReader(body))
	in.Header = out.Header.Clone()
	id, err := v.Verify(context.Background(), in, body)
	if err != nil {
		t.Fatalf("Verify(signed by the SDK) = %v", err)
	}
	if id.Expires.Sub(id.Created) != agent.DefaultLifetime {
		t.Errorf("lifetime = %v, want %v", id.Expires.Sub(id.Created), agent.DefaultLifetime)
	}
	if _, err := v.Verify(context.Background(), in, body); err == nil || !strings.Contains(err.Error(), "nonce") {
		t.Errorf("replay of the same signed request = %v, want a nonce refusal", err)
	}
	if err := s.Sign(out, body); err != nil {
		t.Fatal(err)
	}
	in.Header = out.Header.Clone()
	if _, err := v.Verify(context.Background(), in, body); err != nil {
		t.Errorf("second signature (fresh nonce) = %v, want accepted", err)
	}
}

func TestSignRefusesBadInput(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	body := []byte(`{}`)
	plain, _ := http.NewRequest("POST", "http://"+nodeHost+"/mcp", nil)
	good, _ := http.NewRequest("POST", "https://"+nodeHost+"/mcp", nil)
	if err := (&agent.Signer{Domain: "agent.example", Kid: "k1", Key: priv}).Sign(plain, body); err == nil {
		t.Error("Sign(http URL) succeeded, want an error")
	}
	if err := (&agent.Signer{Domain: "localhost", Kid: "k1", Key: priv}).Sign(good, body); err == nil {
		t.Error("Sign(undotted domain) succeeded, want an error")
	}
}

func TestKeyDocument(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	b, err := agent.KeyDocument("agent.example", "k1", pub)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Domain string
		Keys   []struct{ Kid, Kty, Crv, X string }
	}
	if err := json.Unmarshal(b, &doc); err != nil || doc.Domain != "agent.example" || len(doc.Keys) != 1 ||
		doc.Keys[0].Kty != "OKP" || doc.Keys[0].Crv != "Ed25519" || len(doc.Keys[0].X) != 43 {
		t.Errorf("KeyDocument() = %s, %v; want one OKP/Ed25519 key with a base64url x", b, err)
	}
}
