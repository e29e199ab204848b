package relayserver

import (
	"net"
	"testing"
	"time"
)

// BenchmarkDNSLimiter is the limiter's cost on each UDP query: a lookup
// of the client network's bucket among 10,000 networks.
func BenchmarkDNSLimiter(b *testing.B) {
	l := newDNSLimiter(1e9, time.Now)
	addrs := make([]*net.UDPAddr, 10_000)
	for i := range addrs {
		addrs[i] = &net.UDPAddr{IP: net.IPv4(10, byte(i>>8), byte(i), 1), Port: 53000}
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if l.check(addrs[i%len(addrs)]) != dnsAnswer {
				b.Fatal("limited")
			}
			i++
		}
	})
}

// TestDNSNetworks: the network a UDP source counts in.
func TestDNSNetworks(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"192.0.2.1", "192.0.2.254"},
		{"::ffff:192.0.2.1", "192.0.2.9"},
		{"2001:db8:0:ff00::1", "2001:db8:0:ffff::2"},
		{"2002:c000:221:1::1", "192.0.2.9"},                    // 6to4
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45"}, // Teredo
		{"2001:0:aaaa:bbbb:8000:63bf:3fff:fdd2", "192.0.2.45"}, // another server
	} {
		if x, y := udpNetwork(&net.UDPAddr{IP: net.ParseIP(tc.a)}), udpNetwork(&net.UDPAddr{IP: net.ParseIP(tc.b)}); x != y {
			t.Errorf("%s in %v, %s in %v: want one network", tc.a, x, tc.b, y)
		}
	}
	for _, tc := range []struct{ a, b string }{
		{"192.0.2.1", "192.0.3.1"},
		{"2001:db8:0:ff00::1", "2001:db8:0:100::1"},
	} {
		if x, y := udpNetwork(&net.UDPAddr{IP: net.ParseIP(tc.a)}), udpNetwork(&net.UDPAddr{IP: net.ParseIP(tc.b)}); x == y {
			t.Errorf("%s and %s both in %v: want two networks", tc.a, tc.b, x)
		}
	}
}
