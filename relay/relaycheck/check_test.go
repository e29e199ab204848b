package relaycheck_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/miekg/dns"

	"mailnode/relay/relaycheck"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// The deployment the tests check: relay.example.net, delegated by
// example.net's server ns1.example.net (192.0.2.53) to ns.relay.example.net
// at 203.0.113.7. Every one of those is a real server on loopback; the
// dialer takes the public addresses to them, as the Internet's routing
// would.
const (
	zone       = "relay.example.net"
	publicIP   = "203.0.113.7"
	parentNSIP = "192.0.2.53"
	smtpUser   = "relay"
	smtpPass   = "s3cret-submission-password"
)

// testCA issues the certificates of the relay, the submission server and
// the ACME server.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func newCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "relaycheck test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(365 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, key: key}
}

func (ca *testCA) issue(t *testing.T, validFor time.Duration, names ...string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: names[0]}, DNSNames: names,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(validFor),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// startRelay runs a relay (relayserver.Run with its SQLite store) on
// loopback serving cert, and returns its TLS and DNS addresses.
func startRelay(t *testing.T, cert tls.Certificate) (tlsAddr, dnsAddr string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	store, err := relaystore.OpenSQLite(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := relayserver.New(ctx, relayserver.Config{Zone: zone, PublicIPs: []net.IP{net.ParseIP(publicIP)}, Store: store,
		Certificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return &cert, nil }}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pc, dnsLn, err := relayserver.ListenDNS("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, relayserver.Listeners{TLS: ln, DNSPacket: pc, DNSStream: dnsLn}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("relay: %v", err)
		}
		srv.Close()
		store.Close()
	})
	return ln.Addr().String(), pc.LocalAddr().String()
}

// parentZone is example.net's authoritative server. It is also the
// recursive resolver the check starts from: it answers example.net's NS
// and its own address, which is all a resolver would be asked.
type parentZone struct {
	delegate bool   // refer relay.example.net to ns.relay.example.net
	glue     string // the glue address of ns.relay.example.net
}

func (p parentZone) ServeDNS(w dns.ResponseWriter, req *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(req)
	q := req.Question[0]
	name := strings.ToLower(q.Name)
	switch {
	case name == zone+"." || strings.HasSuffix(name, "."+zone+"."):
		if p.delegate {
			m.Ns = append(m.Ns, &dns.NS{Hdr: dns.RR_Header{Name: zone + ".", Rrtype: dns.TypeNS, Class: dns.ClassINET, Ttl: 3600}, Ns: "ns." + zone + "."})
			m.Extra = append(m.Extra, &dns.A{Hdr: dns.RR_Header{Name: "ns." + zone + ".", Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 3600}, A: net.ParseIP(p.glue)})
		} else {
			m.Authoritative = true
			m.SetRcode(req, dns.RcodeNameError)
		}
	case name == "example.net." && q.Qtype == dns.TypeNS:
		m.Authoritative = true
		m.Answer = append(m.Answer, &dns.NS{Hdr: dns.RR_Header{Name: name, Rrtype: dns.TypeNS, Class: dns.ClassINET, Ttl: 3600}, Ns: "ns1.example.net."})
	case name == "ns1.example.net." && q.Qtype == dns.TypeA:
		m.Authoritative = true
		m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 3600}, A: net.ParseIP(parentNSIP)})
	default:
		m.Authoritative = true // NODATA
	}
	w.WriteMsg(m)
}

func startParent(t *testing.T, p parentZone) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: p}
	done := make(chan struct{})
	go func() { defer close(done); srv.ActivateAndServe() }()
	t.Cleanup(func() { srv.Shutdown(); <-done })
	return pc.LocalAddr().String()
}

// submission is a go-smtp server with AUTH PLAIN, STARTTLS if it has a
// certificate. It refuses every mail: the check must send none.
type submission struct{ pass string }

func (s submission) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &submissionSession{pass: s.pass}, nil
}

type submissionSession struct{ pass string }

func (s *submissionSession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *submissionSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != smtpUser || pass != s.pass {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Authentication credentials invalid"}
		}
		return nil
	}), nil
}

var errNoMail = errors.New("the check must send no mail")

func (s *submissionSession) Mail(string, *smtp.MailOptions) error { return errNoMail }
func (s *submissionSession) Rcpt(string, *smtp.RcptOptions) error { return errNoMail }
func (s *submissionSession) Data(io.Reader) error                 { return errNoMail }
func (s *submissionSession) Reset()                               {}
func (s *submissionSession) Logout() error                        { return nil }

func startSubmission(t *testing.T, cert *tls.Certificate, pass string) string {
	t.Helper()
	srv := smtp.NewServer(submission{pass: pass})
	srv.Domain = "localhost"
	if cert != nil {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{*cert}}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close(); <-done })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return net.JoinHostPort("localhost", port)
}

func startACME(t *testing.T) *httptest.Server {
	t.Helper()
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/directory" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"newNonce":"https://ca.test/nonce","newAccount":"https://ca.test/account","newOrder":"https://ca.test/order"}`)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// routes dials public addresses where the servers behind them listen.
type routes map[string]string

func (r routes) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if to, ok := r[addr]; ok {
		addr = to
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// env is one deployment as the check sees it; each case changes one thing.
type env struct {
	certNames      []string
	certValidFor   time.Duration
	trustRelay     bool
	parent         parentZone
	smtpTLS        bool
	smtpPass       string // the server's; the check always logs in with smtpPass
	smtpDown       bool
	publicToParent bool // another server (the parent's) answers at the public address
	acmePath       string
	tlsDown        bool
	dnsDown        bool
}

func goodEnv() env {
	return env{
		certNames:    []string{zone, "*.agents." + zone},
		certValidFor: 90 * 24 * time.Hour,
		trustRelay:   true,
		parent:       parentZone{delegate: true, glue: publicIP},
		smtpTLS:      true,
		smtpPass:     smtpPass,
		acmePath:     "/directory",
	}
}

func (e env) run(t *testing.T) []relaycheck.Result {
	t.Helper()
	ca := newCA(t)
	tlsAddr, dnsAddr := startRelay(t, ca.issue(t, e.certValidFor, e.certNames...))
	parentAddr := startParent(t, e.parent)
	var smtpCert *tls.Certificate
	if e.smtpTLS {
		c := ca.issue(t, 90*24*time.Hour, "localhost")
		smtpCert = &c
	}
	smtpAddr := startSubmission(t, smtpCert, e.smtpPass)
	if e.smtpDown {
		_, port, _ := net.SplitHostPort(closedAddr(t))
		smtpAddr = net.JoinHostPort("localhost", port)
	}
	acme := startACME(t)

	roots := x509.NewCertPool()
	roots.AddCert(acme.Certificate())
	if e.trustRelay {
		roots.AddCert(ca.cert)
	}
	smtpRoots := x509.NewCertPool()
	smtpRoots.AddCert(ca.cert)
	public := dnsAddr
	if e.publicToParent {
		public = parentAddr
	}
	cfg := relaycheck.Config{
		Zone:          zone,
		PublicIPs:     []net.IP{net.ParseIP(publicIP)},
		Listen:        tlsAddr,
		DNSListen:     dnsAddr,
		SMTP:          &relaycheck.SMTP{Addr: smtpAddr, Security: "starttls", Username: smtpUser, Password: smtpPass, Roots: smtpRoots},
		ACMEDirectory: acme.URL + e.acmePath,
		Resolver:      parentAddr,
		Roots:         roots,
		Dialer:        routes{parentNSIP + ":53": parentAddr, publicIP + ":53": public},
		Timeout:       2 * time.Second,
	}
	if e.tlsDown {
		cfg.Listen = closedAddr(t)
	}
	if e.dnsDown {
		cfg.DNSListen = closedAddr(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return relaycheck.Run(ctx, cfg)
}

// TestRunAllPass: a deployment done right passes every check, and each
// check ran.
func TestRunAllPass(t *testing.T) {
	results := goodEnv().run(t)
	var names []string
	for _, r := range results {
		if !r.OK {
			t.Errorf("%s", r)
		}
		names = append(names, r.Name)
	}
	want := []string{"delegation", "public DNS", "relay DNS", "relay DNS", "TLS " + zone, "TLS *.agents." + zone, "agent API", "ACME directory", "SMTP"}
	if !slices.Equal(names, want) {
		t.Errorf("checks run = %q, want %q", names, want)
	}
	for _, r := range results {
		t.Log(r)
	}
	for _, words := range []string{"example.net's servers (1) delegate relay.example.net to ns.relay.example.net (203.0.113.7)",
		"STARTTLS, AUTH PLAIN as relay passed (no mail sent)", "(89 days)"} {
		if !slices.ContainsFunc(results, func(r relaycheck.Result) bool { return strings.Contains(r.Detail, words) }) {
			t.Errorf("no result says %q", words)
		}
	}
}

// TestRunFailures: each thing a deployer can get wrong fails its check,
// and only its check, in words that say what is wrong.
func TestRunFailures(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*env)
		fails  []string // the checks that fail, in order
		words  string   // in the first failure's detail
		hint   string   // in the first failure's hint
	}{
		{"wrong glue IP", func(e *env) { e.parent.glue = "198.51.100.9" }, []string{"delegation"},
			"the glue of ns.relay.example.net at ns1.example.net is 198.51.100.9, not --public-ip 203.0.113.7",
			"relay.example.net NS ns.relay.example.net, and the glue ns.relay.example.net A/AAAA 203.0.113.7"},
		{"not delegated", func(e *env) { e.parent.delegate = false }, []string{"delegation"},
			"ns1.example.net does not delegate relay.example.net (it answered NXDOMAIN", "at the registrar or DNS host of example.net"},
		{"another server at the public address", func(e *env) { e.publicToParent = true }, []string{"public DNS"},
			"203.0.113.7:53 answered over UDP, but not authoritatively", "port 53 of every --public-ip"},
		{"nothing listening on the TLS port", func(e *env) { e.tlsDown = true }, []string{"TLS " + zone},
			"nothing listens on 127.0.0.1:", "is mailnode-relay serve running with --listen"},
		{"nothing listening for DNS", func(e *env) { e.dnsDown = true }, []string{"relay DNS", "relay DNS"},
			"no answer over UDP", "--dns-listen"},
		{"certificate for another name", func(e *env) { e.certNames = []string{"other.example.org"} },
			[]string{"TLS " + zone, "TLS *.agents." + zone},
			"the certificate is for other.example.org, not relay.example.net", "--tls-cert must cover relay.example.net and *.agents.relay.example.net"},
		{"certificate without the agents' names", func(e *env) { e.certNames = []string{zone} }, []string{"TLS *.agents." + zone},
			"the certificate is for relay.example.net, not aaaaaaaaaaaaaaaa.agents.relay.example.net", "*.agents.relay.example.net"},
		{"certificate from an untrusted CA", func(e *env) { e.trustRelay = false }, []string{"TLS " + zone, "TLS *.agents." + zone},
			"not signed by a CA this machine trusts", "the whole chain"},
		{"certificate about to expire", func(e *env) { e.certValidFor = 3 * 24 * time.Hour }, []string{"TLS " + zone, "TLS *.agents." + zone},
			"expires in under 7 days", "restart the relay"},
		{"ACME directory 404", func(e *env) { e.acmePath = "/nope" }, []string{"ACME directory"},
			"answered 404 Not Found", "--acme-directory"},
		{"SMTP refusing AUTH", func(e *env) { e.smtpPass = "another password" }, []string{"SMTP"},
			"AUTH failed: the server refused the login of relay: 535 Authentication credentials invalid (connect, EHLO, STARTTLS passed)",
			"--smtp-password-file"},
		{"SMTP without STARTTLS", func(e *env) { e.smtpTLS = false }, []string{"SMTP"},
			"STARTTLS failed: the server does not offer it (connect, EHLO passed)", "--smtp-security tls"},
		{"SMTP not listening", func(e *env) { e.smtpDown = true }, []string{"SMTP"},
			"connect failed: connection refused", "--smtp-server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := goodEnv()
			tc.change(&e)
			results := e.run(t)
			var failed []relaycheck.Result
			var names []string
			for _, r := range results {
				if !r.OK {
					failed = append(failed, r)
					names = append(names, r.Name)
				}
			}
			if !slices.Equal(names, tc.fails) {
				for _, r := range results {
					t.Log(r)
				}
				t.Fatalf("failed checks = %q, want %q", names, tc.fails)
			}
			if !strings.Contains(failed[0].Detail, tc.words) || !strings.Contains(failed[0].Hint, tc.hint) {
				t.Errorf("%s\nwant detail with %q, hint with %q", failed[0], tc.words, tc.hint)
			}
			for _, r := range results {
				if strings.Contains(r.String(), smtpPass) || strings.Contains(r.String(), "another password") {
					t.Errorf("a result holds the SMTP password: %s", r)
				}
			}
		})
	}
}
