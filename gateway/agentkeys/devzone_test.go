package agentkeys

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"mailnode/gateway/localca"
)

// TestDevZones: a node pointed at a development relay fetches the key
// documents of the agents that relay hosts (names under its agents zone)
// through the relay's development dialer, not public DNS; every other
// name still goes through the address checks.
func TestDevZones(t *testing.T) {
	const zone = "agents.relay.test"
	ca, err := localca.Open(t.TempDir(), slog.New(slog.DiscardHandler), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	// The relay: one TLS listener that serves every hosted agent's document.
	relay := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"domain":%q,"keys":[{"kid":"k1","kty":"OKP","crv":"Ed25519","x":%q}]}`,
			r.Host, base64.RawURLEncoding.EncodeToString(pub))
	}))
	relay.TLS = &tls.Config{GetCertificate: func(h *tls.ClientHelloInfo) (*tls.Certificate, error) { return ca.Leaf(h.ServerName) }}
	relay.StartTLS()
	defer relay.Close()

	for _, tc := range []struct {
		domain    string
		viaRelay  bool
		wantError error
	}{
		{"k1.agents.relay.test", true, nil},
		{"K2.Agents.Relay.Test", true, nil},
		{"agent.example.com", false, ErrForbidden},
		{"k1.evilagents.relay.test", false, ErrForbidden}, // not below the zone, only alike
		{"relay.test", false, ErrForbidden},
	} {
		t.Run(tc.domain, func(t *testing.T) {
			dialed := 0
			f := New(Config{
				DevZones:   []string{zone},
				DevRootCAs: []*x509.Certificate{ca.Cert()},
				DevDial: func(ctx context.Context, network, addr string) (net.Conn, error) {
					dialed++
					if _, port, _ := net.SplitHostPort(addr); port != "443" {
						t.Errorf("DevDial(%q): want the protocol's port 443, which the dialer maps", addr)
					}
					var d net.Dialer
					return d.DialContext(ctx, network, relay.Listener.Addr().String())
				},
				// Public DNS, as far as the test goes: the relay's name
				// resolves to loopback, which the checks refuse.
				LookupAddrs: func(context.Context, string) ([]netip.Addr, error) {
					return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
				},
			}, nil)
			got, err := f.PublicKey(context.Background(), tc.domain, "k1")
			if !errors.Is(err, tc.wantError) || tc.wantError == nil && !got.Equal(pub) {
				t.Fatalf("PublicKey(%q) = %x, %v; want %v", tc.domain, got, err, tc.wantError)
			}
			if want := map[bool]int{true: 1, false: 0}[tc.viaRelay]; dialed != want {
				t.Errorf("DevDial called %d times, want %d", dialed, want)
			}
		})
	}
}
