package publicaddr

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// ErrNoPublicAddress is what Dialer answers when the name resolves to no
// public address.
var ErrNoPublicAddress = errors.New("the name resolves to no public address")

// Dialer connects to port 443 of a host someone else named (an agent's
// key document, a phone's push service) at a public address only. The
// name is resolved at every dial and the checked address is dialed
// itself: a second lookup could answer differently (DNS rebinding), and
// a name checked when it was registered may point elsewhere now.
type Dialer struct {
	Timeout time.Duration
	// Lookup resolves a name; nil means the system resolver.
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// DevAddrs maps lower-case host names to the address to dial
	// instead (development overrides, behind explicit flags).
	DevAddrs map[string]string
	// DevDial dials a host for which DevHost reports true (a
	// development relay's zone), nil if none.
	DevDial func(ctx context.Context, network, addr string) (net.Conn, error)
	DevHost func(host string) bool
	// NoPublic is the error when no address is public (and none could
	// be dialed); nil means ErrNoPublicAddress.
	NoPublic error
}

// DialContext is for http.Transport.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	nd := &net.Dialer{Timeout: d.Timeout}
	if dev, ok := d.DevAddrs[strings.ToLower(host)]; ok {
		return nd.DialContext(ctx, "tcp", dev)
	}
	if d.DevDial != nil && d.DevHost != nil && d.DevHost(host) {
		return d.DevDial(ctx, "tcp", addr)
	}
	if port != "443" {
		return nil, fmt.Errorf("%s: only port 443 is dialed", addr)
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		lookup := d.Lookup
		if lookup == nil {
			lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
				return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
			}
		}
		if addrs, err = lookup(ctx, host); err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
	}
	var lastErr = d.NoPublic
	if lastErr == nil {
		lastErr = ErrNoPublicAddress
	}
	for _, a := range addrs {
		if !Is(a) {
			continue
		}
		c, err := nd.DialContext(ctx, "tcp", netip.AddrPortFrom(a.Unmap(), 443).String())
		if err == nil {
			return c, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// Client returns an HTTP client that dials with d, never through a proxy
// from the environment, follows no redirect, trusts devRoots besides the
// system's roots (development only), and gives up after timeout; tune
// sets what differs between its users (idle connections, HTTP/2).
func Client(d *Dialer, devRoots []*x509.Certificate, timeout time.Duration, tune func(*http.Transport)) *http.Client {
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if len(devRoots) > 0 {
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		for _, c := range devRoots {
			pool.AddCert(c)
		}
		tlsConf.RootCAs = pool
	}
	t := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		TLSClientConfig:       tlsConf,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
	}
	if tune != nil {
		tune(t)
	}
	return &http.Client{
		Transport:     t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       timeout,
	}
}
