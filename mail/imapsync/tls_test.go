package imapsync_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"mailnode/mail/credential"
	"mailnode/mail/imapsync"
)

// testCert makes a CA-signed certificate for 127.0.0.1 and returns it with
// a pool holding its CA.
func testCert(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "imap.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

// startTLSServer runs imapmemserver with implicit TLS or with STARTTLS
// (and no plain login allowed before it).
func startTLSServer(t *testing.T, cert tls.Certificate, implicit bool) string {
	t.Helper()
	mem := imapmemserver.New()
	u := imapmemserver.NewUser("demo", "demo-password")
	u.Create("INBOX", nil)
	mem.AddUser(u)
	tc := &tls.Config{Certificates: []tls.Certificate{cert}}
	opts := &imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:   imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		Logger: printfLogger(t.Logf),
	}
	var ln net.Listener
	var err error
	if implicit {
		ln, err = tls.Listen("tcp", "127.0.0.1:0", tc)
	} else {
		opts.TLSConfig = tc // STARTTLS; InsecureAuth stays false
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		t.Fatal(err)
	}
	srv := imapserver.New(opts)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

type printfLogger func(string, ...any)

func (l printfLogger) Printf(f string, a ...any) { l(f, a...) }

func TestTLSAndStartTLS(t *testing.T) {
	cert, pool := testCert(t)
	_, otherPool := testCert(t)
	for _, tt := range []struct {
		name     string
		security imapsync.Security
		implicit bool
	}{
		{"implicit TLS", imapsync.TLS, true},
		{"STARTTLS", imapsync.StartTLS, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr := startTLSServer(t, cert, tt.implicit)
			cfg := imapsync.Config{Account: "a", Address: addr, Security: tt.security,
				Username: "demo", Password: credential.Secret("demo-password"), TLSConfig: &tls.Config{RootCAs: pool}}
			if _, err := newSyncer(t, cfg, newStore(t)).Sync(context.Background()); err != nil {
				t.Fatalf("Sync over %s = %v, want success", tt.name, err)
			}
			cfg.TLSConfig = &tls.Config{RootCAs: otherPool}
			_, err := newSyncer(t, cfg, newStore(t)).Sync(context.Background())
			if err == nil || !strings.Contains(err.Error(), "certificate") {
				t.Errorf("Sync with an untrusted certificate = %v, want a certificate error", err)
			}
		})
	}
	// Plain LOGIN against a server that wants STARTTLS first is refused by
	// the server, so the password never crosses in clear.
	addr := startTLSServer(t, cert, false)
	cfg := imapsync.Config{Account: "a", Address: addr, Security: imapsync.Plain,
		Username: "demo", Password: credential.Secret("demo-password")}
	if _, err := newSyncer(t, cfg, newStore(t)).Sync(context.Background()); err == nil {
		t.Errorf("plain login to a STARTTLS-only server succeeded")
	}
}
