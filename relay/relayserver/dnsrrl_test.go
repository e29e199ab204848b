package relayserver_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/miekg/dns"

	"mailnode/relay"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// dnsRelay serves a relay's zone with limits lim on loopback, UDP and
// TCP, until the test ends.
func dnsRelay(t *testing.T, lim relayserver.Limits) (srv *relayserver.Server, addr string) {
	t.Helper()
	srv, _, addr = serveDNS(t, lim)
	return srv, addr
}

// serveDNS is dnsRelay, with the relay's store.
func serveDNS(t *testing.T, lim relayserver.Limits) (srv *relayserver.Server, store relaystore.Store, addr string) {
	t.Helper()
	store, err := relaystore.OpenSQLite(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	srv, err = relayserver.New(t.Context(), relayserver.Config{Zone: "relay.test", Store: store, Limits: lim,
		PublicIPs: []net.IP{net.IPv4(192, 0, 2, 7)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pc, ln, err := relayserver.ListenDNS("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeDNS(ctx, pc, ln) }()
	t.Cleanup(func() {
		cancel()
		<-done
		pc.Close()
		ln.Close()
		srv.Close()
	})
	return srv, store, pc.LocalAddr().String()
}

// flood sends n A queries from local (a UDP address to bind) to addr as
// fast as it can, and counts the answers that come back within a second:
// full ones and truncated ones (which must carry no records and be no
// larger than the query).
func flood(t *testing.T, local, addr string, n int) (answered, truncated int) {
	t.Helper()
	la, err := net.ResolveUDPAddr("udp", local)
	if err != nil {
		t.Fatal(err)
	}
	ra, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.DialUDP("udp", la, ra)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var size int
	for i := range n {
		m := new(dns.Msg)
		m.SetQuestion("abcdefghijklmnop.relay.test.", dns.TypeA)
		m.Id = uint16(i + 1)
		b, _ := m.Pack()
		size = len(b)
		if _, err := c.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	c.SetReadDeadline(time.Now().Add(time.Second))
	buf := make([]byte, 4096)
	for {
		k, err := c.Read(buf)
		if err != nil {
			return answered, truncated
		}
		in := new(dns.Msg)
		if err := in.Unpack(buf[:k]); err != nil {
			t.Fatalf("bad answer: %v", err)
		}
		switch {
		case in.Truncated:
			truncated++
			if len(in.Answer)+len(in.Ns)+len(in.Extra) != 0 || k > size {
				t.Errorf("truncated answer of %d bytes with %d records, to a query of %d bytes", k, len(in.Answer)+len(in.Ns)+len(in.Extra), size)
			}
		case len(in.Answer) == 1:
			answered++
		default:
			t.Errorf("answer neither full nor truncated: %v", in)
		}
	}
}

// TestDNSRateLimit: a flood of UDP queries from one network is answered
// up to its burst and rate; past that about one in two is truncated and
// the rest dropped, so the flood is not reflected; another network is
// still answered in full, and the flooding network is answered over TCP.
func TestDNSRateLimit(t *testing.T) {
	const rate, n = 10, 200
	srv, addr := dnsRelay(t, relayserver.Limits{DNSRate: rate})
	start := time.Now()
	answered, truncated := flood(t, "127.0.0.1:0", addr, n)
	t.Logf("flood of %d from one network: %d answered, %d truncated, %d dropped", n, answered, truncated, n-answered-truncated)
	// The burst is twice the rate; the flood and the second of reading
	// may earn a few seconds' worth more.
	if most := 2*rate + int(time.Since(start).Seconds()+1)*rate; answered < 2*rate || answered > most {
		t.Errorf("flood of %d: %d answered, want between %d and %d", n, answered, 2*rate, most)
	}
	if over := n - answered; truncated < over/2-rate || truncated > over/2+1 {
		t.Errorf("flood of %d: %d answered, %d truncated; want about half of the %d over the limit truncated", n, answered, truncated, over)
	}
	if got := mustMetrics(t, srv).DNSRateLimited; got != uint64(n-answered) {
		t.Errorf("Metrics(ctx).DNSRateLimited = %d, want %d", got, n-answered)
	}

	// 127.0.1.0/24 is another network: it has its own burst.
	if a, tc := flood(t, "127.0.1.1:0", addr, rate); a != rate || tc != 0 {
		t.Errorf("another network: %d answered, %d truncated, want %d and 0", a, tc, rate)
	}
	// TCP proves its source: not limited.
	c := &dns.Client{Net: "tcp", Timeout: 5 * time.Second}
	for i := range 3 * rate {
		m := new(dns.Msg)
		m.SetQuestion("abcdefghijklmnop.relay.test.", dns.TypeA)
		in, _, err := c.Exchange(m, addr)
		if err != nil || in.Truncated || len(in.Answer) != 1 {
			t.Fatalf("TCP query %d from the flooding network = %v, %v", i, in, err)
		}
	}
}

// TestDNSRateUnlimited: a negative rate limits nothing.
func TestDNSRateUnlimited(t *testing.T) {
	_, addr := dnsRelay(t, relayserver.Limits{DNSRate: -1})
	if a, tc := flood(t, "127.0.0.1:0", addr, 100); a != 100 || tc != 0 {
		t.Errorf("no limit: %d answered, %d truncated, want 100 and 0", a, tc)
	}
}

func mustMetrics(t *testing.T, srv *relayserver.Server) relay.Metrics {
	t.Helper()
	m, err := srv.Metrics(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return m
}
