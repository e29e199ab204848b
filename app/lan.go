package app

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"mailnode/app/lanaddr"
	"mailnode/app/localapi"
	"mailnode/gateway"
)

// Pairing a phone over this computer's local network (docs/phone.md,
// "Pairing over this network"). The desktop node listens on loopback; a
// phone beside it reaches it only when the person chooses so: the node
// then listens on its LAN address too, on the gateway's port, with the
// same gateway (the phones' API and the agents' signed MCP endpoint
// alike), until the person turns it off or the gateway stops. A restart
// listens on loopback only again: the node never starts listening on a
// network by itself.

// LANStatus is where the node listens on the local network.
type LANStatus = localapi.LANStatus

// ReachLAN is PairOffer.Reach for a code over the local network.
const ReachLAN = localapi.ReachLAN

// ErrNoLAN: this computer has no address a phone on its network reaches.
var ErrNoLAN = localapi.ErrNoLAN

// gatewayHandle is what SetLAN needs of the running gateway to serve one
// more listener.
type gatewayHandle struct {
	ctx      context.Context // the gateway's; ends when it stops
	srv      *gateway.Server
	tls      *tls.Config
	port     int
	wildcard bool            // the gateway already listens on every address
	loopback bool            // the gateway listens on loopback only
	wg       *sync.WaitGroup // the extra listeners' Serve calls, waited for by serveGateway
}

// lanListener is the node's listener on its local network address.
type lanListener struct {
	ip     netip.Addr
	host   string // host:port, as the gateway's names hold it
	cancel context.CancelFunc
}

// origin is the node's URL origin on the LAN.
func (l *lanListener) origin() string { return "https://" + l.host }

// lanNote is what listening on the LAN means, for the person.
func lanNote(origin string) string {
	return "The node now listens on " + origin + " on this computer's local network, for phones on the same " +
		"network, and, as on every address it serves, for agents' signed requests too. It stops when you turn it " +
		"off or the node stops."
}

// SetLAN turns listening on this computer's local network address on or
// off. On, it picks the address (GatewayConfig.LANAddr) and listens there
// on the gateway's port; the gateway's certificate for a connection to
// that address names the address.
func (n *Node) SetLAN(ctx context.Context, on bool) (LANStatus, error) {
	n.lanMu.Lock()
	defer n.lanMu.Unlock()
	gh, cur := n.gws.listening()
	if !on {
		if cur != nil {
			n.stopLAN(cur)
			n.log.Info("Stopped listening on the local network", "addr", cur.host)
		}
		return LANStatus{}, nil
	}
	if cur != nil {
		return LANStatus{URL: cur.origin(), Note: lanNote(cur.origin())}, nil
	}
	if gh == nil {
		return LANStatus{}, ErrNoPhoneListener
	}
	pick := n.cfg.Gateway.LANAddr
	if pick == nil {
		pick = lanaddr.Pick
	}
	ip, err := pick()
	if errors.Is(err, lanaddr.ErrNone) {
		return LANStatus{}, ErrNoLAN
	}
	if err != nil {
		return LANStatus{}, fmt.Errorf("local network address: %w", err)
	}
	l := &lanListener{ip: ip, host: net.JoinHostPort(ip.String(), strconv.Itoa(gh.port))}
	var ln net.Listener
	if !gh.wildcard {
		if ln, err = net.Listen("tcp", l.host); err != nil {
			return LANStatus{}, fmt.Errorf("listen on the local network: %w", err)
		}
	}
	added := n.gws.addLAN(gh, l, func() {
		var sctx context.Context
		sctx, l.cancel = context.WithCancel(gh.ctx)
		if ln == nil {
			return
		}
		// Added under the gateway state's mutex while the gateway
		// runs: serveGateway forgets it (gatewayState.stopped) before
		// it waits, so no Add comes after its Wait.
		gh.wg.Add(1)
		go func() {
			defer gh.wg.Done()
			defer ln.Close()
			if err := gh.srv.Serve(sctx, ln, gh.tls); err != nil {
				n.log.Warn("Stopped serving on the local network", "addr", l.host, "err", err)
			}
		}()
	})
	if !added { // the gateway stopped meanwhile
		if ln != nil {
			ln.Close()
		}
		return LANStatus{}, ErrNoPhoneListener
	}
	n.update(func(s *Status) { s.Gateway.LANURL = l.origin() + "/mcp" })
	n.log.Warn("Listening on the local network for phones; agents' signed requests are served there too", "addr", l.host)
	return LANStatus{URL: l.origin(), Note: lanNote(l.origin())}, nil
}

// stopLAN ends the LAN listener l (the gateway's own listener, when it
// listens on every address, stays).
func (n *Node) stopLAN(l *lanListener) {
	l.cancel()
	n.gws.removeLAN(l)
	n.update(func(s *Status) { s.Gateway.LANURL = "" })
}

// lanCertHost is the address to name in the certificate for a connection
// that asked for no name (a client dialing an IP address sends no SNI)
// and arrived at the LAN address: "" for any other.
func (n *Node) lanCertHost(hello *tls.ClientHelloInfo) string {
	if hello.ServerName != "" || hello.Conn == nil {
		return ""
	}
	ap, err := netip.ParseAddrPort(hello.Conn.LocalAddr().String())
	if err != nil {
		return ""
	}
	if l := n.gws.lanNow(); l != nil && ap.Addr().Unmap().WithZone("") == l.ip.WithZone("") {
		return l.ip.String()
	}
	return ""
}

// reachIn is what pairReach decides from.
type reachIn struct {
	lan       string // the LAN origin when listening there, else ""
	relayName string // the node's name at its relay, once registered
	// relayDev: the relay is a development one (on loopback, or reached
	// through development flags), whose names resolve only through its
	// own DNS, at devDNS and port devPort when known.
	relayDev bool
	devDNS   string
	devPort  int
	local    string // the gateway's own origin
	loopback bool   // the gateway listens on loopback only
	caFile   string // the node's CA file
}

// pairElsewhere is how the person pairs a phone when the code's address
// is not one a phone can open.
const pairElsewhere = "pair over this network (mailnode pair --lan, or Pair over this network in the window)"

// pairReach decides where a pairing code sends the phone and says so:
// over the LAN when the person chose it for this code or has it on, else
// the relay name when the node has one, else the gateway's own name.
func pairReach(in reachIn) (origin, reach, note string) {
	switch {
	case in.lan != "":
		return in.lan, localapi.ReachLAN, "Pair over this network: the phone must be on the same network as this computer. " +
			"Its browser will not know the node's certificate, which this node's own CA signed (" + in.caFile + "). " +
			lanNote(in.lan)
	case in.relayName != "" && in.relayDev:
		dns, port := in.devDNS, "RELAY-PORT"
		if dns == "" {
			dns = "RELAY-DNS"
		}
		if in.devPort != 0 {
			port = strconv.Itoa(in.devPort)
		}
		return "https://" + in.relayName, localapi.ReachRelay, in.relayName + " is this node's name at a development relay: " +
			"it resolves only through that relay's own DNS, so a phone cannot open it. The reference phone can: " +
			"mailnode-phone pair URL --ca " + in.caFile + " --dev-dns " + dns + " --dev-port " + port + ". " +
			"To pair a phone, " + pairElsewhere + "."
	case in.relayName != "":
		return "https://" + in.relayName, localapi.ReachRelay, "The phone reaches this node as " + in.relayName +
			" through its relay, from any network."
	case in.loopback:
		return in.local, localapi.ReachLocal, "The node listens on this computer only (" + in.local + "): " +
			"only a phone client on this computer reaches it (mailnode-phone, for testing). " +
			"To pair a phone, " + pairElsewhere + ", or have agents served through a relay."
	case loopbackOrigin(in.local):
		// Listening on every address, but named localhost: on a phone
		// that name is the phone itself.
		return in.local, localapi.ReachLocal, "The pairing link names " + in.local + ", which on a phone is the phone itself: " +
			"only a phone client on this computer reaches it (mailnode-phone, for testing). " +
			"To pair a phone, " + pairElsewhere + ", or give the node a name phones can resolve (--hostname)."
	}
	return in.local, localapi.ReachDirect, "The phone reaches this node at " + in.local +
		", the name agents use, wherever that name reaches it."
}

// loopbackOrigin reports whether origin's host is localhost or a
// loopback address.
func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}
