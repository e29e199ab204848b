package connlimit_test

import (
	"net"
	"net/netip"
	"testing"

	"mailnode/relay/connlimit"
)

func TestKey(t *testing.T) {
	tests := []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 443}, "192.0.2.7/32"},
		{&net.TCPAddr{IP: net.ParseIP("::ffff:192.0.2.7"), Port: 443}, "192.0.2.7/32"},
		{&net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:3:4:5:6"), Port: 443}, "2001:db8:1:2::/64"},
		{&net.TCPAddr{IP: net.ParseIP("fe80::1"), Port: 443, Zone: "eth0"}, "fe80::/64"},
		{&net.UDPAddr{IP: net.ParseIP("192.0.2.8"), Port: 53}, "192.0.2.8/32"},
		{pipeAddr{}, "invalid Prefix"},
		{nil, "invalid Prefix"},
	}
	for _, tt := range tests {
		if got := connlimit.Key(tt.addr).String(); got != tt.want {
			t.Errorf("Key(%v) = %s, want %s", tt.addr, got, tt.want)
		}
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

func TestPerAddress(t *testing.T) {
	p := connlimit.NewPerAddress(3)
	a := &net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 1}
	sameNet := &net.TCPAddr{IP: net.ParseIP("2001:db8::ffff"), Port: 2}
	other := &net.TCPAddr{IP: net.ParseIP("2001:db8:0:1::1"), Port: 1}
	var releases []func()
	for i := range 3 {
		addr := []net.Addr{a, sameNet, a}[i]
		r, ok := p.Acquire(addr)
		if !ok {
			t.Fatalf("Acquire #%d = refused, want counted", i+1)
		}
		releases = append(releases, r)
	}
	if _, ok := p.Acquire(sameNet); ok {
		t.Fatal("Acquire past the cap of the /64 = counted, want refused")
	}
	if r, ok := p.Acquire(other); !ok {
		t.Fatal("Acquire from another /64 = refused, want counted")
	} else {
		r()
	}
	releases[0]()
	releases[0]() // a second release uncounts nothing more
	if _, ok := p.Acquire(a); !ok {
		t.Fatal("Acquire after a release = refused, want counted")
	}
	if _, ok := p.Acquire(a); ok {
		t.Fatal("Acquire after a release used twice = counted, want refused")
	}
	if got := connlimit.Key(a); got != netip.MustParsePrefix("2001:db8::/64") {
		t.Fatalf("Key(%v) = %v", a, got)
	}
}

func TestDefault(t *testing.T) {
	p := connlimit.NewPerAddress(0)
	a := &net.TCPAddr{IP: net.ParseIP("198.51.100.1")}
	for i := range connlimit.DefaultPerAddress {
		if _, ok := p.Acquire(a); !ok {
			t.Fatalf("Acquire #%d = refused under the default cap %d", i+1, connlimit.DefaultPerAddress)
		}
	}
	if _, ok := p.Acquire(a); ok {
		t.Fatalf("Acquire #%d = counted, want refused", connlimit.DefaultPerAddress+1)
	}
}
