// Package relaylocal runs a whole relay on loopback, in the calling
// process: the relay's SNI port, its agent API over HTTPS, its DNS zone
// (UDP and TCP), a certificate authority made at start for the relay's
// own names, and a dialer that resolves names through that DNS the way
// the Internet would resolve the zone. `mailnode demo` runs one beside
// the node, and the tests run node, relay and agent together on it.
//
// Nothing here is a stand-in: it is relayserver with its SQLite store,
// run by relayserver.Run as the command runs it (expiry loop included);
// only the listening addresses and the CA are local.
//
// OpenCA keeps such a CA in a directory instead, for `mailnode-relay
// serve --dev`: a development relay whose CA is trusted once and
// survives restarts. The relay command links this package for that
// alone; it holds nothing of the node.
package relaylocal

import (
	"context"
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
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"mailnode/internal/privdir"
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
	// Limits are the relay's; DNSRate defaults to no limit here: a
	// relay on loopback reflects nothing to the Internet, and its Dial
	// looks up every connection's name in its DNS.
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
	// ExpireEvery is how often the relay deletes what expired; default
	// relayserver's (a minute).
	ExpireEvery time.Duration
	// OtherTunnels are other instances' tunnel addresses the relay gives
	// nodes to fall back to (mailnode-relay --other-tunnel).
	OtherTunnels []string
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
	done   chan struct{}           // closed when Run returned; err is set before
	err    error

	close1   sync.Once
	closeErr error
}

// Start starts a relay on loopback.
func Start(ctx context.Context, o Options, logger *slog.Logger) (*Relay, error) {
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.DNSAddr == "" {
		o.DNSAddr = "127.0.0.1:0"
	}
	if o.Limits.DNSRate == 0 {
		o.Limits.DNSRate = -1
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
	pc, dnsLn, err := relayserver.ListenDNS(o.DNSAddr)
	if err != nil {
		ln.Close()
		store.Close()
		return nil, fmt.Errorf("local relay: %w", err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	r := &Relay{URL: "https://" + Zone, Addr: ln.Addr().String(), DNSAddr: pc.LocalAddr().String(),
		CA: ca, store: store, mailer: make(chan relayserver.Mailer, 1), done: make(chan struct{})}
	if o.Mailer != nil {
		r.mailer <- o.Mailer
	}
	srv, err := relayserver.New(ctx, relayserver.Config{
		Zone:             Zone,
		PublicIPs:        []net.IP{net.IPv4(127, 0, 0, 1)},
		TunnelAddr:       net.JoinHostPort(Zone, port),
		Store:            store,
		Mailer:           (*lateMailer)(r),
		Certificate:      func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return cert, nil },
		Limits:           o.Limits,
		KeepAlive:        o.KeepAlive,
		Now:              o.Now,
		OtherTunnelAddrs: o.OtherTunnels,
		ExpireEvery:      o.ExpireEvery,
	}, logger)
	if err != nil {
		ln.Close()
		pc.Close()
		dnsLn.Close()
		store.Close()
		return nil, err
	}
	// The relay outlives Start's ctx, which only bounds starting it:
	// Close stops it.
	runCtx, cancel := context.WithCancel(context.Background())
	r.Server, r.cancel = srv, cancel
	go func() {
		defer close(r.done)
		r.err = srv.Run(runCtx, relayserver.Listeners{TLS: ln, DNSPacket: pc, DNSStream: dnsLn})
	}()
	return r, nil
}

// Done is closed when the relay stops serving: on Close, or on its own
// when a listener fails (Err says why).
func (r *Relay) Done() <-chan struct{} { return r.done }

// Err is why the relay stopped on its own: nil while it serves, and nil
// after Close stopped a relay that was serving.
func (r *Relay) Err() error {
	select {
	case <-r.done:
		return r.err
	default:
		return nil
	}
}

// Close stops the relay and waits for it. It returns the error that
// stopped the relay before, if one did. Closing again returns the same.
func (r *Relay) Close() error {
	r.close1.Do(func() {
		r.cancel()
		r.Server.Close()
		<-r.done
		r.closeErr = errors.Join(r.err, r.store.Close())
	})
	return r.closeErr
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
	// leafLife is how long Issue's certificates last.
	leafLife time.Duration
}

// NewCA makes an authority valid for a day, kept in memory: a relay that
// lives as long as a test or a demo.
func NewCA() (*CA, error) {
	return newCA("mailnode local relay CA", 24*time.Hour, 24*time.Hour)
}

func newCA(name string, life, leafLife time.Duration) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(life),
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true, MaxPathLenZero: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("local relay CA: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &CA{Cert: cert, key: key, leafLife: leafLife}, nil
}

// The files of a CA kept in a directory (OpenCA).
const (
	CAFile    = "ca.pem" // the certificate, for nodes and agents to trust (0644)
	CAKeyFile = "ca.key" // its private key (0600)
)

const (
	keptCALife   = 10 * 365 * 24 * time.Hour
	keptLeafLife = 365 * 24 * time.Hour
)

// OpenCA loads the authority kept in dir, or makes one there (dir 0700,
// CAFile 0644, CAKeyFile 0600) and reports created. It is a development
// relay's CA: whoever uses the relay is told once to trust CAFile, so it
// lasts ten years and survives restarts; the relay's own certificate is
// issued anew at each start, for a year.
func OpenCA(dir string) (ca *CA, created bool, err error) {
	certFile, keyFile := filepath.Join(dir, CAFile), filepath.Join(dir, CAKeyFile)
	// A CA someone else planted (the directory made first in /tmp, or a
	// key file others can write) would be trusted by every node and
	// agent told to: refused.
	if _, err := privdir.Ensure(dir); err != nil {
		return nil, false, fmt.Errorf("relay CA: %w", err)
	}
	if err := privdir.CheckPublic(certFile); err != nil {
		return nil, false, fmt.Errorf("relay CA: %w", err)
	}
	if err := privdir.CheckFile(keyFile); err != nil {
		return nil, false, fmt.Errorf("relay CA: %w", err)
	}
	certPEM, err := os.ReadFile(certFile)
	if errors.Is(err, fs.ErrNotExist) {
		ca, err := createCA(dir)
		return ca, err == nil, err
	}
	if err != nil {
		return nil, false, fmt.Errorf("relay CA: %w", err)
	}
	keyPEM, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, false, fmt.Errorf("relay CA key: %w", err)
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, false, fmt.Errorf("relay CA in %s: %w", dir, err)
	}
	key, ok := pair.PrivateKey.(*ecdsa.PrivateKey)
	if !ok || !pair.Leaf.IsCA {
		return nil, false, fmt.Errorf("relay CA in %s: not a CA with an ECDSA key", dir)
	}
	if time.Now().After(pair.Leaf.NotAfter) {
		return nil, false, fmt.Errorf("relay CA in %s expired on %s: remove the directory to make a new one, and trust the new %s",
			dir, pair.Leaf.NotAfter.Format(time.DateOnly), CAFile)
	}
	return &CA{Cert: pair.Leaf, key: key, leafLife: keptLeafLife}, false, nil
}

func createCA(dir string) (*CA, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("relay CA: %w", err)
	}
	ca, err := newCA("mailnode development relay CA", keptCALife, keptLeafLife)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(ca.key)
	if err != nil {
		return nil, fmt.Errorf("relay CA: %w", err)
	}
	// The key first: a certificate without its key would be kept and
	// unusable, while a key without its certificate is replaced.
	if err := privdir.WriteFile(filepath.Join(dir, CAKeyFile), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		return nil, err
	}
	if err := privdir.WriteFile(filepath.Join(dir, CAFile), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.Cert.Raw}), 0o644); err != nil {
		return nil, err
	}
	return ca, nil
}

// CertPEM is the CA certificate in PEM, as in CAFile.
func (ca *CA) CertPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.Cert.Raw})
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n
}

// Issue makes a server certificate for names, lasting a day for NewCA's
// authority and a year for OpenCA's (never past the authority's end).
func (ca *CA) Issue(names ...string) (*tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	life := ca.leafLife
	if life == 0 {
		life = 24 * time.Hour
	}
	notAfter := now.Add(life)
	if notAfter.After(ca.Cert.NotAfter) {
		notAfter = ca.Cert.NotAfter
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: names[0]}, DNSNames: names,
		NotBefore: now.Add(-time.Hour), NotAfter: notAfter,
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
