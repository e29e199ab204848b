package relayserver_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
	"mailnode/relay/relaystore/pgtest"
)

const meshZone = "relay.example"

// instance is one relay process of a mesh, in this test process: its own
// store connection, TLS port and mesh port.
type instance struct {
	srv    *relayserver.Server
	store  *relaystore.Postgres
	tls    net.Listener
	port   string
	cancel context.CancelFunc
	done   chan struct{}
}

// startMesh starts n instances on one PostgreSQL database.
func startMesh(t testing.TB, n int) ([]*instance, *relaylocal.CA) {
	t.Helper()
	url := pgtest.Need(t)
	ca, err := relaylocal.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Issue(meshZone, "*.agents."+meshZone)
	if err != nil {
		t.Fatal(err)
	}
	var lns, meshLns []net.Listener
	for range n {
		l, _ := net.Listen("tcp", "127.0.0.1:0")
		m, _ := net.Listen("tcp", "127.0.0.1:0")
		lns, meshLns = append(lns, l), append(meshLns, m)
	}
	var out []*instance
	for i := range n {
		st, err := relaystore.OpenPostgres(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		_, port, _ := net.SplitHostPort(lns[i].Addr().String())
		var others []string
		for j, l := range lns {
			if j != i {
				_, p, _ := net.SplitHostPort(l.Addr().String())
				others = append(others, net.JoinHostPort(meshZone, p))
			}
		}
		srv, err := relayserver.New(t.Context(), relayserver.Config{Zone: meshZone, Store: st,
			TunnelAddr: net.JoinHostPort(meshZone, port), OtherTunnelAddrs: others,
			Certificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return cert, nil },
			Limits:      relayserver.Limits{ClientRate: 1e6, ClientBurst: 1e6, GlobalRate: 1e6, GlobalBurst: 1e6},
			Mesh:        &relayserver.MeshConfig{ID: fmt.Sprintf("instance-%d", i), Addr: meshLns[i].Addr().String(), Lease: 1500 * time.Millisecond},
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		in := &instance{srv: srv, store: st, tls: lns[i], port: port, cancel: cancel, done: make(chan struct{})}
		go func() {
			defer close(in.done)
			go srv.ServeMesh(ctx, meshLns[i])
			srv.ServeTLS(ctx, lns[i])
		}()
		out = append(out, in)
		t.Cleanup(in.kill)
	}
	return out, ca
}

// kill stops the instance as its death would for its peers and nodes:
// listeners gone, tunnels and links closed, no more heartbeats.
func (in *instance) kill() {
	select {
	case <-in.done:
		return
	default:
	}
	in.cancel()
	in.tls.Close()
	in.srv.Close()
	<-in.done
	in.store.Close()
}

// loopback dials every name of the zone on 127.0.0.1.
func loopback(ctx context.Context, network, addr string) (net.Conn, error) {
	_, port, _ := net.SplitHostPort(addr)
	var d net.Dialer
	return d.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
}

// meshNode is a node with a tunnel to the mesh, serving an echo over TLS
// and counting its queued envelopes.
type meshNode struct {
	host   string
	ups    chan string
	queued atomic.Int64
	stop   func()
}

func startMeshNode(t testing.TB, ins []*instance, ca *relaylocal.CA) *meshNode {
	t.Helper()
	k, _ := relayclient.NewKeys()
	label := relayserver.NewLabel()
	if err := ins[0].store.PutNode(t.Context(), relaystore.Node{Address: "ann@example.com", Label: label, NodeKey: k.NodePublic(),
		BoxKey: k.BoxPublic(), RegisteredAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	n := &meshNode{host: label + "." + meshZone, ups: make(chan string, 10)}
	var fallbacks []string
	for _, in := range ins[1:] {
		fallbacks = append(fallbacks, net.JoinHostPort(meshZone, in.port))
	}
	ln := relayclient.NewListener()
	tun := &relayclient.Tunnel{Addr: net.JoinHostPort(meshZone, ins[0].port), Fallbacks: fallbacks, Key: k.Node, TLS: ca.ClientTLS(),
		Dial: loopback, Up: func(h string) { send(n.ups, h) },
		Queue: func(context.Context, []byte) ([]byte, error) { n.queued.Add(1); return []byte("ok"), nil }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tun.Run(ctx, ln) }()
	cert, err := ca.Issue(n.host)
	if err != nil {
		t.Fatal(err)
	}
	tl := tls.NewListener(ln.View(), &tls.Config{Certificates: []tls.Certificate{*cert}})
	go func() {
		for {
			c, err := tl.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); io.Copy(c, c) }()
		}
	}()
	n.stop = func() { cancel(); <-done; ln.Close() }
	t.Cleanup(n.stop)
	return n
}

// dial opens a TLS connection to the node through instance in.
func (n *meshNode) dial(t testing.TB, in *instance, ca *relaylocal.CA) *tls.Conn {
	t.Helper()
	raw, err := net.DialTimeout("tcp", "127.0.0.1:"+in.port, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	cfg := ca.ClientTLS()
	cfg.ServerName = n.host
	c := tls.Client(raw, cfg)
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if err := c.Handshake(); err != nil {
		t.Fatalf("TLS to the node through %s: %v", in.srv.InstanceID(), err)
	}
	c.SetDeadline(time.Time{})
	return c
}

func echo(t testing.TB, c *tls.Conn, msg string) {
	t.Helper()
	if _, err := io.WriteString(c, msg); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, len(msg))
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != msg {
		t.Fatalf("echo = %q, %v", buf, err)
	}
}

func enqueueAt(t testing.TB, in *instance, host, id string) {
	t.Helper()
	// The agent API in plain HTTP, as --http-listen serves it.
	hs := httptest.NewServer(in.srv.Handler())
	defer hs.Close()
	resp, err := http.Post(hs.URL+relay.PathQueue+"/"+host, "application/json", strings.NewReader(queueBody(200, id)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("enqueue at %s: %d", in.srv.InstanceID(), resp.StatusCode)
	}
}

// TestMesh: two instances on one PostgreSQL. An agent's connection that
// lands on the instance without the node's tunnel is forwarded to the one
// with it; an envelope left at either is delivered; when the node's
// instance dies the node is on the other within 2 s, the directory
// follows, and agents and the queue reach it there.
func TestMesh(t *testing.T) {
	ins, ca := startMesh(t, 2)
	a, b := ins[0], ins[1]
	n := startMeshNode(t, ins, ca)
	select {
	case <-n.ups:
	case <-time.After(10 * time.Second):
		t.Fatal("tunnel not up")
	}
	label := strings.TrimSuffix(n.host, "."+meshZone)
	if in, err := b.store.TunnelAt(t.Context(), label, time.Now()); err != nil || in.ID != a.srv.InstanceID() {
		t.Fatalf("directory = %+v, %v; want %s", in, err, a.srv.InstanceID())
	}
	c := n.dial(t, b, ca) // lands on b, forwarded to a
	echo(t, c, "through the mesh")
	c.Close()

	// An envelope left at b reaches the node on a.
	enqueueAt(t, b, n.host, "mesh-queued-1")
	waitFor(t, "the envelope left at the other instance", func() bool { return n.queued.Load() == 1 })

	// a dies; the node moves to b.
	died := time.Now()
	a.kill()
	select {
	case <-n.ups:
	case <-time.After(5 * time.Second):
		t.Fatal("the node did not reconnect to the other instance")
	}
	moved := time.Since(died)
	t.Logf("node back on the other instance %v after its instance died", moved)
	if moved > 2*time.Second {
		t.Errorf("the node took %v to move, want under 2 s", moved)
	}
	if in, err := b.store.TunnelAt(t.Context(), label, time.Now()); err != nil || in.ID != b.srv.InstanceID() {
		t.Errorf("directory after the move = %+v, %v", in, err)
	}
	c = n.dial(t, b, ca)
	echo(t, c, "after the move")
	c.Close()
	enqueueAt(t, b, n.host, "mesh-queued-2")
	waitFor(t, "the envelope after the move", func() bool { return n.queued.Load() == 2 })
}

func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// BenchmarkMeshLatency is the mesh's figure: round trips of 64 bytes on
// an open TLS connection to a node, and whole calls on a new connection
// (TCP, the agent's TLS handshake with the node, one round trip), through
// the instance holding its tunnel and through the other one (forwarded
// over the mesh), interleaved; p50 of each and what the mesh adds.
func BenchmarkMeshLatency(b *testing.B) {
	ins, ca := startMesh(b, 2)
	n := startMeshNode(b, ins, ca)
	<-n.ups
	msg := bytes.Repeat([]byte{'x'}, 64)
	buf := make([]byte, len(msg))
	rtt := func(c *tls.Conn) time.Duration {
		start := time.Now()
		c.Write(msg)
		io.ReadFull(c, buf)
		return time.Since(start)
	}
	var direct, meshed, connD, connM []time.Duration
	for b.Loop() {
		cd, cm := n.dial(b, ins[0], ca), n.dial(b, ins[1], ca)
		for range 100 {
			rtt(cd)
			rtt(cm)
		}
		for range 2000 {
			direct = append(direct, rtt(cd))
			meshed = append(meshed, rtt(cm))
		}
		cd.Close()
		cm.Close()
		for range 200 {
			for i, in := range ins {
				start := time.Now()
				c := n.dial(b, in, ca)
				rtt(c)
				took := time.Since(start)
				c.Close()
				if i == 0 {
					connD = append(connD, took)
				} else {
					connM = append(connM, took)
				}
			}
		}
	}
	p50 := func(v []time.Duration) float64 {
		slices.Sort(v)
		return float64(v[len(v)/2].Microseconds())
	}
	b.ReportMetric(p50(direct), "rtt-owner-µs")
	b.ReportMetric(p50(meshed), "rtt-mesh-µs")
	b.ReportMetric(p50(meshed)-p50(direct), "rtt-added-µs")
	b.ReportMetric(p50(connD), "call-owner-µs")
	b.ReportMetric(p50(connM), "call-mesh-µs")
	b.ReportMetric(p50(connM)-p50(connD), "call-added-µs")
}
