package app

import (
	"sync"

	"mailnode/gateway"
	"mailnode/relay/relayclient"
)

// gatewayState is what the running gateway serves besides its configured
// name: the server and its listeners' handle, the LAN listener, the
// relay name and its certificate, and the phone app's URL. It has a
// mutex of its own, apart from the node's: every TLS handshake reads the
// relay name and certificate, and must not wait behind the status
// updates, settings and services that the node's mutex guards; and
// whatever changes the names the gateway answers for (the relay name
// once known, the LAN listener on and off) changes them here, in one
// place.
type gatewayState struct {
	mu sync.Mutex // guards the fields below; never held with n.mu
	// phoneBase is the phone app's URL once the gateway listens.
	phoneBase string
	// srv is the running gateway, h its listeners' handle for SetLAN;
	// both nil while it does not run.
	srv *gateway.Server
	h   *gatewayHandle
	// lan is the listener on the local network while the person has it
	// on (lan.go).
	lan *lanListener
	// relayName is the node's name at its relay once known; relayCert
	// its certificate from an ACME CA, once the relay service has made
	// one (nil: the local CA's).
	relayName string
	relayCert *relayclient.ACME
}

// started records the gateway that now serves at phoneBase.
func (g *gatewayState) started(phoneBase string, h *gatewayHandle) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.phoneBase, g.srv, g.h = phoneBase, h.srv, h
	g.setNamesLocked()
}

// stopped forgets the gateway and its LAN listener. Once it returns no
// listener is added to h's wait group (addLAN checks h under g.mu), so
// the gateway may wait for them.
func (g *gatewayState) stopped() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.srv, g.h, g.lan = nil, nil, nil
}

// server is the running gateway, or nil.
func (g *gatewayState) server() *gateway.Server {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.srv
}

// relay is the relay name and its ACME certificate source, as known.
func (g *gatewayState) relay() (name string, cert *relayclient.ACME) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.relayName, g.relayCert
}

// setRelayName makes name the relay name the gateway answers for; ""
// keeps the one known.
func (g *gatewayState) setRelayName(name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if name != "" && name != g.relayName {
		g.relayName = name
		g.setNamesLocked()
	}
}

// setRelayCert is where the relay name's certificate comes from.
func (g *gatewayState) setRelayCert(a *relayclient.ACME) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.relayCert = a
}

// listening is the gateway's handle and the LAN listener, as now.
func (g *gatewayState) listening() (*gatewayHandle, *lanListener) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.h, g.lan
}

// addLAN makes l the LAN listener if the gateway of h still runs,
// calling serve first under the lock (so that what serve adds to h's
// wait group comes before stopped); false if it stopped meanwhile.
func (g *gatewayState) addLAN(h *gatewayHandle, l *lanListener, serve func()) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.h != h {
		return false
	}
	serve()
	g.lan = l
	g.setNamesLocked()
	return true
}

// removeLAN forgets l if it is still the LAN listener.
func (g *gatewayState) removeLAN(l *lanListener) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lan == l {
		g.lan = nil
		g.setNamesLocked()
	}
}

// lanNow is the LAN listener, or nil.
func (g *gatewayState) lanNow() *lanListener {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.lan
}

// pairing is what a pairing offer is made from: the phone app's URL
// ("" before the gateway listens), the relay name, whether the gateway
// listens on loopback only, and the LAN origin ("" when off).
func (g *gatewayState) pairing() (phoneBase, relayName string, loopback bool, lan string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lan != nil {
		lan = g.lan.origin()
	}
	return g.phoneBase, g.relayName, g.h != nil && g.h.loopback, lan
}

// setNamesLocked tells the running gateway every name it answers for
// besides its configured one: the relay name and the LAN address.
func (g *gatewayState) setNamesLocked() {
	if g.srv == nil {
		return
	}
	var names []string
	if g.relayName != "" {
		names = append(names, g.relayName)
	}
	if g.lan != nil {
		names = append(names, g.lan.host)
	}
	g.srv.SetNames(names...)
}
