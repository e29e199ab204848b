// Package connlimit bounds what one client address may hold of a TLS
// port before its handshake completes. The relay's SNI port and the
// node's gateway both use it (docs/relay.md "The TLS port",
// docs/gateway.md "Connections"). Established connections are not
// counted: many nodes or agents share one address behind a NAT, and a
// node's tunnel is an established connection on the relay's port.
package connlimit

import (
	"net"
	"net/netip"
	"sync"
	"time"
)

const (
	// DefaultPerAddress is the default cap on connections one client
	// address holds before their handshake completes. A handshake takes
	// one or two round trips, so this is thousands a second from one
	// address. It is not lower because nodes behind one NAT come back
	// together after a relay restart, and those refused back off: 1,000
	// of them were all up in about 4 s at 256, 5-12 s at 64, 2-2.5 s
	// with no cap (loopback, docs/relay.md "The TLS port").
	DefaultPerAddress = 256
	// HandshakeTimeout is the time a client has from its connection's
	// accept to send its ClientHello and, where the server ends TLS
	// itself, to finish the handshake: one deadline, not one per read,
	// so a byte now and then does not extend it.
	HandshakeTimeout = 10 * time.Second
	// DefaultPerAddressName is the default cap on the connections one
	// client address holds to one node's name through the relay, spliced
	// to its tunnel (or forwarded to the instance holding it). The node
	// sees only the relay's streams, so it cannot count an agent's
	// connections by address: without this a stranger could keep
	// thousands of half-finished handshakes, or connections whose
	// answers it never reads, open at one node from one address. One
	// agent (or a whole NAT of them) needs a few connections per node,
	// not hundreds; agent platforms calling many nodes from one address
	// are not limited, as the count is per name.
	DefaultPerAddressName = 256
)

// PerAddress counts connections per client address, an IPv4 address or
// an IPv6 /64 (one host is usually given a whole /64), and refuses one
// past its cap. The zero value is not usable; use NewPerAddress.
type PerAddress struct {
	max int

	mu sync.Mutex // guards n
	n  map[key]int
}

// key is what PerAddress counts by: a client address and, for
// AcquireFor, a name.
type key struct {
	addr netip.Prefix
	name string
}

// NewPerAddress returns a counter allowing max connections per address;
// max <= 0 means DefaultPerAddress.
func NewPerAddress(max int) *PerAddress {
	if max <= 0 {
		max = DefaultPerAddress
	}
	return &PerAddress{max: max, n: map[key]int{}}
}

// Acquire counts a connection from addr. It reports false, counting
// nothing, if addr already holds the cap; otherwise release uncounts it
// (once, however often it is called).
func (p *PerAddress) Acquire(addr net.Addr) (release func(), ok bool) {
	return p.AcquireFor(addr, "")
}

// AcquireFor is Acquire counted per address and name together: addr may
// hold the cap for each name.
func (p *PerAddress) AcquireFor(addr net.Addr, name string) (release func(), ok bool) {
	k := key{Key(addr), name}
	p.mu.Lock()
	if p.n[k] >= p.max {
		p.mu.Unlock()
		return nil, false
	}
	p.n[k]++
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			if p.n[k]--; p.n[k] <= 0 {
				delete(p.n, k)
			}
			p.mu.Unlock()
		})
	}, true
}

// Key is addr's client address: its IPv4 address as a /32, or its IPv6
// /64. An address that is not IP (a pipe) is the zero prefix: all such
// are one client.
func Key(addr net.Addr) netip.Prefix {
	var ip netip.Addr
	switch a := addr.(type) {
	case *net.TCPAddr:
		ip, _ = netip.AddrFromSlice(a.IP)
	default:
		if addr != nil {
			if ap, err := netip.ParseAddrPort(addr.String()); err == nil {
				ip = ap.Addr()
			}
		}
	}
	ip = ip.Unmap()
	bits := 64
	switch {
	case !ip.IsValid():
		return netip.Prefix{}
	case ip.Is4():
		bits = 32
	}
	k, _ := ip.WithZone("").Prefix(bits)
	return k
}
