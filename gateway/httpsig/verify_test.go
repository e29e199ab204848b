package httpsig_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"mailnode/gateway/httpsig"
	"mailnode/gateway/httpsig/httpsigtest"
)

const nodeHost = "node-7f3a.relay.example"

// keys is an agent's published keys; a test stands in for the key
// document fetcher, which has its own tests.
type keys map[string]ed25519.PublicKey // "domain#kid"

func (k keys) PublicKey(_ context.Context, domain, kid string) (ed25519.PublicKey, error) {
	if pub, ok := k[domain+"#"+kid]; ok {
		return pub, nil
	}
	return nil, errors.New("unknown key")
}

// signOpts describe one signature; the zero value (after defaults) is the
// spec's reference signer.
type signOpts struct {
	label, tag, alg, keyID, nonce string
	components                    []string
	created, expires              int64
	targetURI, authority          string
	digest                        string // Content-Digest value; default: correct
	key                           ed25519.PrivateKey
	extraParams                   map[string]any
}

var now = time.Unix(1_800_000_000, 0)

func sign(t testing.TB, agentKey ed25519.PrivateKey, body []byte, o signOpts) *http.Request {
	t.Helper()
	if o.keyID == "" {
		o.keyID = "agent.example#k1"
	}
	if o.key == nil {
		o.key = agentKey
	}
	h, err := httpsigtest.Headers(body, httpsigtest.Options{
		Host: nodeHost, Label: o.label, Tag: o.tag, Alg: o.alg, KeyID: o.keyID, Nonce: o.nonce,
		Components: o.components, Created: o.created, Expires: o.expires, Now: now,
		TargetURI: o.targetURI, Authority: o.authority, Digest: o.digest, Key: o.key, ExtraParams: o.extraParams,
	})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("POST", "/mcp", bytes.NewReader(body))
	req.Host = nodeHost
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h {
		req.Header[k] = v
	}
	return req
}

func TestVerify(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	_, otherKey, _ := ed25519.GenerateKey(rand.Reader)
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	newVerifier := func() *httpsig.Verifier {
		return &httpsig.Verifier{Host: nodeHost, Keys: keys{"agent.example#k1": pub}, Nonces: &httpsig.MemoryNonces{},
			Now: func() time.Time { return now }}
	}
	otherDigest := sha256.Sum256([]byte("another body"))
	goodDigest := sha256.Sum256(body)

	tests := []struct {
		name   string
		req    func() *http.Request
		reason string // substring of the refusal; empty: accepted
	}{
		{"reference signer", func() *http.Request { return sign(t, priv, body, signOpts{}) }, ""},
		{"no signature", func() *http.Request {
			r := sign(t, priv, body, signOpts{})
			r.Header.Del("Signature-Input")
			r.Header.Del("Signature")
			return r
		}, "Signature-Input"},
		{"wrong label only", func() *http.Request { return sign(t, priv, body, signOpts{label: "sig2"}) }, "label"},
		{"other tag", func() *http.Request { return sign(t, priv, body, signOpts{tag: "web-bot-auth"}) }, "no signature tagged"},
		{"other alg", func() *http.Request { return sign(t, priv, body, signOpts{alg: "rsa-pss-sha512"}) }, "alg"},
		{"component missing", func() *http.Request {
			return sign(t, priv, body, signOpts{components: []string{"@method", "@target-uri", "@authority"}})
		}, "covered components"},
		{"component extra", func() *http.Request {
			return sign(t, priv, body, signOpts{components: append(append([]string{}, httpsig.Components...), "content-type")})
		}, "covered components"},
		{"components reordered", func() *http.Request {
			return sign(t, priv, body, signOpts{components: []string{"@target-uri", "@method", "@authority", "content-digest"}})
		}, "covered components"},
		{"target-uri other host", func() *http.Request {
			return sign(t, priv, body, signOpts{targetURI: "https://evil.example/mcp"})
		}, "does not verify"},
		{"target-uri other scheme", func() *http.Request {
			return sign(t, priv, body, signOpts{targetURI: "http://" + nodeHost + "/mcp"})
		}, "does not verify"},
		{"target-uri other path", func() *http.Request {
			return sign(t, priv, body, signOpts{targetURI: "https://" + nodeHost + "/mcp/"})
		}, "does not verify"},
		{"target-uri other port", func() *http.Request {
			return sign(t, priv, body, signOpts{targetURI: "https://" + nodeHost + ":8443/mcp"})
		}, "does not verify"},
		{"authority mismatch", func() *http.Request { return sign(t, priv, body, signOpts{authority: "other.example"}) }, "does not verify"},
		{"digest of another body", func() *http.Request {
			return sign(t, priv, body, signOpts{digest: "sha-256=:" + base64.StdEncoding.EncodeToString(otherDigest[:]) + ":"})
		}, "does not match"},
		{"digest in base64url", func() *http.Request {
			return sign(t, priv, body, signOpts{digest: "sha-256=:" + base64.RawURLEncoding.EncodeToString(goodDigest[:]) + ":"})
		}, "Content-Digest"},
		{"created more than 60s ahead", func() *http.Request {
			return sign(t, priv, body, signOpts{created: now.Unix() + 61, expires: now.Unix() + 120})
		}, "future"},
		{"created 60s ahead is fine", func() *http.Request {
			return sign(t, priv, body, signOpts{created: now.Unix() + 60})
		}, ""},
		{"expires before now", func() *http.Request {
			return sign(t, priv, body, signOpts{created: now.Unix() - 200, expires: now.Unix() - 1})
		}, "expired"},
		{"expires more than 300s after created", func() *http.Request {
			return sign(t, priv, body, signOpts{expires: now.Unix() + 301})
		}, "at most"},
		{"unknown kid", func() *http.Request { return sign(t, priv, body, signOpts{keyID: "agent.example#k9"}) }, "unknown key"},
		{"agent domain equals node hostname", func() *http.Request {
			return sign(t, priv, body, signOpts{keyID: nodeHost + "#k1"})
		}, "hostname"},
		{"agent domain without a dot", func() *http.Request { return sign(t, priv, body, signOpts{keyID: "localhost#k1"}) }, "dotted"},
		{"signed by another key", func() *http.Request { return sign(t, priv, body, signOpts{key: otherKey}) }, "does not verify"},
		{"unknown extra parameter", func() *http.Request {
			return sign(t, priv, body, signOpts{extraParams: map[string]any{"foo": "bar"}})
		}, "exactly"},
		{"two svc-agent signatures", func() *http.Request {
			r := sign(t, priv, body, signOpts{})
			r2 := sign(t, priv, body, signOpts{label: "sig2"})
			r.Header.Add("Signature-Input", r2.Header.Get("Signature-Input"))
			r.Header.Add("Signature", r2.Header.Get("Signature"))
			return r
		}, "more than one"},
		{"absolute-form request target", func() *http.Request {
			r := sign(t, priv, body, signOpts{})
			r.RequestURI = "https://" + nodeHost + "/mcp"
			return r
		}, "path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := newVerifier().Verify(context.Background(), tt.req(), body)
			if tt.reason == "" {
				if err != nil {
					t.Fatalf("Verify() = %v, want accepted", err)
				}
				if id.Domain != "agent.example" || id.Kid != "k1" {
					t.Errorf("Verify() identity = %+v, want agent.example#k1", id)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.reason) {
				t.Fatalf("Verify() = %v, want a refusal mentioning %q", err, tt.reason)
			}
		})
	}
}

func TestNonceReuse(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	body := []byte(`{}`)
	v := &httpsig.Verifier{Host: nodeHost, Keys: keys{"agent.example#k1": pub}, Nonces: &httpsig.MemoryNonces{}, Now: func() time.Time { return now }}
	req := sign(t, priv, body, signOpts{nonce: "fixed-nonce"})
	if _, err := v.Verify(context.Background(), req, body); err != nil {
		t.Fatalf("first use: %v", err)
	}
	replay := sign(t, priv, body, signOpts{nonce: "fixed-nonce"})
	if _, err := v.Verify(context.Background(), replay, body); err == nil || !strings.Contains(err.Error(), "nonce") {
		t.Errorf("replayed nonce = %v, want a refusal", err)
	}
}

// TestAuthorityPort (hardening item 9): @authority is the hostname alone;
// a node on a port other than 443 also accepts host:port for that port,
// as an RFC 9421 signer derives it from Host, and a refusal says when the
// port was the difference.
func TestAuthorityPort(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	for _, tc := range []struct {
		name, node, hostHeader, targetURI, authority string
		reason                                       string // empty: accepted
	}{
		{"hostname on 443", "node.example", "node.example", "https://node.example/mcp", "node.example", ""},
		{"hostname on 8443", "localhost:8443", "localhost:8443", "https://localhost:8443/mcp", "localhost", ""},
		{"host:port on 8443 (development exception)", "localhost:8443", "localhost:8443", "https://localhost:8443/mcp", "localhost:8443", ""},
		{"another port on 8443", "localhost:8443", "localhost:8443", "https://localhost:8443/mcp", "localhost:9000", "does not verify"},
		{"host:443 on 443", "node.example", "node.example:443", "https://node.example/mcp", "node.example:443", "without the port 443"},
		{"host:port behind a port forward", "node.example", "node.example:8443", "https://node.example/mcp", "node.example:8443", "without the port 8443"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := httpsigtest.Headers(body, httpsigtest.Options{Host: tc.node, KeyID: "agent.example#k1", Now: now,
				TargetURI: tc.targetURI, Authority: tc.authority, Key: priv})
			if err != nil {
				t.Fatal(err)
			}
			req := httptest.NewRequest("POST", "/mcp", bytes.NewReader(body))
			req.Host = tc.hostHeader
			for k, v := range h {
				req.Header[k] = v
			}
			v := &httpsig.Verifier{Host: tc.node, Keys: keys{"agent.example#k1": pub}, Nonces: &httpsig.MemoryNonces{}, Now: func() time.Time { return now }}
			_, err = v.Verify(context.Background(), req, body)
			switch {
			case tc.reason == "" && err != nil:
				t.Fatalf("Verify() = %v, want accepted", err)
			case tc.reason != "" && (err == nil || !strings.Contains(err.Error(), tc.reason)):
				t.Fatalf("Verify() = %v, want a refusal mentioning %q", err, tc.reason)
			}
		})
	}
}
