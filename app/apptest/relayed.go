// Package apptest starts the parts of mailnode together on loopback for
// tests of other packages: a relay, and a demo node registered at it.
package apptest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"log/slog"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/gateway"
	"mailnode/mail/demobox"
	"mailnode/relay/acmetest"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
)

// Relayed is a demo node registered and connected at a relay on loopback.
type Relayed struct {
	Relay *relaylocal.Relay
	Node  *app.Node
	// Host is the node's name under the relay's zone.
	Host string
	// NodeCA is the node's local CA, which signs its certificate.
	NodeCA *x509.Certificate
	// Log holds the relay's and the node's logs; it is printed when the
	// test fails.
	Log *Buffer
}

// StartRelay runs a relay on loopback until the test ends.
func StartRelay(t testing.TB, log *Buffer) *relaylocal.Relay {
	t.Helper()
	return StartRelayWith(t, log, relaylocal.Options{})
}

// StartRelayWith is StartRelay with options (a data directory of its own
// is made if none is given).
func StartRelayWith(t testing.TB, log *Buffer, o relaylocal.Options) *relaylocal.Relay {
	t.Helper()
	if o.DataDir == "" {
		o.DataDir = t.TempDir()
	}
	r, err := relaylocal.Start(t.Context(), o, logger(log))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A listener that failed stopped the relay: say so, or the test
		// fails later on a relay that looks only unreachable.
		if err := r.Close(); err != nil {
			t.Errorf("local relay: %v", err)
		}
	})
	return r
}

// StartNode runs a demo node that registers alex.morgan@demo-mail.example
// at r (its code mailed through the demo's own submission server), and
// returns once the node is reachable through r. agentDomains are agent
// domains whose key documents r hosts.
func StartNode(t testing.TB, r *relaylocal.Relay, log *Buffer, agentDomains ...string) *Relayed {
	t.Helper()
	return StartNodeWith(t, r, log, NodeOptions{AgentDomains: agentDomains})
}

// NodeOptions are StartNodeWith's choices.
type NodeOptions struct {
	// AgentDomains are agent domains whose key documents r hosts.
	AgentDomains []string
	// AgentAddrs map more agent domains to the host:port their key
	// documents are fetched from (the gateway's development overrides).
	AgentAddrs map[string]string
	// ACME, if set, certifies the node's relay name; StartNodeWith
	// returns once the certificate is held.
	ACME *acmetest.CA
	// DataDir is the node's data directory; default a new one.
	DataDir string
	// RateLimit bounds each agent's requests; zero: the gateway's
	// defaults.
	RateLimit gateway.RateLimit
	// LANAddr is the node's address for pairing over this network
	// (app.GatewayConfig.LANAddr): tests give a second loopback address.
	LANAddr func() (netip.Addr, error)
}

// StartNodeWith is StartNode with options.
func StartNodeWith(t testing.TB, r *relaylocal.Relay, log *Buffer, o NodeOptions) *Relayed {
	t.Helper()
	ctx := t.Context()
	// The agents r hosts are fetched through r's own DNS (the gateway's
	// development zone, as a node given --dev-relay-* does); other agent
	// domains named are mapped to r's address.
	zone := "agents." + relaylocal.Zone
	dev := map[string]string{}
	for _, d := range o.AgentDomains {
		if !strings.HasSuffix(strings.ToLower(d), "."+zone) {
			dev[d] = r.Addr
		}
	}
	for d, a := range o.AgentAddrs {
		dev[d] = a
	}
	rc := app.RelayConfig{URL: r.URL, HTTP: r.HTTPClient(), TLS: r.CA.ClientTLS(), Dial: r.Dial}
	if o.ACME != nil {
		rc.ACME, rc.ACMEHTTP = o.ACME.DirectoryURL, o.ACME.HTTP
	}
	if o.DataDir == "" {
		o.DataDir = t.TempDir()
	}
	box := DemoMailbox(t)
	n, err := app.New(DemoOn(t, box, app.Config{DataDir: o.DataDir,
		Gateway: app.GatewayConfig{Listen: "127.0.0.1:0", DevAgentAddrs: dev,
			DevAgentCAs: []*x509.Certificate{r.CA.Cert}, RateLimit: o.RateLimit,
			DevAgentZones: []string{zone}, DevAgentDial: r.Dial, LANAddr: o.LANAddr},
		Relay:    rc,
		Services: app.Services{Sync: true, Gateway: true, Relay: true},
	}), logger(log))
	if err != nil {
		t.Fatal(err)
	}
	sub, unsub := n.Subscribe()
	defer unsub()
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(log.String())
		}
	})
	addr, tlsc := box.Submission()
	r.SetMailer(&relayserver.SMTPMailer{Addr: addr, Username: demobox.Username, Password: demobox.Password,
		Sender: "relay@" + relaylocal.Zone, TLS: tlsc})

	e := &Relayed{Relay: r, Node: n, Log: log}
	deadline := time.After(30 * time.Second)
	for e.Host == "" {
		select {
		case st := <-sub:
			if st.Gateway.Relay.State == "connected" && st.Gateway.Reachable == "relay" {
				if o.ACME != nil && st.Gateway.Relay.CertError != "" {
					t.Fatalf("no certificate from the ACME CA: %s", st.Gateway.Relay.CertError)
				}
				e.Host = st.Gateway.Relay.Hostname
			}
		case <-deadline:
			st := n.Status()
			t.Fatalf("node not connected through the relay: %+v; %d messages, last sync %v", st.Gateway, st.Messages, st.LastSync)
		}
	}
	b, err := os.ReadFile(n.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	blk, _ := pem.Decode(b)
	if blk == nil {
		t.Fatal("node CA file holds no PEM")
	}
	if e.NodeCA, err = x509.ParseCertificate(blk.Bytes); err != nil {
		t.Fatal(err)
	}
	return e
}

// AgentHTTP is an agent's HTTP client: names resolved through the relay's
// DNS, the relay's and the node's certificates checked against their CAs.
func (e *Relayed) AgentHTTP() *http.Client {
	roots := x509.NewCertPool()
	roots.AddCert(e.NodeCA)
	roots.AddCert(e.Relay.CA.Cert)
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext:       e.Relay.Dial,
		TLSClientConfig:   &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13},
		ForceAttemptHTTP2: true,
	}}
}

// CAPEM is the relay's and the node's CA certificates in one PEM file's
// bytes, for a program given --ca.
func (e *Relayed) CAPEM() []byte {
	var b bytes.Buffer
	for _, c := range []*x509.Certificate{e.Relay.CA.Cert, e.NodeCA} {
		pem.Encode(&b, &pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
	}
	return b.Bytes()
}

func logger(b *Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Buffer is a log sink safe for concurrent writers.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// HostAgent has r host a new agent's key document (an agent without a
// domain of its own) and returns the agent's domain and key.
func HostAgent(t testing.TB, r *relaylocal.Relay) (string, ed25519.PrivateKey) {
	t.Helper()
	_, key, _ := ed25519.GenerateKey(nil)
	hosted, err := (&relayclient.API{BaseURL: r.URL, Key: key, HTTP: r.HTTPClient()}).HostAgentKey(t.Context(), "k1")
	if err != nil {
		t.Fatal(err)
	}
	return hosted.Domain, key
}

// Session is an MCP session of the agent (domain, key) with e's node,
// reached by its name through the relay.
func (e *Relayed) Session(t testing.TB, domain string, key ed25519.PrivateKey) *agent.Session {
	t.Helper()
	s, err := agent.NewSession(agent.Config{Node: e.Host,
		Signer: &agent.Signer{Domain: domain, Kid: "k1", Key: key}, HTTPClient: e.AgentHTTP()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
