package relayclient_test

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/miekg/dns"

	"mailnode/relay/acmetest"
	"mailnode/relay/relayclient"
)

// TestACMEThroughRelay: the node gets a certificate for its relay name
// from an ACME CA (Pebble, in-process) whose validation authority asks
// the relay's DNS for the DNS-01 challenge; an agent that trusts only
// that CA's roots reaches the node through the relay; the challenge is
// cleared afterwards; the certificate is renewed 30 days before expiry
// and is read back from disk after a restart without asking the CA.
func TestACMEThroughRelay(t *testing.T) {
	f := start(t)
	pebble := acmetest.Start(f.relay.DNSAddr, 0, nil)
	defer pebble.Close()

	certDir := filepath.Join(t.TempDir(), "acme")
	certs := &relayclient.ACME{DirectoryURL: pebble.DirectoryURL, Dir: certDir, HTTP: pebble.HTTP}
	ln := relayclient.NewListener()
	keysFile := filepath.Join(t.TempDir(), "relay-keys.json")
	c, statuses := f.run(t, ln, keysFile, certs)

	var hostname string
	for hostname == "" {
		select {
		case s := <-statuses:
			if s.CertErr != "" {
				t.Fatalf("certificate: %s", s.CertErr)
			}
			if s.State == "connected" {
				hostname = s.Hostname
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("tunnel not up; status %+v", c.Status())
		}
	}
	first := certs.Certificate()
	if first == nil {
		t.Fatal("tunnel up without the CA's certificate")
	}
	if _, err := first.Leaf.Verify(x509.VerifyOptions{DNSName: hostname, Roots: pebble.Roots, Intermediates: intermediates(t, first)}); err != nil {
		t.Fatalf("certificate does not verify for %s: %v", hostname, err)
	}

	// The node serves it on the tunnel; the agent trusts only the CA.
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello "+r.Host)
	}), TLSConfig: &tls.Config{GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return certs.Certificate(), nil }}}
	go hs.ServeTLS(ln.View(), "", "")
	defer hs.Close()
	agent := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: f.relay.Dial, TLSClientConfig: &tls.Config{RootCAs: pebble.Roots}}}
	resp, err := agent.Get("https://" + hostname + "/")
	if err != nil {
		t.Fatalf("agent through relay with the CA's roots: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "hello "+hostname {
		t.Fatalf("agent got %q", body)
	}

	// The challenge is gone from the zone once the order is done.
	m := new(dns.Msg)
	m.SetQuestion("_acme-challenge."+hostname+".", dns.TypeTXT)
	in, err := dns.Exchange(m, f.relay.DNSAddr)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Answer) != 0 {
		t.Fatalf("challenge still published: %v", in.Answer)
	}

	// Keys and certificate are private.
	for _, name := range []string{"account.key", "key.pem", "cert.pem"} {
		st, err := os.Stat(filepath.Join(certDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", name, st.Mode().Perm())
		}
	}

	keys, err := relayclient.LoadKeys(keysFile)
	if err != nil {
		t.Fatal(err)
	}
	api := &relayclient.API{BaseURL: f.relay.URL, Key: keys.Node, HTTP: f.relay.HTTPClient()}
	// 31 days before expiry nothing happens; 29 days before, a new one.
	for _, tc := range []struct {
		left  time.Duration
		renew bool
	}{{31 * 24 * time.Hour, false}, {29 * 24 * time.Hour, true}} {
		before := certs.Certificate()
		certs.Now = func() time.Time { return before.Leaf.NotAfter.Add(-tc.left) }
		if err := certs.Ensure(t.Context(), api, hostname); err != nil {
			t.Fatalf("Ensure with %v left: %v", tc.left, err)
		}
		after := certs.Certificate()
		if renewed := after.Leaf.SerialNumber.Cmp(before.Leaf.SerialNumber) != 0; renewed != tc.renew {
			t.Fatalf("with %v left: renewed = %v, want %v", tc.left, renewed, tc.renew)
		}
	}

	// A restarted node reads it back and asks no CA (this one has none).
	again := &relayclient.ACME{DirectoryURL: "https://127.0.0.1:1/unreachable", Dir: certDir}
	if err := again.Ensure(t.Context(), api, hostname); err != nil {
		t.Fatalf("restart: %v", err)
	}
	if !again.Certificate().Leaf.Equal(certs.Certificate().Leaf) {
		t.Fatal("restart read another certificate")
	}
	// A name it does not cover is not served from disk.
	if err := again.Ensure(t.Context(), api, "other."+hostname); err == nil {
		t.Fatal("certificate for another name from an unreachable CA")
	}
}

// TestACMEUnreachableCA: a CA that does not answer leaves the tunnel up
// with the status saying why there is no certificate.
func TestACMEUnreachableCA(t *testing.T) {
	f := start(t)
	certs := &relayclient.ACME{DirectoryURL: "https://127.0.0.1:1/dir", Dir: t.TempDir()}
	c, statuses := f.run(t, relayclient.NewListener(), filepath.Join(t.TempDir(), "relay-keys.json"), certs)
	for {
		select {
		case s := <-statuses:
			if s.State == "connected" {
				if s.CertErr == "" {
					t.Fatal("connected with no certificate and no CertErr")
				}
				return
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("tunnel not up; status %+v", c.Status())
		}
	}
}

func intermediates(t *testing.T, c *tls.Certificate) *x509.CertPool {
	t.Helper()
	pool := x509.NewCertPool()
	for _, der := range c.Certificate[1:] {
		ic, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		pool.AddCert(ic)
	}
	return pool
}
