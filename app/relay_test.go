package app_test

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/app/apptest"
	"mailnode/relay/acmetest"
	"mailnode/relay/relayclient"
)

// TestRelayEndToEnd: the demo node registers its address at the relay,
// finds the mailed code in its own synced INBOX and confirms; an agent
// resolves the address, reaches the node by name through the relay's
// DNS, SNI and tunnel, and its signed call is verified by the node
// against the key document the relay hosts for it.
func TestRelayEndToEnd(t *testing.T) {
	ctx := t.Context()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	// The agent has no domain: the relay hosts its key document.
	domain, key := apptest.HostAgent(t, r)
	e := apptest.StartNode(t, r, &log, domain)
	sess := e.Session(t, domain, key)

	res, err := (&agent.Relay{BaseURL: r.URL, HTTPClient: r.HTTPClient()}).Resolve(ctx, " Alex.Morgan@Demo-Mail.example")
	if err != nil {
		t.Fatal(err)
	}
	if res.Hostname != e.Host {
		t.Fatalf("resolve = %s, want the node's %s", res.Hostname, e.Host)
	}
	_, err = sess.Call(ctx, "get_upcoming_travel", map[string]any{})
	var ar *agent.ApprovalRequired
	if !errors.As(err, &ar) || ar.MatchCode == "" {
		t.Fatalf("first call through the relay = %v, want approval_required", err)
	}
	if p := apptest.WaitPending(e.Node, 1); p != 1 {
		t.Fatalf("pending = %d, want the agent's request", p)
	}

	// An unknown address resolves to a name whose TLS never completes.
	dec, err := (&agent.Relay{BaseURL: r.URL, HTTPClient: r.HTTPClient()}).Resolve(ctx, "nobody@demo-mail.example")
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Dial(ctx, "tcp", net.JoinHostPort(dec.Hostname, "443"))
	if err != nil {
		t.Fatalf("a decoy name must accept TCP: %v", err)
	}
	defer c.Close()
	tlsc := e.AgentHTTP().Transport.(*http.Transport).TLSClientConfig.Clone()
	tlsc.ServerName = dec.Hostname
	tc := tls.Client(c, tlsc)
	hctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if err := tc.HandshakeContext(hctx); err == nil || hctx.Err() == nil {
		t.Fatalf("TLS with a decoy name = %v, want a stall", err)
	}
}

// TestRelayACME: the node's relay name is certified by an ACME CA
// (Pebble, asking the relay's DNS for the DNS-01 challenge); an agent
// that trusts that CA and not the node's local CA completes TLS with the
// node through the tunnel, and its signed call reaches the gateway.
func TestRelayACME(t *testing.T) {
	ctx := t.Context()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	pebble := acmetest.Start(r.DNSAddr, 0, &log)
	defer pebble.Close()
	_, key, _ := ed25519.GenerateKey(nil)
	hosted, err := (&relayclient.API{BaseURL: r.URL, Key: key, HTTP: r.HTTPClient()}).HostAgentKey(ctx, "k1")
	if err != nil {
		t.Fatal(err)
	}
	e := apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentDomains: []string{hosted.Domain}, ACME: pebble})

	// Only the ACME CA's roots: the node's local CA is not trusted.
	c, err := r.Dial(ctx, "tcp", net.JoinHostPort(e.Host, "443"))
	if err != nil {
		t.Fatal(err)
	}
	tc := tls.Client(c, &tls.Config{ServerName: e.Host, RootCAs: pebble.Roots, MinVersion: tls.VersionTLS13})
	if err := tc.HandshakeContext(ctx); err != nil {
		t.Fatalf("TLS with the node's ACME certificate: %v", err)
	}
	leaf := tc.ConnectionState().PeerCertificates[0]
	tc.Close()
	if leaf.Issuer.CommonName == e.NodeCA.Subject.CommonName {
		t.Fatalf("node served its local CA's certificate")
	}

	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: r.Dial,
		TLSClientConfig: &tls.Config{RootCAs: pebble.Roots, MinVersion: tls.VersionTLS13}, ForceAttemptHTTP2: true}}
	sess, err := agent.NewSession(agent.Config{Node: e.Host,
		Signer: &agent.Signer{Domain: hosted.Domain, Kid: "k1", Key: key}, HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sess.Call(ctx, "get_upcoming_travel", map[string]any{})
	var ar *agent.ApprovalRequired
	if !errors.As(err, &ar) || ar.MatchCode == "" {
		t.Fatalf("call with the public certificate = %v, want approval_required", err)
	}
}
