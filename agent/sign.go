// Package agent is the Go SDK for agents that talk to a mailnode node: keys
// and the key document to publish, and the spec's reference request
// signer. (Resolving through the relay and the MCP session come next.)
package agent

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
)

// DefaultLifetime is the reference signer's signature lifetime.
const DefaultLifetime = 120 * time.Second

// Signer signs requests to a node's /mcp as the protocol spec's reference
// signer does.
type Signer struct {
	Domain string             // the agent domain that publishes the key document
	Kid    string             // the key's id in that document
	Key    ed25519.PrivateKey // never leaves the agent
	// Lifetime defaults to DefaultLifetime; the spec allows at most 300s.
	Lifetime time.Duration
	// Now and Rand default to time.Now and crypto/rand.
	Now  func() time.Time
	Rand io.Reader
}

// Sign sets Content-Digest, Signature-Input and Signature on req, whose
// body is body. req.URL must be the public https URL sent on the wire.
func (s *Signer) Sign(req *http.Request, body []byte) error {
	if req.URL.Scheme != "https" || req.URL.Host == "" {
		return errors.New("sign: the request URL must be an absolute https URL")
	}
	if !strings.Contains(s.Domain, ".") || s.Kid == "" || len(s.Key) != ed25519.PrivateKeySize {
		return errors.New("sign: the signer needs a dotted domain, a kid and an Ed25519 key")
	}
	now, rnd, life := time.Now, s.Rand, s.Lifetime
	if s.Now != nil {
		now = s.Now
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	if life <= 0 {
		life = DefaultLifetime
	}
	nonce := make([]byte, 16)
	if _, err := io.ReadFull(rnd, nonce); err != nil {
		return fmt.Errorf("sign: nonce: %w", err)
	}
	sum := sha256.Sum256(body)
	digest := "sha-256=:" + base64.StdEncoding.EncodeToString(sum[:]) + ":"

	created := now().Unix()
	components := []string{"@method", "@target-uri", "@authority", "content-digest"}
	il := httpsfv.InnerList{Params: httpsfv.NewParams()}
	for _, c := range components {
		il.Items = append(il.Items, httpsfv.NewItem(c))
	}
	il.Params.Add("created", created)
	il.Params.Add("expires", created+int64(life/time.Second))
	il.Params.Add("keyid", s.Domain+"#"+s.Kid)
	il.Params.Add("alg", "ed25519")
	il.Params.Add("nonce", base64.RawURLEncoding.EncodeToString(nonce))
	il.Params.Add("tag", "svc-agent")
	params, err := httpsfv.Marshal(il)
	if err != nil {
		return fmt.Errorf("sign: %w", err)
	}
	// RFC 9421 section 2.5; @authority is the hostname only, as the spec
	// says, and @target-uri the URL as sent.
	values := []string{req.Method, req.URL.String(), strings.ToLower(req.URL.Hostname()), digest}
	var base strings.Builder
	for i, c := range components {
		fmt.Fprintf(&base, "%q: %s\n", c, values[i])
	}
	base.WriteString(`"@signature-params": ` + params)
	sig := ed25519.Sign(s.Key, []byte(base.String()))

	req.Header.Set("Content-Digest", digest)
	req.Header.Set("Signature-Input", "sig1="+params)
	req.Header.Set("Signature", "sig1=:"+base64.StdEncoding.EncodeToString(sig)+":")
	return nil
}

// KeyDocumentPath is where an agent domain publishes its key document.
const KeyDocumentPath = "/.well-known/svc-agent"

// KeyDocument returns the JSON to publish at
// https://<domain>/.well-known/svc-agent for one key.
func KeyDocument(domain, kid string, pub ed25519.PublicKey) ([]byte, error) {
	type key struct {
		Kid string `json:"kid"`
		Kty string `json:"kty"`
		Crv string `json:"crv"`
		X   string `json:"x"`
	}
	return json.MarshalIndent(struct {
		Domain string `json:"domain"`
		Keys   []key  `json:"keys"`
	}{domain, []key{{kid, "OKP", "Ed25519", base64.RawURLEncoding.EncodeToString(pub)}}}, "", "  ")
}
