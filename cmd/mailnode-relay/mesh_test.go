package main

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
	"mailnode/relay/relaystore/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	if relayBuild.dir != "" {
		os.RemoveAll(relayBuild.dir)
	}
	os.Exit(code)
}

// TestTwoRelayProcesses: two mailnode-relay processes on one PostgreSQL
// (--db, --mesh-listen). A node tunnelled to the first is reached by an
// agent through the second; an envelope left at the second is delivered
// to it; the first is killed (SIGKILL) and the node is on the second
// within 2 s, where agents and the queue reach it.
func TestTwoRelayProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the relay")
	}
	db := pgtest.Need(t)
	dir := t.TempDir()
	bin := relayBinary(t)
	ca, certFile, keyFile := relayCert(t, dir)

	ports := make([]string, 2)
	for i := range ports {
		l, _ := net.Listen("tcp", "127.0.0.1:0")
		_, ports[i], _ = net.SplitHostPort(l.Addr().String())
		l.Close()
	}
	var procs []*proc
	var httpAddrs []string
	for i := range 2 {
		p := start(t, bin, "mailnode-relay", "serve", "--db", db, "--zone", relaylocal.Zone,
			"--listen", "127.0.0.1:"+ports[i], "--http-listen", "127.0.0.1:0", "--mesh-listen", "127.0.0.1:0",
			"--instance-id", []string{"first", "second"}[i], "--other-tunnel", net.JoinHostPort(relaylocal.Zone, ports[1-i]),
			"--tls-cert", certFile, "--tls-key", keyFile, "--rate-client", "1000", "--burst-client", "1000")
		p.await(t, `service=mesh addr=(\S+)`, 20*time.Second)
		httpAddrs = append(httpAddrs, p.await(t, `service=http addr=(\S+)`, 10*time.Second))
		procs = append(procs, p)
	}

	// The node: registered in the shared database, tunnelled to the first.
	st, err := relaystore.OpenPostgres(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	k, _ := relayclient.NewKeys()
	label := relayserver.NewLabel()
	host := label + "." + relaylocal.Zone
	if err := st.PutNode(t.Context(), relaystore.Node{Address: "ann@example.com", Label: label, NodeKey: k.NodePublic(),
		BoxKey: k.BoxPublic(), RegisteredAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	loop := func(ctx context.Context, network, addr string) (net.Conn, error) {
		_, port, _ := net.SplitHostPort(addr)
		var d net.Dialer
		return d.DialContext(ctx, network, "127.0.0.1:"+port)
	}
	ups := make(chan struct{}, 10)
	var queued atomic.Int64
	ln := relayclient.NewListener()
	tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, ports[0]), Fallbacks: []string{net.JoinHostPort(relaylocal.Zone, ports[1])},
		Key: k.Node, TLS: ca.ClientTLS(), Dial: loop,
		Up:    func(string) { ups <- struct{}{} },
		Queue: func(context.Context, []byte) ([]byte, error) { queued.Add(1); return []byte("ok"), nil }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tun.Run(ctx, ln) }()
	defer func() { cancel(); <-done }()
	nodeCert, _ := ca.Issue(host)
	tl := tls.NewListener(ln.View(), &tls.Config{Certificates: []tls.Certificate{*nodeCert}})
	defer tl.Close()
	go func() {
		for {
			c, err := tl.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); io.Copy(c, c) }()
		}
	}()
	select {
	case <-ups:
	case <-time.After(20 * time.Second):
		t.Fatal("tunnel not up")
	}
	call := func(port string) {
		t.Helper()
		raw, err := net.DialTimeout("tcp", "127.0.0.1:"+port, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		cfg := ca.ClientTLS()
		cfg.ServerName = host
		c := tls.Client(raw, cfg)
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(c, "hello"); err != nil {
			t.Fatalf("TLS to the node through port %s: %v", port, err)
		}
		buf := make([]byte, 5)
		if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "hello" {
			t.Fatalf("echo through port %s = %q, %v", port, buf, err)
		}
	}
	enqueue := func(httpAddr, id string) {
		t.Helper()
		body := `{"envelope":"` + strings.Repeat("A", 100) + `","request_id":"` + id + `"}`
		resp, err := http.Post("http://"+httpAddr+relay.PathQueue+"/"+host, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("enqueue: %d", resp.StatusCode)
		}
	}
	until := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}

	call(ports[1]) // through the second instance, over the mesh
	enqueue(httpAddrs[1], "two-processes-1")
	until("the envelope left at the second instance", func() bool { return queued.Load() == 1 })

	killed := time.Now()
	procs[0].cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-ups:
	case <-time.After(10 * time.Second):
		t.Fatal("the node did not move to the second instance")
	}
	moved := time.Since(killed)
	t.Logf("node on the second instance %v after the first was killed", moved)
	if moved > 2*time.Second {
		t.Errorf("moving took %v, want under 2 s", moved)
	}
	until("the directory naming the second instance", func() bool {
		in, err := st.TunnelAt(t.Context(), label, time.Now())
		return err == nil && in.ID == "second"
	})
	call(ports[1])
	enqueue(httpAddrs[1], "two-processes-2")
	until("the envelope after the move", func() bool { return queued.Load() == 2 })
}
