// Package relaylocal runs a whole relay on loopback, in the calling
// process: the relay's SNI port, its agent API over HTTPS, its DNS zone
// (UDP and TCP), a certificate authority made at start for the relay's
// own names, and a dialer that resolves names through that DNS the way
// the Internet would resolve the zone. `mailnode demo` runs one beside
// the node, and the tests run node, relay and agent together on it.
//
// Nothing here is a stand-in: it is relayserver with its SQLite store;
// only the listening addresses and the CA are local.
package relaylocal

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// Zone is the local relay's zone and API name.
const Zone = "relay.test"

// Options configure a local relay.
type Options struct {
	// DataDir holds the relay's SQLite file.
	DataDir string
	// Mailer sends confirmation codes; nil until SetMailer (a demo's
	// mailbox may start after its relay).
	Mailer relayserver.Mailer
	Limits relayserver.Limits
	// KeepAlive is the tunnels' keepalive; default the protocol's.
	KeepAlive time.Duration
	// Addr, DNSAddr are the loopback addresses to listen on;
	// "127.0.0.1:0" if empty. A restarted relay passes its old ones.
	Addr, DNSAddr string
	// CA reuses an earlier relay's authority (a restart); nil makes one.
	CA *CA
	// Now is the relay's clock; default time.Now (tests move it on to
	// see the queue expire).
	Now func() time.Time
}

// Relay is a running local relay.
type Relay struct {
	Server *relayserver.Server
	// URL is the agent API's base, https://relay.test.
	URL string
	// Addr is the SNI port (what :443 is on the Internet); DNSAddr the
	// zone's DNS server (UDP and TCP).
	Addr, DNSAddr string
	CA            *CA

	store  relaystore.Store
	cancel context.CancelFunc
	mailer chan relayserver.Mailer // holds the mailer once set
	wg     sync.WaitGroup
}

// Start starts a relay on loopback.
func Start(ctx context.Context, o Options, logger *slog.Logger) (*Relay, error) {
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.DNSAddr == "" {
		o.DNSAddr = "127.0.0.1:0"
	}
	ca := o.CA
	if ca == nil {
		var err error
		if ca, err = NewCA(); err != nil {
			return nil, err
		}
	}
	cert, err := ca.Issue(Zone, "*.agents."+Zone)
	if err != nil {
		return nil, err
	}
	store, err := relaystore.OpenSQLite(ctx, o.DataDir)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("local relay: %w", err)
	}
	pc, dnsLn, err := listenDNS(o.DNSAddr)
	if err != nil {
		ln.Close()
		store.Close()
		return nil, fmt.Errorf("local relay dns: %w", err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	r := &Relay{URL: "https://" + Zone, Addr: ln.Addr().String(), DNSAddr: pc.LocalAddr().String(),
		CA: ca, store: store, mailer: make(chan relayserver.Mailer, 1)}
	if o.Mailer != nil {
		r.mailer <- o.Mailer
	}
	srv, err := relayserver.New(ctx, relayserver.Config{
		Zone:        Zone,
		PublicIPs:   []net.IP{net.IPv4(127, 0, 0, 1)},
		TunnelAddr:  net.JoinHostPort(Zone, port),
		Store:       store,
		Mailer:      (*lateMailer)(r),
		Certificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return cert, nil },
		Limits:      o.Limits,
		KeepAlive:   o.KeepAlive,
		Now:         o.Now,
	}, logger)
	if err != nil {
		ln.Close()
		pc.Close()
		dnsLn.Close()
		store.Close()
		return nil, err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	r.Server, r.cancel = srv, cancel
	r.wg.Add(2)
	go func() { defer r.wg.Done(); srv.ServeTLS(runCtx, ln) }()
	go func() { defer r.wg.Done(); srv.ServeDNS(runCtx, pc, dnsLn) }()
	return r, nil
}

// Close stops the relay and waits for it.
func (r *Relay) Close() error {
	r.cancel()
	r.Server.Close()
	r.wg.Wait()
	return r.store.Close()
}

// Resolver looks names up in the relay's zone through its DNS server.
func (r *Relay) Resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, r.DNSAddr)
	}}
}

// Dial connects to a name in the zone as the Internet would: the name is
// looked up in the relay's DNS, and port 443 (or any port) is the relay's
// SNI port on the address found.
func (r *Relay) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h != Zone && !strings.HasSuffix(h, "."+Zone) {
		return nil, fmt.Errorf("local relay: %s is not in %s", host, Zone)
	}
	ips, err := r.Resolver().LookupIPAddr(ctx, h)
	if err != nil {
		return nil, err
	}
	if len(ips) == 0 {
		return nil, errors.New("local relay: no address for " + host)
	}
	_, port, _ := net.SplitHostPort(r.Addr)
	var d net.Dialer
	return d.DialContext(ctx, network, net.JoinHostPort(ips[0].IP.String(), port))
}

// HTTPClient calls the relay's API (and hosted agent documents), trusting
// its CA and dialing through Dial.
func (r *Relay) HTTPClient() *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext:       r.Dial,
		TLSClientConfig:   r.CA.ClientTLS(),
		ForceAttemptHTTP2: true,
	}}
}

// CA is a certificate authority made for a local relay.
type CA struct {
	Cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

// NewCA makes an authority valid for a day.
func NewCA() (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailnode local relay CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("local relay CA: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &CA{Cert: cert, key: key}, nil
}

// Issue makes a server certificate for names.
func (ca *CA) Issue(names ...string) (*tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: names[0]}, DNSNames: names,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.key)
	if err != nil {
		return nil, fmt.Errorf("local relay CA: %w", err)
	}
	leaf, _ := x509.ParseCertificate(der)
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}

// ClientTLS trusts the authority.
func (ca *CA) ClientTLS() *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

// SetMailer sets the mailer of a relay started without one.
func (r *Relay) SetMailer(m relayserver.Mailer) {
	select {
	case r.mailer <- m:
	default:
	}
}

// lateMailer waits for the mailer a demo sets once its mailbox is up.
type lateMailer Relay

func (l *lateMailer) get(ctx context.Context) (relayserver.Mailer, error) {
	select {
	case m := <-l.mailer:
		l.mailer <- m
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(30 * time.Second):
		return nil, errors.New("local relay: no mailer")
	}
}

func (l *lateMailer) SendCode(ctx context.Context, to string, cm relayserver.CodeMail) error {
	m, err := l.get(ctx)
	if err != nil {
		return err
	}
	return m.SendCode(ctx, to, cm)
}

func (l *lateMailer) From() string { return "relay@" + Zone }

// listenDNS listens on addr in UDP and TCP, the same port for both. With
// port 0 the UDP port is free but its TCP twin may be taken (by an
// outgoing connection's ephemeral port): it tries other ports.
func listenDNS(addr string) (net.PacketConn, net.Listener, error) {
	var err error
	for range 20 {
		var pc net.PacketConn
		if pc, err = net.ListenPacket("udp", addr); err != nil {
			return nil, nil, err
		}
		var ln net.Listener
		if ln, err = net.Listen("tcp", pc.LocalAddr().String()); err == nil {
			return pc, ln, nil
		}
		pc.Close()
		if _, port, _ := net.SplitHostPort(addr); port != "0" {
			break
		}
	}
	return nil, nil, err
}
