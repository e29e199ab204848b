// Package devnet is the development overrides for reaching a relay, and
// the nodes behind it, that are not on the public Internet: a relay on
// loopback with its own DNS, its own port in place of 443 and its own
// CA. The agent's and the node's command lines take the same three flags
// and build their clients here, so both find a local relay the same way.
// Every override is off unless given; with none, the clients are plain
// system DNS, port 443 and the system roots.
package devnet

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"
)

// Overrides are the development overrides; the zero value is none.
type Overrides struct {
	// CAFiles are PEM files of CAs trusted beside the system roots.
	CAFiles []string
	// DNS is a DNS server (host:port) to look every name up at.
	DNS string
	// Port replaces 443 in every address dialed.
	Port int
}

// Any reports whether an override is set.
func (o Overrides) Any() bool { return len(o.CAFiles) > 0 || o.DNS != "" || o.Port != 0 }

// Check reports a usage error.
func (o Overrides) Check() error {
	if o.Port < 0 || o.Port > 65535 {
		return fmt.Errorf("development port %d is not a port", o.Port)
	}
	if o.DNS != "" {
		if _, _, err := net.SplitHostPort(o.DNS); err != nil {
			return fmt.Errorf("development DNS server %q: want HOST:PORT", o.DNS)
		}
	}
	return nil
}

// TLS is TLS 1.3 with the system roots plus CAFiles; nil roots (the
// system's) when there are no CAFiles.
func (o Overrides) TLS() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS13}
	if len(o.CAFiles) == 0 {
		return cfg, nil
	}
	roots, err := x509.SystemCertPool()
	if err != nil {
		roots = x509.NewCertPool()
	}
	for _, f := range o.CAFiles {
		pem, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("development CA: %w", err)
		}
		if !roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("development CA: no certificate in %s", f)
		}
	}
	cfg.RootCAs = roots
	return cfg, nil
}

// Dial dials through the DNS and port overrides.
func (o Overrides) Dial() func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if o.DNS != "" {
		server := o.DNS
		d.Resolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var nd net.Dialer
			return nd.DialContext(ctx, network, server)
		}}
	}
	if o.Port == 0 {
		return d.DialContext
	}
	port := strconv.Itoa(o.Port)
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if host, p, err := net.SplitHostPort(addr); err == nil && p == "443" {
			addr = net.JoinHostPort(host, port)
		}
		return d.DialContext(ctx, network, addr)
	}
}

// HTTPClient is an HTTPS client with TLS() and Dial().
func (o Overrides) HTTPClient() (*http.Client, error) {
	tlsConfig, err := o.TLS()
	if err != nil {
		return nil, err
	}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: o.Dial(), TLSClientConfig: tlsConfig, TLSHandshakeTimeout: 10 * time.Second, ForceAttemptHTTP2: true,
	}}, nil
}
