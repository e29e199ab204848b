package publicaddr_test

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"mailnode/internal/publicaddr"
)

func TestDialer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	errMine := errors.New("no public address for this test")
	d := &publicaddr.Dialer{Timeout: time.Second, NoPublic: errMine,
		Lookup: func(_ context.Context, host string) ([]netip.Addr, error) {
			switch host {
			case "private.example":
				return []netip.Addr{netip.MustParseAddr("10.0.0.7"), netip.MustParseAddr("::1")}, nil
			case "rebound.example":
				return []netip.Addr{netip.MustParseAddr("169.254.169.254")}, nil
			}
			return nil, errors.New("no such host")
		},
		DevAddrs: map[string]string{"dev.example": ln.Addr().String()},
		DevHost:  func(h string) bool { return h == "zone.test" },
		DevDial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, ln.Addr().String())
		},
	}
	for _, tt := range []struct {
		addr    string
		ok      bool
		wantErr error
	}{
		{"dev.example:443", true, nil},
		{"zone.test:443", true, nil},
		{"127.0.0.1:443", false, errMine},
		{"[::1]:443", false, errMine},
		{"private.example:443", false, errMine},
		{"rebound.example:443", false, errMine},
		{"private.example:8443", false, nil},
		{"unknown.example:443", false, nil},
	} {
		c, err := d.DialContext(context.Background(), "tcp", tt.addr)
		if c != nil {
			c.Close()
		}
		if (err == nil) != tt.ok || tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
			t.Errorf("DialContext(%s) = %v, want ok %v (%v)", tt.addr, err, tt.ok, tt.wantErr)
		}
	}
}
