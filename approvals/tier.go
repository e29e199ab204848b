package approvals

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// Tier is a class of tools that the user grants together.
type Tier string

// The tiers of the protocol's tool catalog.
const (
	StructuredRead Tier = "structured_read"
	FreeFormRead   Tier = "free_form_read"
	RawRead        Tier = "raw_read"
	Compose        Tier = "compose"
	Send           Tier = "send"
)

// PerCall reports whether every call of the tier needs its own approval.
func (t Tier) PerCall() bool { return t == RawRead || t == Send }

// Valid reports whether t is one of the known tiers.
func (t Tier) Valid() bool {
	switch t {
	case StructuredRead, FreeFormRead, RawRead, Compose, Send:
		return true
	}
	return false
}

// OAuthKeyPrefix begins the key an OAuth client's grants are pinned to
// (package gateway/oauth): "oauth:" and the id of the consent, in place of
// a signing key's fingerprint.
const OAuthKeyPrefix = "oauth:"

// IsOAuthKey reports whether a grant's or call's key is an OAuth
// client's consent rather than a signing key: the views mark such an
// agent as an OAuth client.
func IsOAuthKey(fp string) bool { return strings.HasPrefix(fp, OAuthKeyPrefix) }

// RegisteredClientPrefix begins the agent domain of an OAuth client that
// registered itself (Dynamic Client Registration, package gateway/oauth):
// its client id, which proves no domain and costs nothing to get, so the
// approvals let all such clients together hold only a share of what
// strangers may (Config.MaxPendingTotal).
const RegisteredClientPrefix = "dcr-"

// IsRegisteredClient reports whether the agent domain is a registered
// OAuth client's id: RegisteredClientPrefix and no dot, which no verified
// agent domain or client metadata document's host is without.
func IsRegisteredClient(domain string) bool {
	return strings.HasPrefix(domain, RegisteredClientPrefix) && !strings.Contains(domain, ".")
}

// Fingerprint names an agent's public key: "sha256:" and the unpadded
// standard Base64 of the SHA-256 of the raw 32 key bytes, as ssh-keygen
// prints keys.
func Fingerprint(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return "sha256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// Canonical re-encodes tool arguments so that the same arguments give the
// same bytes whatever their spacing or key order: decoded with numbers kept
// as written, then marshalled with sorted object keys. Missing or null
// arguments are {}. It is what a per-call approval is bound to.
func Canonical(args json.RawMessage) ([]byte, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		return []byte("{}"), nil
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("canonical arguments: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("canonical arguments: trailing data")
	}
	if v == nil {
		return []byte("{}"), nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("canonical arguments: %w", err)
	}
	return out, nil
}

// argsHash is the subject of a per-call approval: the canonical arguments
// and what the tool bound the call to (Call.Bind; never Call.Pin, which
// may come from mail).
func argsHash(canonical []byte, bind string) string {
	h := sha256.New()
	h.Write(canonical)
	if bind != "" {
		h.Write([]byte("\x00"))
		h.Write([]byte(bind))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// codeAlphabet leaves out letters and digits that are read or heard alike
// (0/O, 1/I/L, 2/Z, 5/S, 8/B, 6/G), so a user can compare a code read off
// an agent's screen with the phone's at a glance.
const codeAlphabet = "ACDEFHJKMNPQRTUVWXY34679"

// newMatchCode returns a code like "K7P-4QX": 24^6 ≈ 1.9e8 values, enough
// that a user comparing two codes cannot be fooled by a look-alike prompt
// made at the same time.
func newMatchCode() string {
	var b [6]byte
	out := make([]byte, 0, 7)
	for i := range b {
		b[i] = codeAlphabet[randIndex(len(codeAlphabet))]
	}
	out = append(out, b[:3]...)
	out = append(out, '-')
	return string(append(out, b[3:]...))
}

// randIndex returns a uniform index below n (n <= 256) without modulo
// bias.
func randIndex(n int) int {
	limit := 256 - 256%n
	var b [1]byte
	for {
		rand.Read(b[:])
		if int(b[0]) < limit {
			return int(b[0]) % n
		}
	}
}

// newID is a random id of 96 bits after a prefix that says what it names
// ("apr_" an approval, "ph_" a phone).
func newID(prefix string) string {
	var b [12]byte
	rand.Read(b[:])
	return prefix + base64.RawURLEncoding.EncodeToString(b[:])
}
