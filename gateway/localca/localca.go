// Package localca is the node's own certificate authority: until the relay
// obtains a public certificate through ACME, the gateway presents a
// certificate for its hostname issued by a CA the node creates in its data
// directory. Agents that talk to such a node must be told to trust that CA
// (mailnode-agent --ca), which is what makes it a development and
// home-network setting only.
//
// Keys are ECDSA P-256. The CA lasts ten years; leaf certificates last 90
// days and are reissued when fewer than 30 remain, so a long-running node
// renews without a restart.
package localca

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"mailnode/internal/privdir"
)

// Files in the CA's directory.
const (
	CAFile    = "ca.pem"
	caKeyFile = "ca-key.pem"
)

const (
	caLifetime   = 10 * 365 * 24 * time.Hour
	leafLifetime = 90 * 24 * time.Hour
	renewBefore  = 30 * 24 * time.Hour
)

// CA issues the gateway's certificate.
type CA struct {
	dir  string
	log  *slog.Logger
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	now  func() time.Time

	mu    sync.Mutex // guards leafs
	leafs map[string]*tls.Certificate
}

// Open loads the CA from dir, creating it (and dir, mode 0700) on first
// use. now may be nil for time.Now.
func Open(dir string, logger *slog.Logger, now func() time.Time) (*CA, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	c := &CA{dir: dir, log: logger.With("component", "localca"), now: now, leafs: map[string]*tls.Certificate{}}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("local CA: %w", err)
	}
	certPEM, err := os.ReadFile(filepath.Join(dir, CAFile))
	if errors.Is(err, fs.ErrNotExist) {
		return c, c.create()
	}
	if err != nil {
		return nil, fmt.Errorf("local CA: %w", err)
	}
	keyPEM, err := os.ReadFile(filepath.Join(dir, caKeyFile))
	if err != nil {
		return nil, fmt.Errorf("local CA key: %w", err)
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("local CA in %s: %w", dir, err)
	}
	key, ok := pair.PrivateKey.(*ecdsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("local CA in %s: key is not ECDSA", dir)
	}
	c.cert, c.key = pair.Leaf, key
	return c, nil
}

func (c *CA) create() error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("local CA: %w", err)
	}
	now := c.now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "mailnode local CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(caLifetime),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return fmt.Errorf("local CA: %w", err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return fmt.Errorf("local CA: %w", err)
	}
	// The key first: a CA certificate without its key would be unusable.
	if err := privdir.WriteFile(filepath.Join(c.dir, caKeyFile), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		return err
	}
	if err := privdir.WriteFile(filepath.Join(c.dir, CAFile), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return err
	}
	c.cert, _ = x509.ParseCertificate(der)
	c.key = key
	c.log.Info("Created local certificate authority", "file", filepath.Join(c.dir, CAFile))
	return nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n
}

// Cert returns the CA certificate, for agents to trust.
func (c *CA) Cert() *x509.Certificate { return c.cert }

// CertPEM returns the CA certificate in PEM.
func (c *CA) CertPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.cert.Raw})
}

// GetCertificate returns a tls.Config.GetCertificate that presents a
// certificate for host (a DNS name or an IP address, without port)
// whatever name the client asks for: the node has one name.
func (c *CA) GetCertificate(host string) func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return c.Leaf(host) }
}

// Leaf returns a certificate for host, issuing a new one when none is
// cached or fewer than 30 days remain. Leaf keys live in memory only: a
// restart issues a new one, which costs a millisecond.
func (c *CA) Leaf(host string) (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if l := c.leafs[host]; l != nil && now.Add(renewBefore).Before(l.Leaf.NotAfter) {
		return l, nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("issue certificate: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: host},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(leafLifetime),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.cert, &key.PublicKey, c.key)
	if err != nil {
		return nil, fmt.Errorf("issue certificate for %s: %w", host, err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("issue certificate for %s: %w", host, err)
	}
	l := &tls.Certificate{Certificate: [][]byte{der, c.cert.Raw}, PrivateKey: key, Leaf: leaf}
	c.leafs[host] = l
	c.log.Info("Issued gateway certificate", "host", host, "notAfter", leaf.NotAfter)
	return l, nil
}
