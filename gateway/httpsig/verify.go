// Package httpsig verifies the one HTTP Message Signatures profile
// (RFC 9421) that the node accepts on POST /mcp, as the protocol spec fixes
// it: label sig1 tagged "svc-agent", exactly the components "@method",
// "@target-uri", "@authority" and "content-digest" in that order, the
// parameters created, expires, keyid, alg="ed25519", nonce and tag, an
// RFC 9530 Content-Digest of the raw body, and Ed25519.
//
// Everything is checked before the key is fetched or the signature
// verified, and the nonce is spent only once the signature holds, so an
// unsigned request costs no network fetch and cannot fill the nonce store.
// Structured fields are parsed with a structured-field parser
// (RFC 8941/9651), never with regular expressions.
package httpsig

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
)

// The profile's fixed values.
const (
	Label       = "sig1"
	Tag         = "svc-agent"
	Alg         = "ed25519"
	MaxSkew     = 60 * time.Second  // how far created may be in the future
	MaxLifetime = 300 * time.Second // expires - created at most
	maxNonceLen = 128
)

// Components are the covered components, in the only order accepted.
var Components = []string{"@method", "@target-uri", "@authority", "content-digest"}

var paramNames = []string{"alg", "created", "expires", "keyid", "nonce", "tag"}

// Error is a refusal. Its text is a chosen public message: safe to send
// back in the 401 body, never carrying request data.
type Error struct{ Reason string }

func (e *Error) Error() string { return e.Reason }

// ErrNonceStore wraps a failure of the nonce store: the request could not
// be checked for replay, which is the node's fault, not the agent's.
var ErrNonceStore = errors.New("nonce store failed")

func refuse(format string, args ...any) error { return &Error{Reason: fmt.Sprintf(format, args...)} }

// KeyResolver finds an agent's public key: from its key document at
// https://<domain>/.well-known/svc-agent, in the node.
type KeyResolver interface {
	PublicKey(ctx context.Context, domain, kid string) (ed25519.PublicKey, error)
}

// NonceStore remembers nonces until they expire. Use reports false if
// (keyID, nonce) was used before; it must stay true across restarts.
type NonceStore interface {
	Use(ctx context.Context, keyID, nonce string, until time.Time) (fresh bool, err error)
}

// Reserver is a NonceStore that can record a nonce without waiting for
// it to be written down. Verify then returns as soon as the nonce is known
// fresh, and the caller must call Identity.Durable before the request has
// any effect.
type Reserver interface {
	Reserve(keyID, nonce string, until time.Time) (fresh bool, durable func(context.Context) error, err error)
}

// Verifier checks requests for one node.
type Verifier struct {
	// Host is the node's public hostname. @authority and @target-uri are
	// built from it, never from the request's Host or forwarded headers.
	// A node that is not reached on port 443 (development, tests) writes
	// host:port; the port is then part of @target-uri (the URL as sent)
	// but not of @authority, which the spec fixes as the hostname only.
	Host   string
	Keys   KeyResolver
	Nonces NonceStore
	// Admit, if set, is asked once the signature holds and before the
	// nonce is spent; an error refuses the request and is returned as
	// it is. The gateway's rate limits sit here, so that an agent's flood
	// of well-signed requests neither runs nor fills the nonce store.
	Admit func(Identity) error
	// QueuedFor, when set, verifies a request that came through the
	// relay's offline queue (docs/relay.md): it was signed when the agent
	// enqueued it, so created may be up to QueuedFor old and expires may
	// have passed (Identity.Expired says so); its nonce is then kept until
	// created + QueuedFor + MaxSkew, as long as the relay could hand the
	// envelope over again.
	QueuedFor time.Duration
	// Now defaults to time.Now.
	Now func() time.Time
}

// Identity is who signed a verified request.
type Identity struct {
	Domain  string // the agent domain, lower case
	Kid     string
	KeyID   string // Domain#Kid as signed
	Nonce   string // the signature's nonce, spent
	Created time.Time
	Expires time.Time
	Key     ed25519.PublicKey // the key that verified, for pinning grants
	// Queued marks a request verified with QueuedFor; Expired, one of
	// those whose expires had passed. Neither ever reaches a tool.
	Queued, Expired bool

	durable func(context.Context) error
}

// Durable returns once the request's nonce is recorded where a restart
// will find it, or the error that prevented it. Call it before the
// request has any effect.
func (id Identity) Durable(ctx context.Context) error {
	if id.durable == nil {
		return nil
	}
	if err := id.durable(ctx); err != nil {
		return fmt.Errorf("%w: %w", ErrNonceStore, err)
	}
	return nil
}

// params are the signature parameters of the svc-agent signature.
type params struct {
	created, expires time.Time
	domain, kid      string
	keyID, nonce     string
}

// Verify checks r, whose body has been read into body, and returns the
// signer. Any error is an *Error unless the key resolver or nonce store
// failed.
func (v *Verifier) Verify(ctx context.Context, r *http.Request, body []byte) (Identity, error) {
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	inputs, err := httpsfv.UnmarshalDictionary(r.Header.Values("Signature-Input"))
	if err != nil || len(inputs.Names()) == 0 {
		return Identity{}, refuse("missing or malformed Signature-Input")
	}
	label, list, err := selectSignature(inputs)
	if err != nil {
		return Identity{}, err
	}
	p, err := v.checkParams(list, now())
	if err != nil {
		return Identity{}, err
	}
	sig, err := signatureValue(r, label)
	if err != nil {
		return Identity{}, err
	}
	digestField, err := checkDigest(r, body)
	if err != nil {
		return Identity{}, err
	}
	if !strings.HasPrefix(r.RequestURI, "/") {
		return Identity{}, refuse("request target must be a path")
	}
	key, err := v.Keys.PublicKey(ctx, p.domain, p.kid)
	if err != nil {
		return Identity{}, fmt.Errorf("key %s: %w", p.keyID, err)
	}
	if len(key) != ed25519.PublicKeySize {
		return Identity{}, refuse("signature does not verify")
	}
	host := strings.ToLower(v.Host)
	hostname, port, _ := strings.Cut(host, ":")
	verifies := func(authority string) (bool, error) {
		base, err := signatureBase([][2]string{
			{"@method", r.Method},
			{"@target-uri", "https://" + host + r.RequestURI},
			{"@authority", authority},
			{"content-digest", digestField},
		}, list)
		if err != nil {
			return false, refuse("malformed signature parameters")
		}
		return ed25519.Verify(key, []byte(base), sig), nil
	}
	ok, err := verifies(hostname)
	if err != nil {
		return Identity{}, err
	}
	if !ok && port != "" && port != "443" {
		// Development exception (docs/signatures.md): RFC 9421 derives
		// @authority from Host, which carries a port other than 443, so
		// a general-purpose signer talking to localhost:8443 signs
		// "localhost:8443". The spec's rule, the hostname alone, stays
		// the rule; on 443 only it is accepted.
		ok, _ = verifies(host)
	}
	if !ok {
		return Identity{}, v.whyNot(r, hostname, verifies)
	}
	id := Identity{Domain: p.domain, Kid: p.kid, KeyID: p.keyID, Nonce: p.nonce, Created: p.created, Expires: p.expires, Key: key}
	keep := p.expires
	if v.QueuedFor > 0 {
		id.Queued, id.Expired = true, !p.expires.After(now())
		keep = p.created.Add(v.QueuedFor + MaxSkew)
	}
	if v.Admit != nil {
		if err := v.Admit(id); err != nil {
			return Identity{}, err
		}
	}
	if r, ok := v.Nonces.(Reserver); ok {
		fresh, durable, err := r.Reserve(p.keyID, p.nonce, keep)
		if err != nil {
			return Identity{}, fmt.Errorf("%w: %w", ErrNonceStore, err)
		}
		if !fresh {
			return Identity{}, refuse("nonce already used")
		}
		id.durable = durable
		return id, nil
	}
	fresh, err := v.Nonces.Use(ctx, p.keyID, p.nonce, keep)
	if err != nil {
		return Identity{}, fmt.Errorf("%w: %w", ErrNonceStore, err)
	}
	if !fresh {
		return Identity{}, refuse("nonce already used")
	}
	return id, nil
}

// whyNot says why a signature did not verify when the port in
// @authority is the difference: the signer put the Host header's port in
// it, where the node expects the hostname alone.
func (v *Verifier) whyNot(r *http.Request, hostname string, verifies func(string) (bool, error)) error {
	if _, port, err := net.SplitHostPort(r.Host); err == nil && port != "" {
		if ok, _ := verifies(hostname + ":" + port); ok {
			return refuse("signature does not verify: @authority must be the hostname %q without the port %s", hostname, port)
		}
	}
	return refuse("signature does not verify")
}

// selectSignature finds the one signature tagged svc-agent.
func selectSignature(inputs *httpsfv.Dictionary) (string, httpsfv.InnerList, error) {
	var label string
	var list httpsfv.InnerList
	n := 0
	for _, name := range inputs.Names() {
		m, _ := inputs.Get(name)
		il, ok := m.(httpsfv.InnerList)
		if !ok {
			continue
		}
		if tag, _ := il.Params.Get("tag"); tag == Tag {
			label, list = name, il
			n++
		}
	}
	switch {
	case n == 0:
		return "", list, refuse("no signature tagged %q", Tag)
	case n > 1:
		return "", list, refuse("more than one signature tagged %q", Tag)
	case label != Label:
		return "", list, refuse("signature label must be %q", Label)
	}
	return label, list, nil
}

func (v *Verifier) checkParams(list httpsfv.InnerList, now time.Time) (params, error) {
	var p params
	var covered []string
	for _, it := range list.Items {
		s, ok := it.Value.(string)
		if !ok || len(it.Params.Names()) > 0 {
			return p, refuse("covered components must be %q", Components)
		}
		covered = append(covered, s)
	}
	if !slices.Equal(covered, Components) {
		return p, refuse("covered components must be %q", Components)
	}
	names := slices.Sorted(slices.Values(list.Params.Names()))
	if !slices.Equal(names, paramNames) {
		return p, refuse("signature parameters must be exactly %q", paramNames)
	}
	get := func(k string) any { v, _ := list.Params.Get(k); return v }
	if alg, _ := get("alg").(string); alg != Alg {
		return p, refuse("alg must be %q", Alg)
	}
	created, ok1 := get("created").(int64)
	expires, ok2 := get("expires").(int64)
	if !ok1 || !ok2 {
		return p, refuse("created and expires must be integers")
	}
	p.created, p.expires = time.Unix(created, 0), time.Unix(expires, 0)
	switch {
	case p.created.After(now.Add(MaxSkew)):
		return p, refuse("created is in the future")
	case v.QueuedFor > 0 && p.created.Before(now.Add(-v.QueuedFor-MaxSkew)):
		return p, refuse("queued request older than the queue keeps requests")
	case v.QueuedFor == 0 && !p.expires.After(now):
		return p, refuse("signature expired")
	case !p.expires.After(p.created) || p.expires.Sub(p.created) > MaxLifetime:
		return p, refuse("expires must be after created and at most %v later", MaxLifetime)
	}
	nonce, _ := get("nonce").(string)
	if nonce == "" || len(nonce) > maxNonceLen {
		return p, refuse("nonce missing or too long")
	}
	p.nonce = nonce
	keyID, _ := get("keyid").(string)
	domain, kid, ok := strings.Cut(keyID, "#")
	domain = strings.ToLower(domain)
	if !ok || kid == "" || !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return p, refuse("keyid must be <agent-domain>#<kid> with a dotted domain")
	}
	if nodeHost, _, _ := strings.Cut(strings.ToLower(v.Host), ":"); domain == nodeHost {
		return p, refuse("agent domain must not be the node's hostname")
	}
	p.keyID, p.domain, p.kid = keyID, domain, kid
	return p, nil
}

func signatureValue(r *http.Request, label string) ([]byte, error) {
	sigs, err := httpsfv.UnmarshalDictionary(r.Header.Values("Signature"))
	if err != nil {
		return nil, refuse("malformed Signature")
	}
	m, ok := sigs.Get(label)
	if !ok {
		return nil, refuse("no Signature for label %q", label)
	}
	item, ok := m.(httpsfv.Item)
	sig, isBytes := item.Value.([]byte)
	if !ok || !isBytes || len(sig) != ed25519.SignatureSize {
		return nil, refuse("Signature %q must be a %d-byte sequence", label, ed25519.SignatureSize)
	}
	return sig, nil
}

// checkDigest verifies the RFC 9530 Content-Digest against the raw body
// and returns the field value as it is covered by the signature.
func checkDigest(r *http.Request, body []byte) (string, error) {
	values := r.Header.Values("Content-Digest")
	d, err := httpsfv.UnmarshalDictionary(values)
	if err != nil {
		return "", refuse("malformed Content-Digest (sha-256 in standard Base64 expected)")
	}
	m, ok := d.Get("sha-256")
	item, isItem := m.(httpsfv.Item)
	got, isBytes := item.Value.([]byte)
	if !ok || !isItem || !isBytes {
		return "", refuse("Content-Digest has no sha-256")
	}
	want := sha256.Sum256(body)
	if subtle.ConstantTimeCompare(got, want[:]) != 1 {
		return "", refuse("Content-Digest does not match the body")
	}
	// RFC 9421 section 2.1: the component value is the field's values,
	// each trimmed, joined with ", ".
	for i := range values {
		values[i] = strings.TrimSpace(values[i])
	}
	return strings.Join(values, ", "), nil
}

// signatureBase builds the RFC 9421 section 2.5 signature base from the
// covered components' values and the signature's parameters.
func signatureBase(components [][2]string, list httpsfv.InnerList) (string, error) {
	var b strings.Builder
	for _, c := range components {
		if strings.ContainsAny(c[1], "\r\n") {
			return "", fmt.Errorf("component %s contains a line break", c[0])
		}
		fmt.Fprintf(&b, "%q: %s\n", c[0], c[1])
	}
	sp, err := httpsfv.Marshal(list)
	if err != nil {
		return "", err
	}
	b.WriteString(`"@signature-params": ` + sp)
	return b.String(), nil
}
