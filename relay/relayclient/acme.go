package relayclient

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
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/crypto/acme"
)

// LetsEncrypt is the default ACME directory.
const LetsEncrypt = acme.LetsEncryptURL

// RenewBefore is how long before expiry a certificate is renewed: a third
// of Let's Encrypt's 90 days, so a CA outage of weeks costs nothing.
const RenewBefore = 30 * 24 * time.Hour

// ACME obtains a publicly trusted certificate for the node's relay name
// from an ACME CA (RFC 8555) with the DNS-01 challenge: the relay answers
// its zone, so the node publishes the challenge's TXT value through the
// relay's /v1/acme/challenge, signed with its node key. The private keys
// (the certificate's and the ACME account's) never leave the node; the
// relay only ever sees a digest it publishes. The TLS of agents'
// connections ends at the node with this certificate, so the relay
// carries bytes it cannot read.
type ACME struct {
	// DirectoryURL is the CA's directory, e.g. LetsEncrypt.
	DirectoryURL string
	// Dir keeps the account key, the certificate and its key (0700, files
	// 0600).
	Dir string
	// HTTP reaches the CA; nil is http.DefaultClient.
	HTTP *http.Client
	// Now is the clock for expiry; nil is time.Now.
	Now func() time.Time
	Log *slog.Logger

	busy sync.Mutex // serialises Ensure
	mu   sync.Mutex // guards cert
	cert *tls.Certificate
}

const (
	acmeAccountFile = "account.key"
	acmeCertFile    = "cert.pem"
	acmeKeyFile     = "key.pem"
)

// Certificate is the certificate held, or nil before one is: the gateway
// serves it for the relay name (the local CA's meanwhile).
func (a *ACME) Certificate() *tls.Certificate {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cert
}

func (a *ACME) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

func (a *ACME) log() *slog.Logger {
	if a.Log != nil {
		return a.Log
	}
	return slog.New(slog.DiscardHandler)
}

// Ensure returns once a certificate for hostname valid for more than
// RenewBefore is held: the one in memory, the one on disk, or a new one
// from the CA.
func (a *ACME) Ensure(ctx context.Context, api *API, hostname string) error {
	a.busy.Lock()
	defer a.busy.Unlock()
	if c := a.Certificate(); c != nil && a.fresh(c, hostname) {
		return nil
	}
	if c, err := a.load(); err == nil && a.fresh(c, hostname) {
		a.set(c)
		return nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		a.log().Warn("Ignoring the stored certificate", "err", err)
	}
	c, err := a.obtain(ctx, api, hostname)
	if err != nil {
		return fmt.Errorf("acme %s: %w", a.DirectoryURL, err)
	}
	a.set(c)
	a.log().Info("New certificate for the relay name", "hostname", hostname, "not_after", c.Leaf.NotAfter.UTC().Format(time.RFC3339))
	return nil
}

func (a *ACME) set(c *tls.Certificate) {
	a.mu.Lock()
	a.cert = c
	a.mu.Unlock()
}

// fresh: c names hostname and has more than RenewBefore left.
func (a *ACME) fresh(c *tls.Certificate, hostname string) bool {
	return c.Leaf != nil && c.Leaf.VerifyHostname(hostname) == nil &&
		c.Leaf.NotAfter.Sub(a.now()) > RenewBefore
}

// obtain runs one ACME order for hostname.
func (a *ACME) obtain(ctx context.Context, api *API, hostname string) (*tls.Certificate, error) {
	if err := os.MkdirAll(a.Dir, 0o700); err != nil {
		return nil, err
	}
	accountKey, err := a.accountKey()
	if err != nil {
		return nil, err
	}
	cl := &acme.Client{Key: accountKey, DirectoryURL: a.DirectoryURL, HTTPClient: a.HTTP, UserAgent: "mailnode"}
	// Registering again with the same key is how RFC 8555 section 7.3.1
	// finds the existing account.
	if _, err := cl.Register(ctx, &acme.Account{}, acme.AcceptTOS); err != nil && !errors.Is(err, acme.ErrAccountAlreadyExists) {
		return nil, fmt.Errorf("account: %w", err)
	}
	order, err := cl.AuthorizeOrder(ctx, acme.DomainIDs(hostname))
	if err != nil {
		return nil, fmt.Errorf("order: %w", err)
	}
	for _, u := range order.AuthzURLs {
		if err := a.authorize(ctx, cl, api, u); err != nil {
			return nil, err
		}
	}
	if order, err = cl.WaitOrder(ctx, order.URI); err != nil {
		return nil, fmt.Errorf("order: %w", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	csr, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{DNSNames: []string{hostname}}, key)
	if err != nil {
		return nil, err
	}
	chain, _, err := cl.CreateCertFromOrder(ctx, order, csr, true)
	if err != nil {
		return nil, fmt.Errorf("finalize: %w", err)
	}
	c, err := certificate(chain, key)
	if err != nil {
		return nil, err
	}
	if err := c.Leaf.VerifyHostname(hostname); err != nil {
		return nil, fmt.Errorf("the CA's certificate: %w", err)
	}
	if err := a.store(chain, key); err != nil {
		return nil, err
	}
	return c, nil
}

// authorize answers one authorization with DNS-01 through the relay and
// clears the TXT value afterwards, whatever the outcome.
func (a *ACME) authorize(ctx context.Context, cl *acme.Client, api *API, url string) error {
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
	if chal == nil {
		return fmt.Errorf("authorization for %s offers no dns-01 challenge", z.Identifier.Value)
	}
	value, err := cl.DNS01ChallengeRecord(chal.Token)
	if err != nil {
		return err
	}
	if err := api.SetChallenges(ctx, []string{value}); err != nil {
		return fmt.Errorf("publish the challenge: %w", err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if err := api.SetChallenges(cctx, nil); err != nil {
			a.log().Warn("Cannot clear the ACME challenge", "err", err)
		}
	}()
	if _, err := cl.Accept(ctx, chal); err != nil {
		return fmt.Errorf("accept the challenge: %w", err)
	}
	if _, err := cl.WaitAuthorization(ctx, z.URI); err != nil {
		return fmt.Errorf("authorization for %s: %w", z.Identifier.Value, err)
	}
	return nil
}

// accountKey loads the ACME account key, making it the first time.
func (a *ACME) accountKey() (crypto.Signer, error) {
	path := filepath.Join(a.Dir, acmeAccountFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, err
		}
		der, _ := x509.MarshalPKCS8PrivateKey(k)
		return k, writePrivate(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	}
	if err != nil {
		return nil, err
	}
	return parseKey(b, path)
}

func parseKey(b []byte, path string) (crypto.Signer, error) {
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, fmt.Errorf("%s: no PEM key", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("%s: not a signing key", path)
	}
	return s, nil
}

// store writes the chain and its key, the key first so that a crash
// between the two leaves a certificate that load refuses, not one
// without its key.
func (a *ACME) store(chain [][]byte, key *ecdsa.PrivateKey) error {
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	if err := writePrivate(filepath.Join(a.Dir, acmeKeyFile), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})); err != nil {
		return err
	}
	var certs []byte
	for _, c := range chain {
		certs = append(certs, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c})...)
	}
	return writePrivate(filepath.Join(a.Dir, acmeCertFile), certs)
}

// load reads the stored certificate and key.
func (a *ACME) load() (*tls.Certificate, error) {
	certPEM, err := os.ReadFile(filepath.Join(a.Dir, acmeCertFile))
	if err != nil {
		return nil, err
	}
	keyPEM, err := os.ReadFile(filepath.Join(a.Dir, acmeKeyFile))
	if err != nil {
		return nil, err
	}
	c, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("stored certificate: %w", err)
	}
	return &c, nil
}

// certificate pairs a DER chain with its key; Leaf is set.
func certificate(chain [][]byte, key crypto.Signer) (*tls.Certificate, error) {
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

// writePrivate writes b to path atomically, mode 0600.
func writePrivate(path string, b []byte) error {
	tmp := path + ".tmp"
	os.Remove(tmp)
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
