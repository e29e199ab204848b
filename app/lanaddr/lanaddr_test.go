package lanaddr

import (
	"net/netip"
	"testing"
)

func addrs(ss ...string) []netip.Addr {
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out
}

func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		name      string
		ifaces    []Interface
		defaultIf string
		want      string // "" for none
	}{
		{"private IPv4", []Interface{{"eth0", addrs("192.168.1.20", "fe80::1")}}, "eth0", "192.168.1.20"},
		{"the default route's interface first", []Interface{
			{"docker0", addrs("172.17.0.1")}, {"wlan0", addrs("10.0.0.7")}}, "wlan0", "10.0.0.7"},
		{"without a default route, the first that qualifies", []Interface{
			{"a", addrs("fe80::2")}, {"b", addrs("10.1.2.3")}}, "", "10.1.2.3"},
		{"without a default route, not a VPN or bridge", []Interface{
			{"tun0", addrs("10.8.0.6")}, {"docker0", addrs("172.17.0.1")}, {"wg0", addrs("10.2.0.2")}, {"enp3s0", addrs("192.168.0.4")}}, "", "192.168.0.4"},
		{"IPv4 private before IPv6 ULA", []Interface{{"eth0", addrs("fd00::2", "172.16.5.4")}}, "eth0", "172.16.5.4"},
		{"ULA before IPv6 global", []Interface{{"eth0", addrs("2001:db8::5", "fd12:3456::9")}}, "eth0", "fd12:3456::9"},
		// A global IPv6 address is reachable from the Internet unless a
		// firewall says otherwise: never, as a public IPv4 one.
		{"IPv6 global never", []Interface{{"eth0", addrs("2001:db8::5", "fe80::5")}}, "eth0", ""},
		{"public IPv4 and global IPv6", []Interface{{"eth0", addrs("198.51.100.7", "2001:67c:10ec:1::10")}}, "eth0", ""},
		{"carrier-grade NAT and global IPv6 (a hotspot)", []Interface{{"wlan0", addrs("100.64.3.2", "2a00:1450::5")}}, "wlan0", ""},
		// This container's case: a documentation-range IPv4 address
		// (not private) and a ULA.
		{"public IPv4 never", []Interface{{"eth0", addrs("192.0.2.2", "fd00::2")}}, "eth0", "fd00::2"},
		{"public IPv4 only", []Interface{{"eth0", addrs("203.0.113.9")}}, "eth0", ""},
		{"loopback and link-local only", []Interface{{"lo", addrs("127.0.0.1", "::1")}, {"eth0", addrs("169.254.3.4", "fe80::9")}}, "eth0", ""},
		{"a mapped IPv4 address is IPv4", []Interface{{"eth0", addrs("::ffff:192.168.0.9")}}, "eth0", "192.168.0.9"},
		// Another interface is another network (a VPN, a bridge): the
		// person meant the one the computer is on.
		{"the default interface has none: none", []Interface{{"eth0", addrs("203.0.113.9")}, {"tun0", addrs("10.8.0.6")}, {"eth1", addrs("10.9.9.9")}}, "eth0", ""},
		{"no interfaces", nil, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Choose(tc.ifaces, tc.defaultIf)
			if tc.want == "" {
				if ok {
					t.Errorf("Choose = %s, want none", got)
				}
				return
			}
			if !ok || got != netip.MustParseAddr(tc.want) {
				t.Errorf("Choose = %s, %v; want %s", got, ok, tc.want)
			}
		})
	}
}

// TestPick: on this machine, Pick returns an address that qualifies, or
// ErrNone; it never returns loopback or link-local.
func TestPick(t *testing.T) {
	a, err := Pick()
	if err != nil {
		if err != ErrNone {
			t.Fatal(err)
		}
		t.Logf("Pick: %v", err)
		return
	}
	if rank(a) < 0 {
		t.Errorf("Pick() = %s, an address that does not qualify", a)
	}
	t.Logf("Pick() = %s", a)
}
