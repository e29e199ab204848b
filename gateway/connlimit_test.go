package gateway_test

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/gateway"
	"mailnode/relay/connlimit"
	"mailnode/relay/connlimit/connlimittest"
)

// TestSlowClients: 2,000 slow connections from 127.0.0.2 (half silent,
// half dripping a ClientHello a byte a second, each opened again a
// second after the node closes it) are held no more than the cap per
// address, none past the handshake deadline, and an agent on 127.0.0.1
// still gets its signed /mcp calls answered promptly on new connections.
func TestSlowClients(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 connections")
	}
	const slow = 2000
	connlimittest.RaiseFileLimit(t, 2*slow+500)
	a := newAgentKey("agent.example.com")
	n := startNode(t, t.TempDir(), "", newKeyDocs(t, a))
	n.grant(a, "bills_due", approvals.StructuredRead)
	s := session{t, n, a}
	id := 0
	answered := func(what string) {
		t.Helper()
		n.client.CloseIdleConnections() // a new connection, a new handshake
		id++
		start := time.Now()
		out := s.call(rpc(id, "tools/list", nil))
		var lr struct{ Tools []json.RawMessage }
		if json.Unmarshal(out.Result, &lr); out.Error != nil || len(lr.Tools) == 0 {
			t.Errorf("%s: tools/list = %+v", what, out)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: the signed call took %v, want under 2 s", what, d)
		}
	}
	answered("before the flood")

	flood := connlimittest.StartFlood(t, connlimittest.FloodOptions{Addr: n.addr, From: "127.0.0.2", Conns: slow,
		Drip: connlimittest.ClientHello(t, nodeName), DripEvery: time.Second, Pause: time.Second, MaxDials: 100})
	start := time.Now()
	for !flood.Started() {
		if time.Since(start) > 30*time.Second {
			t.Fatalf("the flood's %d connections not opened in 30 s: %+v", slow, flood.Stats())
		}
		time.Sleep(50 * time.Millisecond)
	}
	var mostHeld atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			// As in connlimittest.CheckRelay: a connection held is held
			// 10 s; one refused may first wait in the listen backlog.
			if h := int64(flood.HeldSettled(5*time.Second, 300*time.Millisecond)); h > mostHeld.Load() {
				mostHeld.Store(h)
			}
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	for time.Since(start) < connlimit.HandshakeTimeout+3*time.Second {
		answered("during the flood")
		time.Sleep(time.Second)
	}
	close(stop)
	<-sampled
	st := flood.Stats()
	t.Logf("flood: %+v; at most %d held 5 s or more", st, mostHeld.Load())
	if m := mostHeld.Load(); m > connlimit.DefaultPerAddress {
		t.Errorf("the node held %d connections from 127.0.0.2 open before their handshake, want at most %d", m, connlimit.DefaultPerAddress)
	}
	if st.LongestDrip > connlimit.HandshakeTimeout+1500*time.Millisecond {
		t.Errorf("a ClientHello dripping a byte a second was held %v, want cut at %v", st.LongestDrip, connlimit.HandshakeTimeout)
	}
	if st.LongestDrip < connlimit.HandshakeTimeout-time.Second {
		t.Errorf("no dripping connection was held until the deadline (longest %v): the test proves nothing", st.LongestDrip)
	}
}

// TestProtocols: the node completes TLS itself before its HTTP server
// sees a connection (so that the handshake is bounded where it starts);
// ALPN still chooses HTTP/2 or HTTP/1.1.
func TestProtocols(t *testing.T) {
	n := startNode(t, t.TempDir(), "", newKeyDocs(t))
	for _, tt := range []struct {
		h2   bool
		want int
	}{{true, 2}, {false, 1}} {
		tr := n.client.Transport.(*http.Transport).Clone()
		tr.ForceAttemptHTTP2 = tt.h2
		c := &http.Client{Transport: tr, Timeout: 10 * time.Second}
		resp, err := c.Get("https://" + n.host + "/.well-known/svc-node")
		if err != nil {
			t.Fatalf("h2 %v: %v", tt.h2, err)
		}
		resp.Body.Close()
		tr.CloseIdleConnections()
		if resp.ProtoMajor != tt.want || resp.TLS == nil || resp.TLS.Version != tls.VersionTLS13 || resp.StatusCode != 200 {
			t.Errorf("h2 %v: %s %d, TLS %v, want HTTP/%d over TLS 1.3", tt.h2, resp.Proto, resp.StatusCode, resp.TLS != nil, tt.want)
		}
	}
}

// TestEstablishedCap: one client address holds at most
// MaxEstablishedPerAddress established connections; the ones past it
// are closed at once, another address is still served, and a connection
// closed gives its place back.
func TestEstablishedCap(t *testing.T) {
	n := startNode(t, t.TempDir(), "", newKeyDocs(t))
	tr := n.client.Transport.(*http.Transport)
	dial := func(from string) *tls.Conn {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
		raw, err := d.Dial("tcp", n.addr)
		if err != nil {
			t.Fatal(err)
		}
		cfg := tr.TLSClientConfig.Clone()
		cfg.ServerName, cfg.NextProtos = nodeName, []string{"http/1.1"}
		c := tls.Client(raw, cfg)
		if err := c.Handshake(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// open reports whether the node keeps c: a request on it is answered.
	open := func(c *tls.Conn) bool {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.WriteString(c, "GET /.well-known/svc-node HTTP/1.1\r\nHost: "+n.host+"\r\n\r\n"); err != nil {
			return false
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	}
	var conns []*tls.Conn
	for range gateway.MaxEstablishedPerAddress + 6 {
		conns = append(conns, dial("127.0.0.3"))
	}
	kept := 0
	for _, c := range conns {
		if open(c) {
			kept++
		}
	}
	if kept != gateway.MaxEstablishedPerAddress {
		t.Errorf("the node kept %d connections from one address, want %d", kept, gateway.MaxEstablishedPerAddress)
	}
	if !open(dial("127.0.0.4")) {
		t.Error("another address was refused")
	}
	// A connection closed frees its place.
	for _, c := range conns {
		c.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for !open(dial("127.0.0.3")) {
		if time.Now().After(deadline) {
			t.Fatal("closing its connections did not give the address its places back")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
