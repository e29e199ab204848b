package relayserver_test

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"mailnode/relay/connlimit/connlimittest"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// TestSlowClients: 2,000 slow connections from one address are cut to
// the per-address cap at once and at the handshake deadline at last,
// while another client is served and 1,000 tunnels from one address come
// up (connlimittest.CheckRelay; 100 under the race detector). The same runs against the
// mailnode-relay binary in cmd/mailnode-relay.
func TestSlowClients(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 connections and 1,000 tunnels")
	}
	dir := t.TempDir()
	nodes := connlimittest.NewNodes(t, 1+connlimittest.Tunnels)
	st, err := relaystore.OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	connlimittest.Register(t, st, nodes)
	st.Close()
	r := startLocal(t, relaylocal.Options{DataDir: dir})
	connlimittest.CheckRelay(t, connlimittest.Relay{Addr: r.Addr, CA: r.CA, Nodes: nodes})
}

// TestStallsCappedPerAddress: connections stalled for a decoy's name and
// for an offline node's name count alike against their address's cap of
// pending connections (Limits.MaxPendingPerAddress); past it either is
// closed at once without a byte, while another address still stalls,
// and a freed slot stalls again.
func TestStallsCappedPerAddress(t *testing.T) {
	dir := t.TempDir()
	const limit = 16
	r := startLocal(t, relaylocal.Options{DataDir: dir, Limits: relayserver.Limits{MaxPendingPerAddress: limit}})
	k, _ := relayclient.NewKeys()
	offline := registered(t, dir, "off@example.com", k)
	decoy := resolveHost(t, r, "nobody@example.com")
	hellos := map[string][]byte{decoy: connlimittest.ClientHello(t, decoy), offline: connlimittest.ClientHello(t, offline)}

	// open sends host's ClientHello from the local address from and
	// reports whether the relay closed the connection within wait
	// (reading nothing), or still holds it.
	open := func(from, host string, wait time.Duration) (net.Conn, bool) {
		t.Helper()
		c, err := connlimittest.Dialer(from).Dial("tcp", r.Addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.Write(hellos[host]) // a closed connection may refuse it
		c.SetReadDeadline(time.Now().Add(wait))
		n, err := c.Read(make([]byte, 1))
		if n > 0 {
			t.Fatalf("%s from %s: the relay answered a stalled name", host, from)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			c.SetReadDeadline(time.Time{})
			return c, false
		}
		return c, true
	}
	var held []net.Conn
	for i := range limit {
		host := []string{decoy, offline}[i%2]
		c, closed := open("127.0.0.4", host, 50*time.Millisecond)
		if closed {
			t.Fatalf("stall %d (%s) from 127.0.0.4 closed, want held within the cap", i+1, host)
		}
		held = append(held, c)
	}
	for _, host := range []string{decoy, offline} {
		start := time.Now()
		if _, closed := open("127.0.0.4", host, 3*time.Second); !closed {
			t.Errorf("%s from 127.0.0.4 past the cap of %d: held, want closed at once", host, limit)
		} else if d := time.Since(start); d > time.Second {
			t.Errorf("%s from 127.0.0.4 past the cap: closed after %v, want at once", host, d)
		}
	}
	for _, host := range []string{decoy, offline} {
		if _, closed := open("127.0.0.1", host, 500*time.Millisecond); closed {
			t.Errorf("%s from 127.0.0.1 while 127.0.0.4 is at its cap: closed, want held", host)
		}
	}
	held[0].Close()
	for _, host := range []string{offline, decoy} {
		var closed bool
		for range 20 { // the relay notices the close on its next read
			if _, closed = open("127.0.0.4", host, 300*time.Millisecond); !closed {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if closed {
			t.Errorf("%s from 127.0.0.4 after one of its stalls ended: closed, want held", host)
		}
		held[1].Close()
		held = held[1:]
	}
}

// TestSplicedCappedPerAddressName: connections from one address to one
// online node's name, spliced to its tunnel, are bounded
// (Limits.MaxSplicedPerAddress): the node sees the agent only through
// the relay's streams and cannot count them by address, so without the
// cap one address could keep any number of half-finished handshakes, or
// of connections whose answers it never reads, open at a node. Past the
// cap a connection is closed at once; another address is still served;
// a freed slot is spliced again.
func TestSplicedCappedPerAddressName(t *testing.T) {
	dir := t.TempDir()
	const limit = 8
	r := startLocal(t, relaylocal.Options{DataDir: dir, Limits: relayserver.Limits{MaxSplicedPerAddress: limit}})
	k, _ := relayclient.NewKeys()
	host := registered(t, dir, "on@example.com", k)
	ca, err := relaylocal.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	runNode(t, r, k, ca, "hello").up(t)
	hello := connlimittest.ClientHello(t, host)

	// open sends host's ClientHello from the local address from and
	// reports whether the node's first flight came back within wait
	// (spliced), the connection being left open.
	open := func(from string, wait time.Duration) (net.Conn, bool) {
		t.Helper()
		c, err := connlimittest.Dialer(from).Dial("tcp", r.Addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.Write(hello)
		c.SetReadDeadline(time.Now().Add(wait))
		n, _ := c.Read(make([]byte, 1))
		c.SetReadDeadline(time.Time{})
		return c, n > 0
	}
	var held []net.Conn
	for i := range limit {
		c, spliced := open("127.0.0.5", 3*time.Second)
		if !spliced {
			t.Fatalf("connection %d from 127.0.0.5 within the cap of %d: not spliced", i+1, limit)
		}
		held = append(held, c)
	}
	start := time.Now()
	if _, spliced := open("127.0.0.5", 3*time.Second); spliced {
		t.Errorf("connection from 127.0.0.5 past the cap of %d to one node: spliced, want closed at once", limit)
	} else if d := time.Since(start); d > time.Second {
		t.Errorf("connection past the cap: closed after %v, want at once", d)
	}
	if got, err := get(r, ca, host, 5*time.Second); err != nil || got != "hello" {
		t.Errorf("another address while 127.0.0.5 is at its cap: %q, %v", got, err)
	}
	held[0].Close()
	var spliced bool
	for range 20 { // the relay notices the close when the node's side ends
		if _, spliced = open("127.0.0.5", 500*time.Millisecond); spliced {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !spliced {
		t.Error("127.0.0.5 after one of its connections closed: not spliced, want a freed slot")
	}
}
