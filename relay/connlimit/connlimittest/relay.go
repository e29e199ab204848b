package connlimittest

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/connlimit"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// Node is a node's keys and its registration.
type Node struct {
	Keys relayclient.Keys
	Reg  relaystore.Node
}

// NewNodes makes n nodes for the relay's store, with random labels.
func NewNodes(t testing.TB, n int) []Node {
	t.Helper()
	nodes := make([]Node, n)
	for i := range nodes {
		k, err := relayclient.NewKeys()
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = Node{Keys: k, Reg: relaystore.Node{Address: fmt.Sprintf("node%d@example.com", i), Label: relayserver.NewLabel(),
			NodeKey: k.NodePublic(), BoxKey: k.BoxPublic(), RegisteredAt: time.Now()}}
	}
	return nodes
}

// Register puts nodes into st.
func Register(t testing.TB, st relaystore.Store, nodes []Node) {
	t.Helper()
	for _, n := range nodes {
		if err := st.PutNode(t.Context(), n.Reg); err != nil {
			t.Fatal(err)
		}
	}
}

// Relay is a relay under test on loopback: its TLS port, the CA of its
// certificate for relaylocal.Zone, and registered nodes (at least two).
type Relay struct {
	Addr  string
	CA    *relaylocal.CA
	Nodes []Node
}

// loopbackFrom dials r's TLS port from the local address from, whatever
// the name: the relay routes by SNI.
func (r Relay) loopbackFrom(from string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := Dialer(from)
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, r.Addr)
	}
}

// health calls the relay's API over TLS on a new connection from the
// local address from.
func (r Relay) health(from string, timeout time.Duration) (relay.Health, error) {
	c := &http.Client{Timeout: timeout, Transport: &http.Transport{DialContext: r.loopbackFrom(from),
		TLSClientConfig: r.CA.ClientTLS(), DisableKeepAlives: true}}
	var h relay.Health
	resp, err := c.Get("https://" + relaylocal.Zone + relay.PathHealth)
	if err != nil {
		return h, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return h, fmt.Errorf("health: %s", resp.Status)
	}
	return h, json.NewDecoder(resp.Body).Decode(&h)
}

// CheckRelay is the test of connection limits on a relay: 2,000 slow
// connections from 127.0.0.2 (half silent, half dripping a ClientHello
// for a decoy-looking name one byte a second, each opened again a
// second after the relay closes it) are held no more than
// connlimit.DefaultPerAddress at a time, and none longer than
// connlimit.HandshakeTimeout; while they last, a client on 127.0.0.1 gets
// the relay's API over TLS and reaches a node through its tunnel,
// promptly, and the other registered nodes (Tunnels in the tests) bring
// their tunnels up, all from 127.0.0.3.
func CheckRelay(t *testing.T, r Relay) {
	const slow = 2000
	RaiseFileLimit(t, 2*(slow+uint64(len(r.Nodes)))+1000)
	NeedAddr(t, "127.0.0.2")
	NeedAddr(t, "127.0.0.3")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })

	// The node the agent reaches: its tunnel, and HTTPS on its streams
	// with a certificate of its own CA.
	agentNode, tunnelNodes := r.Nodes[0], r.Nodes[1:]
	nodeCA, err := relaylocal.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	host := agentNode.Reg.Label + "." + relaylocal.Zone
	ln := relayclient.NewListener()
	up := make(chan struct{}, 1)
	tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, "443"), Key: agentNode.Keys.Node, TLS: r.CA.ClientTLS(),
		Dial: r.loopbackFrom("127.0.0.1"), Up: func(string) {
			select {
			case up <- struct{}{}:
			default:
			}
		}}
	wg.Add(1)
	go func() { defer wg.Done(); tun.Run(ctx, ln) }()
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "node") }),
		TLSConfig: &tls.Config{GetCertificate: func(h *tls.ClientHelloInfo) (*tls.Certificate, error) { return nodeCA.Issue(h.ServerName) }}}
	go hs.ServeTLS(ln.View(), "", "")
	t.Cleanup(func() { hs.Close(); ln.Close() })
	select {
	case <-up:
	case <-time.After(20 * time.Second):
		t.Fatal("the agent's node has no tunnel")
	}
	agent := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: r.loopbackFrom("127.0.0.1"),
		TLSClientConfig: nodeCA.ClientTLS(), DisableKeepAlives: true}}
	served := func(what string) {
		t.Helper()
		start := time.Now()
		if _, err := r.health("127.0.0.1", 5*time.Second); err != nil {
			t.Errorf("%s: the relay's API from 127.0.0.1: %v", what, err)
		} else if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: the relay's API from 127.0.0.1 took %v, want under 2 s", what, d)
		}
		start = time.Now()
		resp, err := agent.Get("https://" + host + "/")
		if err != nil {
			t.Errorf("%s: the node through its tunnel from 127.0.0.1: %v", what, err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != "node" {
			t.Errorf("%s: the node through its tunnel answered %q", what, b)
		} else if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: the node through its tunnel took %v, want under 2 s", what, d)
		}
	}
	served("before the flood")

	decoy := relayserver.NewLabel() + "." + relaylocal.Zone
	flood := StartFlood(t, FloodOptions{Addr: r.Addr, From: "127.0.0.2", Conns: slow,
		Drip: ClientHello(t, decoy), DripEvery: time.Second, Pause: time.Second, MaxDials: 100})
	start := time.Now()
	for !flood.Started() {
		if time.Since(start) > 30*time.Second {
			t.Fatalf("the flood's %d connections not opened in 30 s: %+v", slow, flood.Stats())
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("%d slow connections opened from 127.0.0.2 in %v", slow, time.Since(start).Round(time.Millisecond))
	var mostHeld atomic.Int64
	sample := func() {
		// Five seconds: a connection past the cap is closed as soon as
		// the relay accepts it, but on a loaded machine it may wait in
		// the listen backlog a while first; one held is held 10 s.
		if h := int64(flood.HeldSettled(5*time.Second, 300*time.Millisecond)); h > mostHeld.Load() {
			mostHeld.Store(h)
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			sample()
			time.Sleep(100 * time.Millisecond)
		}
	}()
	served("during the flood")

	// The other nodes, all from one address, all at once, as nodes
	// behind one NAT come back after the relay restarts.
	var nodesUp atomic.Int64
	tctx, tcancel := context.WithCancel(ctx)
	var twg sync.WaitGroup
	t.Cleanup(func() { tcancel(); twg.Wait() })
	tunnelsStart := time.Now()
	for _, n := range tunnelNodes {
		var once sync.Once
		tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, "443"), Key: n.Keys.Node, TLS: r.CA.ClientTLS(),
			Dial: r.loopbackFrom("127.0.0.3"), Up: func(string) { once.Do(func() { nodesUp.Add(1) }) }}
		l := relayclient.NewListener()
		twg.Add(1)
		go func() { defer twg.Done(); tun.Run(tctx, l); l.Close() }()
	}
	for nodesUp.Load() < int64(len(tunnelNodes)) {
		if time.Since(tunnelsStart) > 90*time.Second {
			t.Fatalf("%d of %d tunnels from 127.0.0.3 up after 90 s", nodesUp.Load(), len(tunnelNodes))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("%d tunnels from 127.0.0.3 up in %v", len(tunnelNodes), time.Since(tunnelsStart).Round(time.Millisecond))
	if h, err := r.health("127.0.0.3", 5*time.Second); err != nil {
		t.Errorf("the relay's API from 127.0.0.3, beside its %d tunnels: %v", len(tunnelNodes), err)
	} else if h.NodesConnected < len(r.Nodes) {
		t.Errorf("health counts %d tunnels, want %d", h.NodesConnected, len(r.Nodes))
	}
	served("with the tunnels up")

	// Past the handshake deadline the dripping connections the relay
	// held were cut.
	for time.Since(start) < connlimit.HandshakeTimeout+3*time.Second {
		time.Sleep(100 * time.Millisecond)
	}
	served("after the handshake deadline")
	sample()
	st := flood.Stats()
	t.Logf("flood: %+v; at most %d held 5 s or more", st, mostHeld.Load())
	if m := mostHeld.Load(); m > connlimit.DefaultPerAddress {
		t.Errorf("the relay held %d connections from 127.0.0.2 open before their handshake, want at most %d", m, connlimit.DefaultPerAddress)
	}
	if st.LongestDrip > connlimit.HandshakeTimeout+1500*time.Millisecond {
		t.Errorf("a ClientHello dripping a byte a second was held %v, want cut at %v", st.LongestDrip, connlimit.HandshakeTimeout)
	}
	if st.LongestDrip < connlimit.HandshakeTimeout-time.Second {
		t.Errorf("no dripping connection was held until the deadline (longest %v): the test proves nothing", st.LongestDrip)
	}
}
