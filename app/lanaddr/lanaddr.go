// Package lanaddr picks the address by which a phone on the same local
// network reaches this computer, for pairing a phone without a relay
// (docs/phone.md, "Pairing over this network").
//
// The address is one of the interface that carries the default route: the
// network the computer's traffic leaves by is the one a phone beside it
// is most likely on. Only addresses that stay on a local network qualify:
// an IPv4 private address (RFC 1918), an IPv6 unique local address
// (RFC 4193), or an IPv6 global unicast address (a home network's IPv6
// addresses are global, and the node's certificate, not the address,
// keeps others out). A public IPv4 address is never chosen: a node listening
// there would listen on the Internet. Loopback and link-local addresses
// are skipped: a phone cannot use the first, and the second needs a zone a
// URL cannot carry to a phone.
package lanaddr

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
)

// ErrNone: no interface has an address a phone on the local network
// could reach.
var ErrNone = errors.New("this computer has no address on a local network (no private IPv4, IPv6 unique local or global address)")

// Interface is a network interface and its addresses, as Choose reads it.
type Interface struct {
	Name  string
	Addrs []netip.Addr
}

// rank orders the kinds of address: lower is better; -1 never.
func rank(a netip.Addr) int {
	a = a.Unmap()
	switch {
	case !a.IsValid(), a.IsLoopback(), a.IsLinkLocalUnicast(), a.IsMulticast(), a.IsUnspecified():
		return -1
	case a.Is4() && a.IsPrivate():
		return 0
	case a.Is6() && a.IsPrivate(): // fc00::/7, unique local
		return 1
	case a.Is6() && a.IsGlobalUnicast():
		return 2
	}
	return -1 // a public IPv4 address, or anything else
}

// Choose picks the best address of the interface named defaultIf, else of
// the others in their order: a private IPv4 address before an IPv6 unique
// local one before an IPv6 global one. ok is false when none qualifies.
func Choose(ifaces []Interface, defaultIf string) (netip.Addr, bool) {
	order := slices.Clone(ifaces)
	slices.SortStableFunc(order, func(a, b Interface) int {
		switch {
		case a.Name == defaultIf && b.Name != defaultIf:
			return -1
		case b.Name == defaultIf && a.Name != defaultIf:
			return 1
		}
		return 0
	})
	for _, ifc := range order {
		best, bestRank := netip.Addr{}, -1
		for _, a := range ifc.Addrs {
			if r := rank(a); r >= 0 && (bestRank < 0 || r < bestRank) {
				best, bestRank = a.Unmap(), r
			}
		}
		if bestRank >= 0 {
			return best, true
		}
	}
	return netip.Addr{}, false
}

// Pick returns this computer's address on its local network: Choose over
// the interfaces that are up, the default route's first.
func Pick() (netip.Addr, error) {
	nifs, err := net.Interfaces()
	if err != nil {
		return netip.Addr{}, fmt.Errorf("network interfaces: %w", err)
	}
	var ifaces []Interface
	for _, nif := range nifs {
		if nif.Flags&net.FlagUp == 0 || nif.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := nif.Addrs()
		if err != nil {
			continue
		}
		ifc := Interface{Name: nif.Name}
		for _, a := range addrs {
			if p, ok := a.(*net.IPNet); ok {
				if ip, ok := netip.AddrFromSlice(p.IP); ok {
					ifc.Addrs = append(ifc.Addrs, ip.Unmap())
				}
			}
		}
		ifaces = append(ifaces, ifc)
	}
	a, ok := Choose(ifaces, defaultRouteInterface())
	if !ok {
		return netip.Addr{}, ErrNone
	}
	return a, nil
}
