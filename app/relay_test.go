package app_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/mail/demobox"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
)

// relayed is a demo node registered at a relay on loopback, and an agent
// whose key document the relay hosts.
type relayed struct {
	relay  *relaylocal.Relay
	node   *app.Node
	agent  *agent.Session
	host   string // the node's relay name
	caPool *x509.CertPool
}

func newRelayed(t *testing.T) *relayed {
	t.Helper()
	ctx := t.Context()
	dir := t.TempDir()
	var logbuf syncBuffer
	r, err := relaylocal.Start(ctx, relaylocal.Options{DataDir: dir + "/relay"}, slog.New(slog.NewTextHandler(&logbuf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })

	// The agent has no domain: the relay hosts its key document.
	_, key, _ := ed25519.GenerateKey(nil)
	hosted, err := (&relayclient.API{BaseURL: r.URL, Key: key, HTTP: r.HTTPClient()}).HostAgentKey(ctx, "k1")
	if err != nil {
		t.Fatal(err)
	}

	n, err := app.New(app.Config{DataDir: dir + "/node", Demo: true,
		Gateway: app.GatewayConfig{Listen: "127.0.0.1:0",
			DevAgentAddrs: map[string]string{hosted.Domain: r.Addr},
			DevAgentCAs:   []*x509.Certificate{r.CA.Cert}},
		Relay:    app.RelayConfig{URL: r.URL, HTTP: r.HTTPClient(), TLS: r.CA.ClientTLS(), Dial: r.Dial},
		Services: app.Services{Sync: true, Gateway: true, Relay: true},
	}, slog.New(slog.NewTextHandler(&logbuf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	sub, unsub := n.Subscribe()
	t.Cleanup(unsub)
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	addr, tlsc, _ := n.DemoSubmission()
	r.SetMailer(&relayserver.SMTPMailer{Addr: addr, Username: demobox.Username, Password: demobox.Password,
		Sender: "relay@" + relaylocal.Zone, TLS: tlsc})

	e := &relayed{relay: r, node: n}
	deadline := time.After(30 * time.Second)
	for e.host == "" {
		select {
		case st := <-sub:
			if st.Gateway.Relay.State == "connected" && st.Gateway.Reachable == "relay" {
				e.host = st.Gateway.Relay.Hostname
			}
		case <-deadline:
			st := n.Status()
			t.Log(logbuf.String())
			t.Fatalf("node not connected through the relay: %+v; %d messages, last sync %v", st.Gateway, st.Messages, st.LastSync)
		}
	}
	pem, err := os.ReadFile(n.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	e.caPool = x509.NewCertPool()
	e.caPool.AppendCertsFromPEM(pem)
	e.agent, err = agent.NewSession(agent.Config{Node: e.host,
		Signer: &agent.Signer{Domain: hosted.Domain, Kid: "k1", Key: key}, HTTPClient: e.agentHTTP()})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// agentHTTP is an agent's HTTP client: names resolved through the
// relay's DNS, the node's certificate checked against its CA.
func (e *relayed) agentHTTP() *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext:       e.relay.Dial,
		TLSClientConfig:   &tls.Config{RootCAs: e.caPool, MinVersion: tls.VersionTLS13},
		ForceAttemptHTTP2: true,
	}}
}

// TestRelayEndToEnd: the demo node registers its address at the relay,
// finds the mailed code in its own synced INBOX and confirms; an agent
// resolves the address, reaches the node by name through the relay's
// DNS, SNI and tunnel, and its signed call is verified by the node
// against the key document the relay hosts for it.
func TestRelayEndToEnd(t *testing.T) {
	e := newRelayed(t)
	ctx := t.Context()
	res, err := (&agent.Relay{BaseURL: e.relay.URL, HTTPClient: e.relay.HTTPClient()}).Resolve(ctx, " Alex.Morgan@Demo-Mail.example")
	if err != nil {
		t.Fatal(err)
	}
	if res.Hostname != e.host {
		t.Fatalf("resolve = %s, want the node's %s", res.Hostname, e.host)
	}
	_, err = e.agent.Call(ctx, "get_upcoming_travel", map[string]any{})
	var ar *agent.ApprovalRequired
	if !errors.As(err, &ar) || ar.MatchCode == "" {
		t.Fatalf("first call through the relay = %v, want approval_required", err)
	}
	for wait := time.Now().Add(5 * time.Second); e.node.Status().Pending != 1; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(wait) {
			t.Fatalf("pending = %d, want the agent's request", e.node.Status().Pending)
		}
	}

	// An unknown address resolves to a name whose TLS never completes.
	dec, err := (&agent.Relay{BaseURL: e.relay.URL, HTTPClient: e.relay.HTTPClient()}).Resolve(ctx, "nobody@demo-mail.example")
	if err != nil {
		t.Fatal(err)
	}
	c, err := e.relay.Dial(ctx, "tcp", net.JoinHostPort(dec.Hostname, "443"))
	if err != nil {
		t.Fatalf("a decoy name must accept TCP: %v", err)
	}
	defer c.Close()
	tc := tls.Client(c, &tls.Config{ServerName: dec.Hostname, RootCAs: e.caPool})
	hctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if err := tc.HandshakeContext(hctx); err == nil || hctx.Err() == nil {
		t.Fatalf("TLS with a decoy name = %v, want a stall", err)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
