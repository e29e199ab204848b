package relayacme_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/miekg/dns"

	"mailnode/relay/acmetest"
	"mailnode/relay/relayacme"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
	"mailnode/relay/relaystore/pgtest"
)

const zone = "relay.test"

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	os.Exit(code)
}

// stores are the stores the relay keeps its certificate in.
var stores = map[string]func(t *testing.T) relaystore.Store{
	"sqlite": func(t *testing.T) relaystore.Store {
		s, err := relaystore.OpenSQLite(t.Context(), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	},
	"postgres": func(t *testing.T) relaystore.Store {
		s, err := relaystore.OpenPostgres(t.Context(), pgtest.Need(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	},
}

// serveDNS runs a relay's DNS for zone on loopback over store, until the
// test ends, and returns its address.
func serveDNS(t *testing.T, store relaystore.Store) string {
	t.Helper()
	srv, err := relayserver.New(t.Context(), relayserver.Config{Zone: zone, Store: store}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pc, ln, err := relayserver.ListenDNS("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeDNS(ctx, pc, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeDNS: %v", err)
		}
		pc.Close()
		ln.Close()
		srv.Close()
	})
	return pc.LocalAddr().String()
}

// TestRelayCertificate: the relay obtains one certificate for its API
// name and *.agents.<zone> from an ACME CA (Pebble) that validates both
// by DNS-01 through the relay's own DNS; the challenges are gone
// afterwards; the certificate is renewed 30 days before expiry, not
// before; another instance on the same store serves the stored one
// without ordering; while one instance holds the lease, another does not
// order and goes on serving what it has. On SQLite and PostgreSQL.
func TestRelayCertificate(t *testing.T) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			dnsAddr := serveDNS(t, store)
			pebble := acmetest.Start(dnsAddr, 0, nil)
			defer pebble.Close()
			ctx := t.Context()

			a, err := relayacme.New(relayacme.Config{Zone: zone, DirectoryURL: pebble.DirectoryURL, HTTP: pebble.HTTP,
				Store: store, Holder: "a", Email: "hostmaster@example.org"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c, err := a.GetCertificate(&tls.ClientHelloInfo{ServerName: zone}); c != nil || !errors.Is(err, relayacme.ErrNoCertificate) {
				t.Fatalf("GetCertificate before the first = %v, %v; want ErrNoCertificate", c, err)
			}
			if err := a.Ensure(ctx); err != nil {
				t.Fatalf("Ensure: %v", err)
			}
			first := a.Certificate()
			for _, name := range []string{zone, "abcdefghijklmnop.agents." + zone} {
				if _, err := first.Leaf.Verify(x509.VerifyOptions{DNSName: name, Roots: pebble.Roots, Intermediates: intermediates(t, first)}); err != nil {
					t.Errorf("certificate does not verify for %s with the CA's roots: %v", name, err)
				}
			}
			if got, _ := a.GetCertificate(&tls.ClientHelloInfo{ServerName: zone}); got != first {
				t.Error("GetCertificate does not serve the certificate obtained")
			}
			for _, name := range relayacme.ChallengeDomains(zone, "") {
				m := new(dns.Msg)
				m.SetQuestion("_acme-challenge."+name+".", dns.TypeTXT)
				in, err := dns.Exchange(m, dnsAddr)
				if err != nil {
					t.Fatal(err)
				}
				if len(in.Answer) != 0 {
					t.Errorf("challenge for %s still published: %v", name, in.Answer)
				}
			}

			// 31 days before expiry nothing happens; 29 days before, a new one.
			for _, tc := range []struct {
				left  time.Duration
				renew bool
			}{{31 * 24 * time.Hour, false}, {29 * 24 * time.Hour, true}} {
				before := a.Certificate()
				a, err = relayacme.New(relayacme.Config{Zone: zone, DirectoryURL: pebble.DirectoryURL, HTTP: pebble.HTTP, Store: store,
					Holder: "a", Now: func() time.Time { return before.Leaf.NotAfter.Add(-tc.left) }}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := a.Ensure(ctx); err != nil {
					t.Fatalf("Ensure with %v left: %v", tc.left, err)
				}
				after := a.Certificate()
				if renewed := after.Leaf.SerialNumber.Cmp(before.Leaf.SerialNumber) != 0; renewed != tc.renew {
					t.Fatalf("with %v left: renewed = %v, want %v", tc.left, renewed, tc.renew)
				}
			}
			renewed := a.Certificate()

			// Another instance (or this one restarted) on the store: the
			// stored certificate, no order (its CA does not answer).
			b, err := relayacme.New(relayacme.Config{Zone: zone, DirectoryURL: "https://127.0.0.1:1/unreachable", Store: store, Holder: "b"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Ensure(ctx); err != nil {
				t.Fatalf("second instance: %v", err)
			}
			if !b.Certificate().Leaf.Equal(renewed.Leaf) {
				t.Fatal("second instance serves another certificate than the stored one")
			}

			// Renewal due while instance "c" holds the lease: b orders
			// nothing and serves the stored certificate meanwhile.
			due := renewed.Leaf.NotAfter.Add(-29 * 24 * time.Hour)
			if ok, err := store.TakeLease(ctx, "acme", "c", due, due.Add(10*time.Minute)); err != nil || !ok {
				t.Fatalf("TakeLease = %v, %v", ok, err)
			}
			b, _ = relayacme.New(relayacme.Config{Zone: zone, DirectoryURL: "https://127.0.0.1:1/unreachable", Store: store, Holder: "b",
				Now: func() time.Time { return due }}, nil)
			if err := b.Ensure(ctx); err == nil {
				t.Fatal("Ensure ordered while another instance holds the lease")
			}
			if c := b.Certificate(); c == nil || !c.Leaf.Equal(renewed.Leaf) {
				t.Fatal("the stored certificate, still valid, is not served while another instance renews")
			}
		})
	}
}

// TestNotInZone: an API name the relay's DNS does not answer cannot have
// its challenge answered: refused at once.
func TestNotInZone(t *testing.T) {
	for _, api := range []string{"relay.example.org", "notrelay.test"} {
		if _, err := relayacme.New(relayacme.Config{Zone: zone, APIName: api, Store: stores["sqlite"](t)}, nil); err == nil {
			t.Errorf("New with API name %s in zone %s: no error", api, zone)
		}
	}
	for _, api := range []string{"", zone, "api." + zone} {
		if _, err := relayacme.New(relayacme.Config{Zone: zone, APIName: api, Store: stores["sqlite"](t)}, nil); err != nil {
			t.Errorf("New with API name %q: %v", api, err)
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
