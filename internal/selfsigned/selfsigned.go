// Package selfsigned makes one-day certificates that are their own
// authority, for servers that live on this machine only and whose client
// is told to trust exactly that certificate: the test harnesses' Dovecot,
// Postfix and OpenID provider, the demo's SMTP server, an agent's
// development key server. Nothing here is for a server others reach: the
// node's own names get certificates from gateway/localca or ACME.
package selfsigned

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Cert is a certificate and its key, in the forms the callers need.
type Cert struct {
	TLS     tls.Certificate // for a Go server
	Leaf    *x509.Certificate
	CertPEM []byte
	KeyPEM  []byte // PKCS #8
}

// New makes a P-256 certificate named commonName for hosts (IP addresses
// or DNS names), valid from an hour ago for a day, that is its own CA.
func New(commonName string, hosts ...string) (*Cert, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("certificate key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return nil, fmt.Errorf("certificate serial: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: commonName},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("create certificate: %w", err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("parse certificate: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("marshal key: %w", err)
	}
	return &Cert{
		TLS:     tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf},
		Leaf:    leaf,
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
	}, nil
}

// ClientConfig trusts c and nothing else.
func (c *Cert) ClientConfig() *tls.Config {
	roots := x509.NewCertPool()
	roots.AddCert(c.Leaf)
	return &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
}

// WriteFiles writes dir/cert.pem (0644: a server that drops privileges,
// as Dovecot does, reads it as another user) and dir/key.pem (0600: such
// servers read it as root first).
func (c *Cert) WriteFiles(dir string) error {
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), c.KeyPEM, 0o600); err != nil {
		return fmt.Errorf("write key: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), c.CertPEM, 0o644); err != nil {
		return fmt.Errorf("write certificate: %w", err)
	}
	return nil
}
