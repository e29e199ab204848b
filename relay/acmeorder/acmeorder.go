// Package acmeorder runs one ACME order (RFC 8555) whose authorizations
// are all answered by the DNS-01 challenge (section 8.4), and keeps the
// keys and chains it yields as PEM. Both sides of the relay use it: a
// node for its relay name, publishing the TXT value through the relay's
// /v1/acme/challenge (relay/relayclient), and the relay for its own names
// and the hosted agents' wildcard, publishing in its own zone
// (relay/relayacme). It links nothing of either.
package acmeorder

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"golang.org/x/crypto/acme"
)

// Publish sets the TXT values of _acme-challenge.<domain> (RFC 8555
// section 8.4), replacing those set before; nil values clear them. For
// a wildcard name (*.agents.example.net) domain is the name without
// "*." (agents.example.net), as the RFC's section 7.1.3 says.
type Publish func(ctx context.Context, domain string, values []string) error

// Obtain registers (or finds, RFC 8555 section 7.3.1) the account of
// cl.Key, with email as its contact if given, orders a certificate for
// names, answers every authorization by DNS-01 through publish, clears
// what it published whatever the outcome, and finalizes the order with a
// new P-256 key. The certificate returned has Leaf set and names every
// one of names.
func Obtain(ctx context.Context, cl *acme.Client, names []string, email string, publish Publish, log *slog.Logger) (*tls.Certificate, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	account := &acme.Account{}
	if email != "" {
		account.Contact = []string{"mailto:" + email}
	}
	if _, err := cl.Register(ctx, account, acme.AcceptTOS); err != nil && !errors.Is(err, acme.ErrAccountAlreadyExists) {
		return nil, fmt.Errorf("account: %w", err)
	}
	order, err := cl.AuthorizeOrder(ctx, acme.DomainIDs(names...))
	if err != nil {
		return nil, fmt.Errorf("order: %w", err)
	}
	published := map[string][]string{}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		for domain := range published {
			if err := publish(cctx, domain, nil); err != nil {
				log.Warn("Cannot clear the ACME challenge", "domain", domain, "err", err)
			}
		}
	}()
	for _, u := range order.AuthzURLs {
		if err := authorize(ctx, cl, u, publish, published, log); err != nil {
			return nil, err
		}
	}
	if order, err = cl.WaitOrder(ctx, order.URI); err != nil {
		return nil, fmt.Errorf("order: %w", err)
	}
	key, err := NewKey()
	if err != nil {
		return nil, err
	}
	csr, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{DNSNames: names}, key)
	if err != nil {
		return nil, err
	}
	chain, _, err := cl.CreateCertFromOrder(ctx, order, csr, true)
	if err != nil {
		return nil, fmt.Errorf("finalize: %w", err)
	}
	c, err := Certificate(chain, key)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if !Covers(c.Leaf, n) {
			return nil, fmt.Errorf("the CA's certificate does not name %s", n)
		}
	}
	return c, nil
}

// authorize answers one authorization with DNS-01. published holds the
// values set so far per domain: two authorizations of one domain (a name
// and its wildcard) need both values at once.
func authorize(ctx context.Context, cl *acme.Client, url string, publish Publish, published map[string][]string, log *slog.Logger) error {
	z, err := cl.GetAuthorization(ctx, url)
	if err != nil {
		return fmt.Errorf("authorization: %w", err)
	}
	if z.Status == acme.StatusValid {
		return nil
	}
	var chal *acme.Challenge
	for _, c := range z.Challenges {
		if c.Type == "dns-01" {
			chal = c
		}
	}
	domain := z.Identifier.Value
	if chal == nil {
		return fmt.Errorf("authorization for %s offers no dns-01 challenge", domain)
	}
	value, err := cl.DNS01ChallengeRecord(chal.Token)
	if err != nil {
		return err
	}
	published[domain] = append(published[domain], value)
	if err := publish(ctx, domain, published[domain]); err != nil {
		return fmt.Errorf("publish the challenge: %w", err)
	}
	log.Info("Published the ACME challenge", "domain", domain, "wildcard", z.Wildcard)
	if _, err := cl.Accept(ctx, chal); err != nil {
		return fmt.Errorf("accept the challenge: %w", err)
	}
	if _, err := cl.WaitAuthorization(ctx, z.URI); err != nil {
		return fmt.Errorf("authorization for %s: %w", domain, err)
	}
	log.Info("The CA validated the challenge", "domain", domain, "wildcard", z.Wildcard)
	return nil
}

// Covers reports whether leaf is valid for name, a wildcard included
// (*.agents.example.net is covered by a certificate naming exactly that).
func Covers(leaf *x509.Certificate, name string) bool {
	if rest, ok := cutWildcard(name); ok {
		for _, n := range leaf.DNSNames {
			if n == "*."+rest {
				return true
			}
		}
		return false
	}
	return leaf.VerifyHostname(name) == nil
}

func cutWildcard(name string) (string, bool) {
	if len(name) > 2 && name[:2] == "*." {
		return name[2:], true
	}
	return "", false
}

// NewKey makes a P-256 key, for an account or a certificate.
func NewKey() (*ecdsa.PrivateKey, error) {
	return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
}

// MarshalKey is k as a PEM PKCS #8 block.
func MarshalKey(k crypto.Signer) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// ParseKey reads the first PEM PKCS #8 private key in b; from names b in
// errors (a file, a database row).
func ParseKey(b []byte, from string) (crypto.Signer, error) {
	var blk *pem.Block
	for {
		blk, b = pem.Decode(b)
		if blk == nil {
			return nil, fmt.Errorf("%s: no PEM key", from)
		}
		if blk.Type == "PRIVATE KEY" {
			break
		}
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", from, err)
	}
	s, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("%s: not a signing key", from)
	}
	return s, nil
}

// MarshalChain is a DER chain as PEM CERTIFICATE blocks, leaf first.
func MarshalChain(chain [][]byte) []byte {
	var out []byte
	for _, c := range chain {
		out = append(out, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c})...)
	}
	return out
}

// Certificate pairs a DER chain with its key; Leaf is set.
func Certificate(chain [][]byte, key crypto.Signer) (*tls.Certificate, error) {
	if len(chain) == 0 {
		return nil, errors.New("the CA sent no certificate")
	}
	leaf, err := x509.ParseCertificate(chain[0])
	if err != nil {
		return nil, fmt.Errorf("the CA's certificate: %w", err)
	}
	pub, ok := leaf.PublicKey.(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !pub.Equal(key.Public()) {
		return nil, errors.New("the CA's certificate is not for our key")
	}
	return &tls.Certificate{Certificate: chain, PrivateKey: key, Leaf: leaf}, nil
}
