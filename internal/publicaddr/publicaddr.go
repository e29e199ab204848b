// Package publicaddr says whether an IP address is a public unicast one:
// the only kind the node connects to when someone else names the host
// (an agent's key document, an OAuth client's document, a phone's push
// endpoint). Names are resolved by the caller and every address checked
// here before it is dialed, at dial time, so that a name that resolved to a
// public address when it was registered and to a private one later (DNS
// rebinding) is still refused.
package publicaddr

import "net/netip"

// forbiddenPrefixes are the ranges of the IANA IPv4 and IPv6
// Special-Purpose Address Registries (RFC 6890 and its updates) and of
// multicast, which the node never connects to on anyone's word: nothing
// an agent or a push service legitimately serves from lives there, and
// several reach the node's own network or the cloud's metadata service.
var forbiddenPrefixes = []netip.Prefix{
	// IPv4
	netip.MustParsePrefix("0.0.0.0/8"),          // "this network"
	netip.MustParsePrefix("10.0.0.0/8"),         // private
	netip.MustParsePrefix("100.64.0.0/10"),      // CGNAT shared space (RFC 6598)
	netip.MustParsePrefix("127.0.0.0/8"),        // loopback
	netip.MustParsePrefix("169.254.0.0/16"),     // link-local, cloud metadata
	netip.MustParsePrefix("172.16.0.0/12"),      // private
	netip.MustParsePrefix("192.0.0.0/24"),       // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),       // documentation (TEST-NET-1)
	netip.MustParsePrefix("192.31.196.0/24"),    // AS112-v4
	netip.MustParsePrefix("192.52.193.0/24"),    // AMT
	netip.MustParsePrefix("192.88.99.0/24"),     // 6to4 relay anycast (deprecated)
	netip.MustParsePrefix("192.168.0.0/16"),     // private
	netip.MustParsePrefix("192.175.48.0/24"),    // direct delegation AS112
	netip.MustParsePrefix("198.18.0.0/15"),      // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"),    // documentation (TEST-NET-2)
	netip.MustParsePrefix("203.0.113.0/24"),     // documentation (TEST-NET-3)
	netip.MustParsePrefix("224.0.0.0/4"),        // multicast
	netip.MustParsePrefix("240.0.0.0/4"),        // reserved, and broadcast
	netip.MustParsePrefix("255.255.255.255/32"), // limited broadcast
	// IPv6
	netip.MustParsePrefix("::/96"),             // unspecified, loopback, IPv4-compatible (deprecated)
	netip.MustParsePrefix("64:ff9b::/96"),      // NAT64: can reach any IPv4 address
	netip.MustParsePrefix("64:ff9b:1::/48"),    // local-use NAT64
	netip.MustParsePrefix("100::/64"),          // discard-only
	netip.MustParsePrefix("100:0:0:1::/64"),    // dummy IPv6 prefix (RFC 9780)
	netip.MustParsePrefix("2001::/23"),         // IETF protocol assignments: Teredo, benchmarking, ORCHID
	netip.MustParsePrefix("2001:db8::/32"),     // documentation
	netip.MustParsePrefix("2620:4f:8000::/48"), // AS112-v6
	netip.MustParsePrefix("3fff::/20"),         // documentation (RFC 9637)
	netip.MustParsePrefix("5f00::/16"),         // SRv6 SIDs (RFC 9602)
	netip.MustParsePrefix("fc00::/7"),          // unique local
	netip.MustParsePrefix("fe80::/10"),         // link-local
	netip.MustParsePrefix("fec0::/10"),         // site-local (deprecated)
	netip.MustParsePrefix("ff00::/8"),          // multicast
}

// sixToFour is 6to4 (RFC 3056), whose addresses carry an IPv4 address in
// bits 16 to 47 and reach it through a relay: allowed only when that IPv4
// address is.
var sixToFour = netip.MustParsePrefix("2002::/16")

// Is reports whether a is a public unicast address.
func Is(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsMulticast() || a.IsUnspecified() || a.IsInterfaceLocalMulticast() || !a.IsGlobalUnicast() {
		return false
	}
	for _, p := range forbiddenPrefixes {
		if p.Contains(a) {
			return false
		}
	}
	if sixToFour.Contains(a) {
		b := a.As16()
		return Is(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
	}
	return true
}
