package app

import (
	"context"
	"testing"
	"time"

	"mailnode/relay/relayclient"
)

// TestGatewayState: the relay name is kept once known (a status without
// one changes nothing), a LAN listener is added only while the gateway
// that asked runs, and what a pairing offer is made of follows both.
func TestGatewayState(t *testing.T) {
	var g gatewayState
	h := &gatewayHandle{ctx: context.Background(), loopback: true}
	g.started("https://127.0.0.1:8443/phone/", h)
	for _, step := range []struct {
		set, want string
	}{{"", ""}, {"abc.relay.test", "abc.relay.test"}, {"", "abc.relay.test"}, {"def.relay.test", "def.relay.test"}} {
		g.setRelayName(step.set)
		if name, _ := g.relay(); name != step.want {
			t.Errorf("after setRelayName(%q): relay name %q, want %q", step.set, name, step.want)
		}
	}
	a := &relayclient.ACME{}
	g.setRelayCert(a)
	if _, cert := g.relay(); cert != a {
		t.Error("the relay name's certificate source is not the one set")
	}

	l := &lanListener{host: "192.0.2.7:8443"}
	served := 0
	if !g.addLAN(h, l, func() { served++ }) || served != 1 || g.lanNow() != l {
		t.Fatalf("addLAN on the running gateway: served %d, lan %v", served, g.lanNow())
	}
	base, relayName, loopback, lan := g.pairing()
	if base != "https://127.0.0.1:8443/phone/" || relayName != "def.relay.test" || !loopback || lan != l.origin() {
		t.Errorf("pairing = %q %q %v %q", base, relayName, loopback, lan)
	}
	g.removeLAN(&lanListener{})
	if g.lanNow() != l {
		t.Error("removing another listener removed the LAN listener")
	}
	g.removeLAN(l)
	if g.lanNow() != nil {
		t.Error("the LAN listener stays after removeLAN")
	}

	g.stopped()
	if g.addLAN(h, l, func() { served++ }) || served != 1 {
		t.Error("a LAN listener was served for a gateway that stopped")
	}
	if gh, cur := g.listening(); gh != nil || cur != nil || g.server() != nil {
		t.Error("a stopped gateway is still listed")
	}
	if name, _ := g.relay(); name != "def.relay.test" {
		t.Errorf("the relay name is forgotten with the gateway: %q", name)
	}
}

// TestGatewayStateApartFromNode: what every TLS handshake reads (the
// relay name and its certificate) does not wait for the node's mutex,
// which status updates, settings and services hold.
func TestGatewayStateApartFromNode(t *testing.T) {
	n, err := New(Config{DataDir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n.gws.setRelayName("abc.relay.test")
	n.mu.Lock()
	defer n.mu.Unlock()
	got := make(chan string, 1)
	go func() {
		name, _ := n.gws.relay()
		got <- name
	}()
	select {
	case name := <-got:
		if name != "abc.relay.test" {
			t.Errorf("relay name %q", name)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading the relay name waits for the node's mutex")
	}
}
