// Package relayacme obtains and renews the relay's own certificate from
// an ACME CA (RFC 8555): one certificate for the API name and the hosted
// agents' wildcard, *.agents.<zone>, which a CA issues only by DNS-01.
// The relay is authoritative for its zone, so it answers the challenge
// itself: the TXT values go into the store, which every instance's DNS
// reads (relayserver answers _acme-challenge.<API name> and
// _acme-challenge.agents.<zone> from it). No other party is involved.
//
// The account key and the certificate with its key are kept in the store
// (the SQLite file in the data directory, mode 0600, or the PostgreSQL
// database several instances share), so a restart reuses them and every
// instance serves the same certificate. One instance at a time orders,
// under a lease in the store; the others pick the new certificate up
// from the store. The TLS configuration asks GetCertificate at each
// handshake, so a renewed certificate is served without a restart.
package relayacme

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/acme"

	"mailnode/relay/acmeorder"
	"mailnode/relay/relaystore"
)

// LetsEncrypt is the default directory: Let's Encrypt's production CA.
const LetsEncrypt = acme.LetsEncryptURL

// RenewBefore is how long before expiry the certificate is renewed: a
// third of Let's Encrypt's 90 days, as the nodes do, so that a CA outage
// of weeks costs nothing.
const RenewBefore = 30 * 24 * time.Hour

// The store's names: the account key, the certificate (PEM chain then
// its PEM key), and the lease of the instance ordering.
const (
	accountName = "acme-account"
	certName    = "acme-certificate"
	leaseName   = "acme"
	leaseFor    = 10 * time.Minute
)

// ErrNoCertificate is GetCertificate's answer before the first
// certificate: the handshake fails, as no certificate the relay could
// make would be trusted.
var ErrNoCertificate = errors.New("relay: no certificate yet (ACME order pending)")

// errBusy: another instance holds the lease and is ordering.
var errBusy = errors.New("another instance is ordering the certificate")

// Config is what the manager needs. Zone and Store are required.
type Config struct {
	// Zone is the relay's zone; the certificate names *.agents.<Zone>.
	Zone string
	// APIName is the relay's own name, Zone or a name in it (its DNS
	// must answer the challenge); default Zone.
	APIName string
	// DirectoryURL is the CA's ACME directory; default LetsEncrypt.
	DirectoryURL string
	// Email is the account's contact, for the CA's expiry warnings;
	// optional.
	Email string
	// HTTP reaches the CA; nil is http.DefaultClient.
	HTTP  *http.Client
	Store relaystore.Store
	// Holder names this instance in the lease; default random.
	Holder string
	// RenewBefore is how long before expiry to renew; default
	// RenewBefore.
	RenewBefore time.Duration
	// CheckEvery is how often Run looks at the certificate (and at the
	// store, for one another instance renewed); default one hour.
	CheckEvery time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Manager holds the relay's certificate. Run keeps it fresh;
// GetCertificate serves it.
type Manager struct {
	cfg   Config
	log   *slog.Logger
	names []string
	cert  atomic.Pointer[tls.Certificate]
	// refused is set once the first handshake without a certificate was
	// logged at Warn; the next ones go to Debug.
	refused atomic.Bool
	busy    sync.Mutex // serialises Ensure
}

// New returns a manager; it does no I/O.
func New(cfg Config, logger *slog.Logger) (*Manager, error) {
	if cfg.Zone == "" || cfg.Store == nil {
		return nil, errors.New("relay acme: zone and store are required")
	}
	cfg.Zone = strings.TrimSuffix(strings.ToLower(cfg.Zone), ".")
	if cfg.APIName == "" {
		cfg.APIName = cfg.Zone
	}
	cfg.APIName = strings.TrimSuffix(strings.ToLower(cfg.APIName), ".")
	if cfg.APIName != cfg.Zone && !strings.HasSuffix(cfg.APIName, "."+cfg.Zone) {
		return nil, fmt.Errorf("relay acme: the API name %s is not in the zone %s, so the relay's DNS cannot answer its challenge", cfg.APIName, cfg.Zone)
	}
	if cfg.DirectoryURL == "" {
		cfg.DirectoryURL = LetsEncrypt
	}
	if cfg.Holder == "" {
		b := make([]byte, 8)
		rand.Read(b)
		cfg.Holder = hex.EncodeToString(b)
	}
	if cfg.RenewBefore <= 0 {
		cfg.RenewBefore = RenewBefore
	}
	if cfg.CheckEvery <= 0 {
		cfg.CheckEvery = time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Manager{cfg: cfg, log: logger.With("component", "acme"), names: []string{cfg.APIName, "*.agents." + cfg.Zone}}, nil
}

// Names are the names the certificate is for: the API name and the
// hosted agents' wildcard.
func (m *Manager) Names() []string { return append([]string(nil), m.names...) }

// ChallengeDomains are the names whose _acme-challenge TXT record the
// relay's DNS must answer from the store, under the same key.
func ChallengeDomains(zone, apiName string) []string {
	zone = strings.TrimSuffix(strings.ToLower(zone), ".")
	if apiName == "" {
		apiName = zone
	}
	return []string{strings.TrimSuffix(strings.ToLower(apiName), "."), "agents." + zone}
}

// Certificate is the certificate held, nil before the first.
func (m *Manager) Certificate() *tls.Certificate { return m.cert.Load() }

// GetCertificate is tls.Config.GetCertificate: the current certificate,
// read at each handshake; before the first one, ErrNoCertificate (the
// handshake fails; logged at Warn once, then at Debug).
func (m *Manager) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	if c := m.cert.Load(); c != nil {
		return c, nil
	}
	if m.refused.CompareAndSwap(false, true) {
		m.log.Warn("Refusing TLS handshakes until the first certificate is obtained", "names", m.names)
	} else {
		m.log.Debug("Refused a TLS handshake: no certificate yet")
	}
	return nil, ErrNoCertificate
}

// fresh: c names every name and has more than RenewBefore left.
func (m *Manager) fresh(c *tls.Certificate) bool {
	return m.covers(c) && c.Leaf.NotAfter.Sub(m.cfg.Now()) > m.cfg.RenewBefore
}

// usable: c names every name and has not expired.
func (m *Manager) usable(c *tls.Certificate) bool {
	return m.covers(c) && m.cfg.Now().Before(c.Leaf.NotAfter)
}

func (m *Manager) covers(c *tls.Certificate) bool {
	if c == nil || c.Leaf == nil {
		return false
	}
	for _, n := range m.names {
		if !acmeorder.Covers(c.Leaf, n) {
			return false
		}
	}
	return true
}

// Ensure returns once the certificate held is fresh: the one in memory,
// the one in the store, or a new one from the CA, ordered under the
// store's lease. If another instance holds the lease, it returns an
// error that Run retries soon; the certificate held meanwhile, if still
// valid, goes on being served.
func (m *Manager) Ensure(ctx context.Context) error {
	m.busy.Lock()
	defer m.busy.Unlock()
	if m.fresh(m.cert.Load()) {
		return nil
	}
	if ok, err := m.loadStored(ctx); err != nil || ok {
		return err
	}
	now := m.cfg.Now()
	took, err := m.cfg.Store.TakeLease(ctx, leaseName, m.cfg.Holder, now, now.Add(leaseFor))
	if err != nil {
		return err
	}
	if !took {
		return errBusy
	}
	defer func() {
		if err := m.cfg.Store.DropLease(context.WithoutCancel(ctx), leaseName, m.cfg.Holder); err != nil {
			m.log.Warn("Cannot drop the ACME lease", "err", err)
		}
	}()
	// Another instance may have renewed between the read and the lease.
	if ok, err := m.loadStored(ctx); err != nil || ok {
		return err
	}
	c, err := m.obtain(ctx)
	if err != nil {
		return fmt.Errorf("acme %s: %w", m.cfg.DirectoryURL, err)
	}
	m.cert.Store(c)
	m.log.Info("New certificate", "names", m.names, "notAfter", c.Leaf.NotAfter.UTC().Format(time.RFC3339))
	return nil
}

// loadStored reads the store's certificate: held if usable (better than
// none while a renewal is due), and ok if fresh.
func (m *Manager) loadStored(ctx context.Context) (ok bool, err error) {
	b, err := m.cfg.Store.Private(ctx, certName)
	if errors.Is(err, relaystore.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	c, err := tls.X509KeyPair(b, b)
	if err != nil {
		m.log.Warn("Ignoring the stored certificate", "err", err)
		return false, nil
	}
	if !m.usable(&c) {
		return false, nil
	}
	if old := m.cert.Load(); old == nil || !old.Leaf.Equal(c.Leaf) {
		m.cert.Store(&c)
		m.log.Info("Serving the stored certificate", "names", m.names, "notAfter", c.Leaf.NotAfter.UTC().Format(time.RFC3339))
	}
	return m.fresh(&c), nil
}

// obtain orders a certificate and stores it.
func (m *Manager) obtain(ctx context.Context) (*tls.Certificate, error) {
	key, err := m.accountKey(ctx)
	if err != nil {
		return nil, err
	}
	m.log.Info("Ordering a certificate", "names", m.names, "directory", m.cfg.DirectoryURL)
	cl := &acme.Client{Key: key, DirectoryURL: m.cfg.DirectoryURL, HTTPClient: m.cfg.HTTP, UserAgent: "mailnode-relay"}
	publish := func(ctx context.Context, domain string, values []string) error {
		return m.cfg.Store.SetChallenges(ctx, domain, values)
	}
	c, err := acmeorder.Obtain(ctx, cl, m.names, m.cfg.Email, publish, m.log)
	if err != nil {
		return nil, err
	}
	certKey, err := acmeorder.MarshalKey(c.PrivateKey.(crypto.Signer))
	if err != nil {
		return nil, err
	}
	if err := m.cfg.Store.PutPrivate(ctx, certName, append(acmeorder.MarshalChain(c.Certificate), certKey...)); err != nil {
		return nil, err
	}
	return c, nil
}

// accountKey reads the ACME account key from the store, making it the
// first time. Two instances making one at once would each register an
// account; the last stored wins, which is harmless (the lease makes it
// rare).
func (m *Manager) accountKey(ctx context.Context) (crypto.Signer, error) {
	b, err := m.cfg.Store.Private(ctx, accountName)
	if err == nil {
		return acmeorder.ParseKey(b, "the stored ACME account key")
	}
	if !errors.Is(err, relaystore.ErrNotFound) {
		return nil, err
	}
	k, err := acmeorder.NewKey()
	if err != nil {
		return nil, err
	}
	if b, err = acmeorder.MarshalKey(k); err != nil {
		return nil, err
	}
	if err := m.cfg.Store.PutPrivate(ctx, accountName, b); err != nil {
		return nil, err
	}
	m.log.Info("Created the ACME account key")
	return k, nil
}

// Run keeps the certificate fresh until ctx ends: Ensure at once, then
// every CheckEvery; after a failure again in a minute, doubling up to
// CheckEvery. It returns nil when ctx ends; an ACME failure never stops
// the relay (the certificate held stays valid for weeks).
func (m *Manager) Run(ctx context.Context) error {
	var delay, backoff time.Duration
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(delay):
		}
		err := m.Ensure(ctx)
		switch {
		case ctx.Err() != nil:
			return nil
		case err == nil:
			delay, backoff = m.cfg.CheckEvery, 0
		case errors.Is(err, errBusy):
			m.log.Info("Another instance is ordering the certificate; looking again in a minute")
			delay = time.Minute
		default:
			backoff = min(max(2*backoff, time.Minute), m.cfg.CheckEvery)
			delay = backoff
			m.log.Warn("Cannot obtain the certificate", "err", err, "retryIn", delay)
		}
	}
}
