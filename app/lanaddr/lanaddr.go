// Package lanaddr picks the address by which a phone on the same local
// network reaches this computer, for pairing a phone without a relay
// (docs/phone.md, "Pairing over this network").
//
// The address is one of the interface that carries the default route: the
// network the computer's traffic leaves by is the one a phone beside it
// is most likely on. Only that interface counts when there is a default
// route: another one (a VPN's tun0, a container bridge) is not the network
// the person means. Only addresses that cannot be reached from the
// Internet qualify: an IPv4 private address (RFC 1918) or an IPv6 unique
// local address (RFC 4193). A public IPv4 address and an IPv6 global one
// are never chosen, as a node listening there would listen on the
// Internet whenever no firewall stands in front (many campus, hosting and
// IPv6-only networks). Loopback and link-local addresses are skipped: a
// phone cannot use the first, and the second needs a zone a URL cannot
// carry to a phone.
package lanaddr

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// ErrNone: no interface has an address a phone on the local network
// could reach.
var ErrNone = errors.New("this computer has no private address on its local network (an IPv4 address in 10/8, 172.16/12 or 192.168/16, or an IPv6 unique local address) on the interface of its default route; pair through a relay instead")

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
	}
	return -1 // a public IPv4 or global IPv6 address, or anything else
}

// Choose picks the best address of the interface named defaultIf: a
// private IPv4 address before an IPv6 unique local one. Without a default
// route (defaultIf empty) it takes the first interface with one, passing
// over virtual ones (VPNs, container bridges). ok is false when none
// qualifies.
func Choose(ifaces []Interface, defaultIf string) (netip.Addr, bool) {
	for _, ifc := range ifaces {
		if defaultIf != "" && ifc.Name != defaultIf || defaultIf == "" && virtual(ifc.Name) {
			continue
		}
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

// virtual reports interface names of VPNs, tunnels and container or VM
// bridges on Linux: not the network a phone is on.
func virtual(name string) bool {
	for _, p := range []string{"tun", "tap", "wg", "tailscale", "zt", "docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "lxc", "cni", "flannel", "utun", "ppp"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
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
