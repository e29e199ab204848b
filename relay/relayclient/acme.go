package relayclient

import (
	"context"
	"crypto"
	"crypto/tls"
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

	"mailnode/relay/acmeorder"
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

// obtain runs one ACME order for hostname, the challenge published
// through the relay (the name comes from the node's key, so the domain
// Publish is given is the node's own).
func (a *ACME) obtain(ctx context.Context, api *API, hostname string) (*tls.Certificate, error) {
	if err := os.MkdirAll(a.Dir, 0o700); err != nil {
		return nil, err
	}
	accountKey, err := a.accountKey()
	if err != nil {
		return nil, err
	}
	cl := &acme.Client{Key: accountKey, DirectoryURL: a.DirectoryURL, HTTPClient: a.HTTP, UserAgent: "mailnode"}
	publish := func(ctx context.Context, _ string, values []string) error { return api.SetChallenges(ctx, values) }
	c, err := acmeorder.Obtain(ctx, cl, []string{hostname}, "", publish, a.log())
	if err != nil {
		return nil, err
	}
	if err := a.store(c); err != nil {
		return nil, err
	}
	return c, nil
}

// accountKey loads the ACME account key, making it the first time.
func (a *ACME) accountKey() (crypto.Signer, error) {
	path := filepath.Join(a.Dir, acmeAccountFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		k, err := acmeorder.NewKey()
		if err != nil {
			return nil, err
		}
		b, err := acmeorder.MarshalKey(k)
		if err != nil {
			return nil, err
		}
		return k, writePrivate(path, b)
	}
	if err != nil {
		return nil, err
	}
	return acmeorder.ParseKey(b, path)
}

// store writes the chain and its key, the key first so that a crash
// between the two leaves a certificate that load refuses, not one
// without its key.
func (a *ACME) store(c *tls.Certificate) error {
	key, err := acmeorder.MarshalKey(c.PrivateKey.(crypto.Signer))
	if err != nil {
		return err
	}
	if err := writePrivate(filepath.Join(a.Dir, acmeKeyFile), key); err != nil {
		return err
	}
	return writePrivate(filepath.Join(a.Dir, acmeCertFile), acmeorder.MarshalChain(c.Certificate))
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

// writePrivate writes b to path atomically, mode 0600.
func writePrivate(path string, b []byte) error {
	tmp := path + ".tmp"
	os.Remove(tmp)
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
