package app_test

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/app/lanaddr"
	"mailnode/app/localapi"
	"mailnode/gateway/phone/phoneclient"
)

// TestPairOverLAN: "pair over this network" listens on the LAN address on
// the gateway's port; the pairing URL holds that address; a phone that
// trusts the node's CA pairs there (the certificate names the address)
// and makes signed requests; the agents' endpoint answers there too, as
// the same signed gateway; the status says where the node is reached;
// turning it off stops the listener and the next code is loopback again.
//
// The LAN address is 127.0.0.22, given by GatewayConfig.LANAddr, not the
// machine's own: tests send traffic to loopback addresses only, on any
// machine they run on; each LAN test has an address of its own, none that
// a flood test dials from (127.0.0.2-4), whose thousands of outgoing ports
// could hold the node's port there. lanaddr's tests cover which address a real
// machine's interfaces give.
func TestPairOverLAN(t *testing.T) {
	ctx := t.Context()
	lanIP := netip.MustParseAddr("127.0.0.22")
	n, err := app.New(apptest.Demo(t, app.Config{DataDir: t.TempDir(),
		Gateway:  app.GatewayConfig{Listen: "127.0.0.1:0", LANAddr: func() (netip.Addr, error) { return lanIP, nil }},
		Services: app.Services{Gateway: true}}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	for deadline := time.Now().Add(10 * time.Second); n.GatewayURL() == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the gateway did not listen")
		}
	}
	_, port, _ := net.SplitHostPort(n.Status().Gateway.Listen)
	lanOrigin := "https://127.0.0.22:" + port

	local, err := n.Pair(ctx, app.PairOptions{})
	if err != nil || local.Reach != localapi.ReachLocal || !strings.HasPrefix(local.URL, "https://localhost:"+port+"/phone/#pair=") {
		t.Fatalf("Pair() before the LAN = %+v, %v; want reach local at localhost", local, err)
	}

	offer, err := n.Pair(ctx, app.PairOptions{LAN: true})
	if err != nil {
		t.Fatal(err)
	}
	if offer.Reach != localapi.ReachLAN || !strings.HasPrefix(offer.URL, lanOrigin+"/phone/#pair=") || !strings.Contains(offer.Note, "same network") {
		t.Fatalf("Pair(LAN) = %+v; want reach lan at %s", offer, lanOrigin)
	}
	if st := n.Status().Gateway; st.LANURL != lanOrigin+"/mcp" || st.URL == "" {
		t.Errorf("status while on the LAN: %+v, want LANURL %s/mcp beside URL", st, lanOrigin)
	}

	pem, err := os.ReadFile(n.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13}}}
	d, sas, err := phoneclient.Pair(ctx, hc, offer.URL, "LAN phone")
	if err != nil {
		t.Fatalf("pair over the LAN address: %v", err)
	}
	st, err := n.PairStatus(ctx, offer.ID)
	if err != nil || st.SAS != sas {
		t.Fatalf("PairStatus = %+v, %v; phone shows %s", st, err, sas)
	}
	if _, err := n.ConfirmPhone(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if state, err := d.State(ctx); err != nil || state.Device != d.ID {
		t.Fatalf("signed state request over the LAN = %+v, %v", state, err)
	}
	// The agents' endpoint is the same signed gateway there: an unsigned
	// call is refused for its missing signature, not for the address.
	resp, err := hc.Post(lanOrigin+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unsigned POST %s/mcp = %d, want 401", lanOrigin, resp.StatusCode)
	}

	if _, err := n.SetLAN(ctx, false); err != nil {
		t.Fatal(err)
	}
	if st := n.Status().Gateway; st.LANURL != "" {
		t.Errorf("status after turning the LAN off: LANURL %q", st.LANURL)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", "127.0.0.22:"+port, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("still listening on the LAN address after SetLAN(false)")
		}
	}
	if again, err := n.Pair(ctx, app.PairOptions{}); err != nil || again.Reach != localapi.ReachLocal {
		t.Errorf("Pair() after the LAN = %+v, %v; want reach local", again, err)
	}
}

// TestSetLANErrors: no address on a local network is said as such, and
// a node that serves no agents has no listener to add one to.
func TestSetLANErrors(t *testing.T) {
	ctx := t.Context()
	n, err := app.New(apptest.Demo(t, app.Config{DataDir: t.TempDir(),
		Gateway: app.GatewayConfig{Listen: "127.0.0.1:0", LANAddr: func() (netip.Addr, error) {
			return netip.Addr{}, lanaddr.ErrNone
		}},
		Services: app.Services{Gateway: true}}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	for deadline := time.Now().Add(10 * time.Second); n.GatewayURL() == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the gateway did not listen")
		}
	}
	if _, err := n.Pair(ctx, app.PairOptions{LAN: true}); !errors.Is(err, app.ErrNoLAN) {
		t.Errorf("Pair(LAN) without a LAN address = %v, want ErrNoLAN", err)
	}

	quiet, err := app.New(apptest.Demo(t, app.Config{DataDir: t.TempDir()}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := quiet.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer quiet.Stop()
	if _, err := quiet.SetLAN(ctx, true); !errors.Is(err, app.ErrNoPhoneListener) {
		t.Errorf("SetLAN on a node without a gateway = %v, want ErrNoPhoneListener", err)
	}
}
