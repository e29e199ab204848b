package main

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/gateway"
	"mailnode/mail/demobox"
	"mailnode/relay/devnet"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// TestKeepAliveThroughRelayProcess is app's TestKeepAliveThroughRelay
// through the mailnode-relay binary: Go's client, curl and Node's fetch
// keep one HTTP/1.1 connection through its SNI port and a node's tunnel
// for 1,000 signed calls and across idle gaps of 1 s and 30 s, as they do
// straight to the node (issue 40). The node (package app, in this
// process) is registered in the relay's database before the relay starts.
func TestKeepAliveThroughRelayProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the relay; waits 30 s between two calls")
	}
	dir := t.TempDir()
	bin := relayBinary(t)
	ca, err := relaylocal.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Issue(relaylocal.Zone, "*.agents."+relaylocal.Zone)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	certFile := file("relay.crt", pemBlock("CERTIFICATE", cert.Certificate[0]))
	keyFile := file("relay.key", pemBlock("PRIVATE KEY", keyDER))
	caFile := file("relay-ca.pem", pemBlock("CERTIFICATE", ca.Cert.Raw))

	// The node's registration, as its confirmed code would have left it.
	relayData, nodeData := filepath.Join(dir, "relay"), filepath.Join(dir, "node")
	keys, err := relayclient.LoadKeys(filepath.Join(nodeData, "relay", "keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := relaystore.OpenSQLite(t.Context(), relayData)
	if err != nil {
		t.Fatal(err)
	}
	err = st.PutNode(t.Context(), relaystore.Node{Address: demobox.Address, Label: relayserver.NewLabel(),
		NodeKey: keys.NodePublic(), BoxKey: keys.BoxPublic(), RegisteredAt: time.Now()})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	relayProc := start(t, bin, "mailnode-relay", "serve", "--data-dir", relayData, "--zone", relaylocal.Zone,
		"--listen", "127.0.0.1:0", "--dns-listen", "127.0.0.1:0", "--public-ip", "127.0.0.1",
		"--tls-cert", certFile, "--tls-key", keyFile)
	tlsAddr := relayProc.await(t, `service=tls addr=(\S+)`, 10*time.Second)
	dnsAddr := relayProc.await(t, `service=dns addr=(\S+)`, 10*time.Second)
	var port int
	fmt.Sscan(tlsAddr[strings.LastIndexByte(tlsAddr, ':')+1:], &port)
	loop := devnet.Overrides{CAFiles: []string{caFile}, DNS: dnsAddr, Port: port}
	relayHTTP, err := loop.HTTPClient()
	if err != nil {
		t.Fatal(err)
	}
	relayTLS, _ := loop.TLS()

	// The agent has no domain: the relay hosts its key document.
	_, agentKey, _ := ed25519.GenerateKey(nil)
	hosted, err := (&relayclient.API{BaseURL: "https://" + relaylocal.Zone, Key: agentKey, HTTP: relayHTTP}).HostAgentKey(t.Context(), "k1")
	if err != nil {
		t.Fatal(err)
	}

	var log apptest.Buffer
	n, err := app.New(apptest.Demo(t, app.Config{DataDir: nodeData,
		Gateway: app.GatewayConfig{Listen: "127.0.0.1:0", DevAgentAddrs: map[string]string{hosted.Domain: tlsAddr},
			DevAgentCAs: []*x509.Certificate{ca.Cert},
			// 1,000 calls at once from each client: past the default rates.
			RateLimit: gateway.RateLimit{PerAgent: 1e6, Burst: 1e6, PerSite: 1e6, SiteBurst: 1e6}},
		Relay:    app.RelayConfig{URL: "https://" + relaylocal.Zone, HTTP: relayHTTP, TLS: relayTLS, Dial: loop.Dial()},
		Services: app.Services{Sync: true, Gateway: true, Relay: true},
	}), slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	sub, unsub := n.Subscribe()
	defer unsub()
	if err := n.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(log.String())
		}
	})
	var host string
	for deadline := time.After(30 * time.Second); host == ""; {
		select {
		case s := <-sub:
			if s.Gateway.Relay.State == "connected" {
				host = s.Gateway.Relay.Hostname
			}
		case <-deadline:
			t.Fatalf("node not connected through the relay: %+v", n.Status().Gateway)
		}
	}
	nodeCA, err := os.ReadFile(n.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := pem.Decode(nodeCA); b == nil {
		t.Fatal("node CA file holds no PEM")
	}
	u, err := url.Parse(n.GatewayURL())
	if err != nil {
		t.Fatal(err)
	}
	targets := []apptest.Target{
		{Name: "direct", Host: u.Host, Dial: net.JoinHostPort("127.0.0.1", u.Port())},
		{Name: "relay process", Host: host, Dial: tlsAddr},
	}
	apptest.CheckKeepAlive(t, targets, nodeCA, agent.Signer{Domain: hosted.Domain, Kid: "k1", Key: agentKey})
}
