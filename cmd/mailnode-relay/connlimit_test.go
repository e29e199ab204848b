package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/connlimit/connlimittest"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relaystore"
)

// TestSlowClientsBinary is relayserver's TestSlowClients against the
// mailnode-relay binary with its default limits: 2,000 slow connections
// from 127.0.0.2 are cut to the per-address cap at once and at the
// handshake deadline at last, while a client on 127.0.0.1 is served and
// 1,000 tunnels from 127.0.0.3 come up (100 under the race detector).
func TestSlowClientsBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the relay")
	}
	dir := t.TempDir()
	bin := relayBinary(t)
	ca, certFile, keyFile := relayCert(t, dir)

	data := filepath.Join(dir, "relay")
	nodes := connlimittest.NewNodes(t, 1+connlimittest.Tunnels)
	st, err := relaystore.OpenSQLite(t.Context(), data)
	if err != nil {
		t.Fatal(err)
	}
	connlimittest.Register(t, st, nodes)
	st.Close()

	// The relay inherits the raised open-file limit.
	connlimittest.RaiseFileLimit(t, 7000)
	p := start(t, bin, "mailnode-relay", "serve", "--data-dir", data, "--zone", relaylocal.Zone,
		"--listen", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile)
	addr := p.await(t, `service=tls addr=(\S+)`, 20*time.Second)
	connlimittest.CheckRelay(t, connlimittest.Relay{Addr: addr, CA: ca, Nodes: nodes})
}

// TestOutOfFilesBinary: a mailnode-relay that runs out of file
// descriptors (here a limit of 128, and 200 idle connections from several
// addresses, each under the per-address cap) keeps its TLS port: once the
// clients leave it serves again, instead of ending on the accept error.
func TestOutOfFilesBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the relay")
	}
	dir := t.TempDir()
	bin := relayBinary(t)
	ca, certFile, keyFile := relayCert(t, dir)

	// The shell lowers the limit, soft and hard, for the relay alone.
	p := start(t, "/bin", "sh", "-c", `ulimit -n 128 && exec "$@"`, "sh", filepath.Join(bin, "mailnode-relay"),
		"serve", "--data-dir", filepath.Join(dir, "relay"), "--zone", relaylocal.Zone,
		"--listen", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile)
	addr := p.await(t, `service=tls addr=(\S+)`, 20*time.Second)
	health := func() error {
		c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true, TLSClientConfig: ca.ClientTLS(),
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, addr)
			}}}
		resp, err := c.Get("https://" + relaylocal.Zone + relay.PathHealth)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("health: %s", resp.Status)
		}
		return nil
	}
	if err := health(); err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range 200 {
		c, err := connlimittest.Dialer(fmt.Sprintf("127.0.0.%d", 10+i%4)).Dial("tcp", addr)
		if err != nil {
			t.Logf("connection %d: %v", i+1, err) // the relay is gone
			break
		}
		conns = append(conns, c)
	}
	time.Sleep(time.Second) // the relay accepts until it is out of descriptors
	for _, c := range conns {
		c.Close()
	}
	conns = nil
	if err := p.wait(2 * time.Second); err == nil || !strings.Contains(err.Error(), "still running") {
		t.Fatalf("the relay ended after running out of descriptors: %v", err)
	}
	p.await(t, `Cannot accept; retrying.*too many open files`, time.Second)
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if err = health(); err == nil {
			return
		}
	}
	t.Fatalf("the relay's API once the clients left: %v", err)
}
