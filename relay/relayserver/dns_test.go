package relayserver_test

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"

	"mailnode/relay/connlimit/connlimittest"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// challengeName is a node's _acme-challenge name in dnsRelay's zone.
const challengeName = "_acme-challenge.abcdefghijklmnop.relay.test."

// TestDNSAnswerSizes: a node's four 255-byte challenge values, the most
// it may set, go over UDP only to a client whose EDNS0 size holds them;
// without EDNS0 the answer is at most 512 bytes, no larger than a
// truncated header and question, with TC set, so that the resolver asks
// over TCP, where it gets them all.
func TestDNSAnswerSizes(t *testing.T) {
	_, st, addr := serveDNS(t, relayserver.Limits{DNSRate: -1})
	vals := make([]string, 4)
	for i := range vals {
		vals[i] = strings.Repeat(string(rune('a'+i)), 255)
	}
	if err := st.SetChallenges(t.Context(), "abcdefghijklmnop", vals); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		net       string
		qtype     uint16
		edns      uint16 // 0: no OPT
		records   int    // in the answer section
		truncated bool
		maxSize   int
	}{
		{"udp without EDNS0", "udp", dns.TypeTXT, 0, 0, true, 512},
		{"udp EDNS0 512", "udp", dns.TypeTXT, 512, 0, true, 512},
		{"udp EDNS0 1232", "udp", dns.TypeTXT, 1232, 4, false, 1232},
		{"udp EDNS0 4096", "udp", dns.TypeTXT, 4096, 4, false, 1232},
		{"tcp without EDNS0", "tcp", dns.TypeTXT, 0, 4, false, 65535},
		{"udp A without EDNS0", "udp", dns.TypeA, 0, 1, false, 512},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := new(dns.Msg)
			name := challengeName
			if tc.qtype != dns.TypeTXT {
				name = "abcdefghijklmnop.relay.test."
			}
			m.SetQuestion(name, tc.qtype)
			if tc.edns != 0 {
				m.SetEdns0(tc.edns, false)
			}
			q, _ := m.Pack()
			resp, size := exchangeRaw(t, tc.net, addr, q)
			t.Logf("%s: query %d bytes, answer %d bytes, %d records, TC=%v", tc.name, len(q), size, len(resp.Answer), resp.Truncated)
			if len(resp.Answer) != tc.records || resp.Truncated != tc.truncated || size > tc.maxSize {
				t.Errorf("%s: answer of %d bytes, %d records, TC=%v; want at most %d bytes, %d records, TC=%v",
					tc.name, size, len(resp.Answer), resp.Truncated, tc.maxSize, tc.records, tc.truncated)
			}
			if tc.truncated && (size > len(q) || len(resp.Ns) != 0) {
				t.Errorf("%s: truncated answer of %d bytes with %d authority records to a query of %d; want the header and question alone",
					tc.name, size, len(resp.Ns), len(q))
			}
			if opt := resp.IsEdns0(); (opt != nil) != (tc.edns != 0) || opt != nil && opt.UDPSize() != 1232 {
				t.Errorf("%s: OPT in the answer = %v, want one offering 1232 exactly when the query had one", tc.name, opt)
			}
			for i, rr := range resp.Answer {
				if txt, ok := rr.(*dns.TXT); tc.qtype == dns.TypeTXT && (!ok || len(txt.Txt) != 1 || txt.Txt[0] != vals[i]) {
					t.Errorf("%s: record %d = %v, want the value %d set", tc.name, i, rr, i)
				}
			}
		})
	}

	// An EDNS version the relay does not know is BADVERS (RFC 6891
	// section 6.1.3).
	m := new(dns.Msg)
	m.SetQuestion(challengeName, dns.TypeTXT)
	m.SetEdns0(1232, false)
	m.IsEdns0().SetVersion(1)
	q, _ := m.Pack()
	if resp, _ := exchangeRaw(t, "udp", addr, q); resp.Rcode != dns.RcodeBadVers || len(resp.Answer) != 0 {
		t.Errorf("EDNS version 1: rcode %s, %d records; want BADVERS and none", dns.RcodeToString[resp.Rcode], len(resp.Answer))
	}
}

// exchangeRaw sends the query q over network to addr and returns the
// answer and its size on the wire.
func exchangeRaw(t *testing.T, network, addr string, q []byte) (*dns.Msg, int) {
	t.Helper()
	c, err := net.DialTimeout(network, addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	conn := &dns.Conn{Conn: c}
	if _, err := conn.Write(q); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 65535)
	var n int
	if network == "tcp" {
		var l [2]byte
		if _, err = io.ReadFull(c, l[:]); err == nil {
			n = int(l[0])<<8 | int(l[1])
			_, err = io.ReadFull(c, buf[:n])
		}
	} else {
		n, err = c.Read(buf)
	}
	if err != nil {
		t.Fatalf("%s answer: %v", network, err)
	}
	m := new(dns.Msg)
	if err := m.Unpack(buf[:n]); err != nil {
		t.Fatalf("%s answer of %d bytes: %v", network, n, err)
	}
	return m, n
}

// TestDNSTCPCapped: idle TCP connections to the DNS from one address are
// held up to the cap per address (default 16) and one past it is closed
// at once, while a resolver on another address is answered over TCP and
// UDP; a freed place is taken again; and with the cap on every address
// together full, other addresses are closed at once over TCP but still
// answered over UDP. An idle connection is closed after 5 s.
func TestDNSTCPCapped(t *testing.T) {
	for _, ip := range []string{"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"} {
		connlimittest.NeedAddr(t, ip)
	}
	t.Run("per address", func(t *testing.T) {
		_, _, addr := serveDNS(t, relayserver.Limits{DNSRate: -1})
		const perAddr = 16 // the default
		held := holdTCP(t, "127.0.0.2", addr, perAddr)
		if held == nil {
			t.Fatalf("%d connections from 127.0.0.2, the cap: one closed", perAddr)
		}
		start := time.Now()
		for i := range 24 {
			if !closedTCP(t, "127.0.0.2", addr) {
				t.Fatalf("connection %d from 127.0.0.2 past the cap of %d: held, want closed at once", perAddr+i+1, perAddr)
			}
		}
		t.Logf("24 connections past the cap closed in %v", time.Since(start))
		askBoth(t, addr, true)
		if !closedTCP(t, "127.0.0.2", addr) {
			t.Fatal("past the cap after the resolver's queries: held")
		}
		// Every place is still taken: none was closed behind the test's
		// back.
		stillHeld(t, held)

		held[0].Close()
		var again []net.Conn
		for deadline := time.Now().Add(3 * time.Second); again == nil && time.Now().Before(deadline); {
			again = holdTCP(t, "127.0.0.2", addr, 1)
		}
		if again == nil {
			t.Fatal("127.0.0.2 after one of its connections closed: closed, want a freed place")
		}

		// Idle connections are closed after the read timeout (5 s).
		idle := held[len(held)-1]
		idle.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := idle.Read(make([]byte, 1)); errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("an idle connection open after %v, want closed after 5 s", time.Since(start))
		}
	})
	t.Run("together", func(t *testing.T) {
		_, _, addr := serveDNS(t, relayserver.Limits{DNSRate: -1, DNSTCPPerAddress: 2, DNSTCPConns: 6})
		var held []net.Conn
		for _, ip := range []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"} {
			c := holdTCP(t, ip, addr, 2)
			if c == nil {
				t.Fatalf("2 connections from %s within the caps: one closed", ip)
			}
			held = append(held, c...)
		}
		if !closedTCP(t, "127.0.0.5", addr) {
			t.Fatal("127.0.0.5 with every place taken: held, want closed at once")
		}
		askBoth(t, addr, false)
		stillHeld(t, held)
		held[0].Close()
		var err error
		for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if err = askTCP(addr); err == nil {
				break
			}
		}
		if err != nil {
			t.Errorf("TCP query once a place was freed: %v", err)
		}
	})
}

// holdTCP opens n idle connections from the local address from to addr
// and returns them, or nil if the relay closed one at once (within
// 300 ms).
func holdTCP(t *testing.T, from, addr string, n int) []net.Conn {
	t.Helper()
	var conns []net.Conn
	for range n {
		c, err := connlimittest.Dialer(from).Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		conns = append(conns, c)
	}
	time.Sleep(300 * time.Millisecond)
	if !open(conns) {
		return nil
	}
	return conns
}

// closedTCP opens a connection from the local address from to addr and
// reports whether the relay closes it without a byte within 2 s (at
// once, but a loaded machine may take a while).
func closedTCP(t *testing.T, from, addr string) bool {
	t.Helper()
	c, err := connlimittest.Dialer(from).Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	n, err := c.Read(make([]byte, 1))
	return n == 0 && !errors.Is(err, os.ErrDeadlineExceeded)
}

// open reports whether every connection in conns is still open: the
// relay's close of one, if sent, has arrived by now. Each read has its
// own deadline, since a read past its deadline does not see an end
// that has arrived.
func open(conns []net.Conn) bool {
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(2 * time.Millisecond))
		_, err := c.Read(make([]byte, 1))
		c.SetReadDeadline(time.Time{})
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			return false
		}
	}
	return true
}

// stillHeld fails unless the relay still holds every connection in conns.
func stillHeld(t *testing.T, conns []net.Conn) {
	t.Helper()
	if !open(conns) {
		t.Fatal("a held connection was closed, want every one still open")
	}
}

// askBoth asks addr from 127.0.0.1 over UDP, which must be answered, and
// over TCP, which must be answered if tcp and closed otherwise.
func askBoth(t *testing.T, addr string, tcp bool) {
	t.Helper()
	m := new(dns.Msg)
	m.SetQuestion("abcdefghijklmnop.relay.test.", dns.TypeA)
	in, _, err := (&dns.Client{Net: "udp", Timeout: 5 * time.Second}).Exchange(m, addr)
	if err != nil || len(in.Answer) != 1 {
		t.Errorf("UDP query from 127.0.0.1 = %v, %v; want an answer", in, err)
	}
	if err := askTCP(addr); (err == nil) != tcp {
		t.Errorf("TCP query from 127.0.0.1: %v, want answered %v", err, tcp)
	}
}

// askTCP asks addr an A query over TCP from 127.0.0.1.
func askTCP(addr string) error {
	m := new(dns.Msg)
	m.SetQuestion("abcdefghijklmnop.relay.test.", dns.TypeA)
	in, _, err := (&dns.Client{Net: "tcp", Timeout: 2 * time.Second}).Exchange(m, addr)
	if err == nil && (in.Truncated || len(in.Answer) != 1) {
		err = errors.New("answer " + in.String())
	}
	return err
}

// failingListener fails its first accepts with EMFILE, a temporary
// error, until failUntil, and counts the calls.
type failingListener struct {
	net.Listener
	failUntil atomic.Int64 // Unix nanoseconds
	calls     atomic.Int64
}

func (l *failingListener) Accept() (net.Conn, error) {
	l.calls.Add(1)
	if time.Now().UnixNano() < l.failUntil.Load() {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept", syscall.EMFILE)}
	}
	return l.Listener.Accept()
}

// TestDNSAcceptErrorsWait: while accepting on the DNS's TCP port fails
// with a temporary error (out of descriptors) the relay waits between
// tries, 5 ms doubling to 1 s, instead of retrying at once (miekg/dns's
// own loop does, burning a core); once it passes, TCP is answered again.
func TestDNSAcceptErrorsWait(t *testing.T) {
	st, err := relaystore.OpenSQLite(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := relayserver.New(t.Context(), relayserver.Config{Zone: "relay.test", Store: st,
		PublicIPs: []net.IP{net.IPv4(192, 0, 2, 7)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	const failing = 2 * time.Second
	ln := &failingListener{Listener: inner}
	ln.failUntil.Store(time.Now().Add(failing).UnixNano())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeDNS(ctx, nil, ln) }()
	time.Sleep(failing)
	// 5, 10, 20 … 640 ms, then 1 s: ten tries in 2 s. Retried at once it
	// was millions.
	calls := ln.calls.Load()
	t.Logf("accept called %d times in %v of EMFILE", calls, failing)
	if calls > 20 {
		t.Errorf("accept called %d times in %v of EMFILE, want at most 20", calls, failing)
	}
	// The wait is at most 1 s; then the next accept takes the query.
	start := time.Now()
	err = askTCP(inner.Addr().String())
	t.Logf("TCP query once accept works again: answered in %v", time.Since(start))
	if err != nil {
		t.Errorf("TCP query once accept works again: %v", err)
	} else if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("TCP query once accept works again: answered after %v, want within the 1 s wait", d)
	}
	// Cancelling ends ServeDNS even in a wait.
	ln.failUntil.Store(time.Now().Add(time.Hour).UnixNano())
	askTCP(inner.Addr().String()) // accepted; the next accept fails
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeDNS after cancel = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeDNS did not return within 5 s of cancel, in an accept wait")
	}
}
