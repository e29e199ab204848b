package publicaddr_test

import (
	"net/netip"
	"testing"

	"mailnode/internal/publicaddr"
)

func TestIs(t *testing.T) {
	for _, tt := range []struct {
		addr string
		want bool
	}{
		{"93.184.216.34", true},
		{"2606:2800:220:1:248:1893:25c8:1946", true},
		{"127.0.0.1", false},
		{"10.1.2.3", false},
		{"172.16.0.1", false},
		{"192.168.1.1", false},
		{"169.254.169.254", false}, // cloud metadata
		{"100.64.0.1", false},      // carrier-grade NAT
		{"0.0.0.0", false},
		{"255.255.255.255", false},
		{"224.0.0.1", false},
		{"::1", false},
		{"fe80::1", false},
		{"fc00::1", false},
		{"::ffff:127.0.0.1", false}, // IPv4-mapped loopback
		{"::ffff:10.0.0.1", false},
		{"64:ff9b::7f00:1", false}, // NAT64 of loopback
		{"2001:db8::1", false},     // documentation
	} {
		if got := publicaddr.Is(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("Is(%s) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}
