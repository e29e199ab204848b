package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/nacl/box"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/mail/demobox"
	"mailnode/relay"
	"mailnode/relay/devnet"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// TestQueueMixedSizesProcesses: the offline queue end to end with the
// mailnode-relay binary and a real node (issue 40, items 1 and 5). While
// the node is away, a full queue of 32 is left for it: calls of an agent
// the person granted, sealed by the agent SDK at sizes from under 1 KiB to
// the 64 KiB limit (around the 8 KiB that used to stop the queue), a call
// of a second agent without a grant, a call signed with the wrong key, and
// junk (random bytes; sealed bytes that are not a request; sealed JSON, a
// stranger's way to make a real node answer where a decoy never would). When the node
// comes up, all 32 are acknowledged in its first minutes online; each
// granted call's reply is there, sealed to the node, saying it was not
// run; the ungranted agent's call, from an agent the node does not keep
// across its restart (only granted agents' key documents are kept), is
// taken as a stranger's, with no prompt; and nothing else has a reply to
// poll: the relay answers 204 for them as it would for a decoy.
func TestQueueMixedSizesProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the relay")
	}
	ctx := t.Context()
	dir := t.TempDir()
	bin := relayBinary(t)
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ca, err := relaylocal.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Issue(relaylocal.Zone, "*.agents."+relaylocal.Zone)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	certFile := file("relay.crt", pemBlock("CERTIFICATE", cert.Certificate[0]))
	keyFile := file("relay.key", pemBlock("PRIVATE KEY", keyDER))
	relayCA := file("relay-ca.pem", pemBlock("CERTIFICATE", ca.Cert.Raw))

	// The node is registered in the relay's store before the relay
	// starts (registration by mail is TestThreeProcesses' subject).
	relayData := filepath.Join(dir, "relay")
	nodeData := filepath.Join(dir, "node")
	keys, err := relayclient.NewKeys()
	if err != nil {
		t.Fatal(err)
	}
	if err := relayclient.SaveKeys(filepath.Join(nodeData, "relay", "keys.json"), keys); err != nil {
		t.Fatal(err)
	}
	label := relayserver.NewLabel()
	host := label + "." + relaylocal.Zone
	st, err := relaystore.OpenSQLite(ctx, relayData)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.PutNode(ctx, relaystore.Node{Address: demobox.Address, Label: label, NodeKey: keys.NodePublic(),
		BoxKey: keys.BoxPublic(), RegisteredAt: time.Now()}); err != nil {
		t.Fatal(err)
	}

	relayProc := start(t, bin, "mailnode-relay", "serve", "--data-dir", relayData, "--zone", relaylocal.Zone,
		"--listen", "127.0.0.1:0", "--dns-listen", "127.0.0.1:0", "--public-ip", "127.0.0.1",
		"--tls-cert", certFile, "--tls-key", keyFile, "--rate-client", "1000", "--burst-client", "1000", "-v")
	tlsAddr := relayProc.await(t, `service=tls addr=(\S+)`, 10*time.Second)
	dnsAddr := relayProc.await(t, `service=dns addr=(\S+)`, 10*time.Second)
	_, port, _ := net.SplitHostPort(tlsAddr)
	var p int
	fmt.Sscan(port, &p)
	loop := devnet.Overrides{CAFiles: []string{relayCA}, DNS: dnsAddr, Port: p}
	relayTLS, err := loop.TLS()
	if err != nil {
		t.Fatal(err)
	}
	hc, err := loop.HTTPClient()
	if err != nil {
		t.Fatal(err)
	}
	rel := &agent.Relay{BaseURL: "https://" + relaylocal.Zone, HTTPClient: hc}

	// Two agents whose key documents the relay hosts.
	hostAgent := func() (string, ed25519.PrivateKey) {
		_, key, _ := ed25519.GenerateKey(nil)
		h, err := (&relayclient.API{BaseURL: "https://" + relaylocal.Zone, Key: key, HTTP: hc}).HostAgentKey(ctx, "k1")
		if err != nil {
			t.Fatal(err)
		}
		return h.Domain, key
	}
	granted, grantedKey := hostAgent()
	ungranted, ungrantedKey := hostAgent()

	var log apptest.Buffer
	startNode := func() *app.Node {
		t.Helper()
		n, err := app.New(apptest.Demo(t, app.Config{DataDir: nodeData,
			Gateway: app.GatewayConfig{Listen: "127.0.0.1:0", DevAgentAddrs: map[string]string{granted: tlsAddr, ungranted: tlsAddr},
				DevAgentCAs: []*x509.Certificate{ca.Cert}},
			Relay:    app.RelayConfig{URL: "https://" + relaylocal.Zone, HTTP: hc, TLS: relayTLS, Dial: loop.Dial()},
			Services: app.Services{Sync: true, Gateway: true, Relay: true},
		}), apptestLogger(&log))
		if err != nil {
			t.Fatal(err)
		}
		if err := n.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Stop() })
		return n
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(log.String())
		}
	})

	// Online first: the person grants the first agent; the second calls
	// live without a grant.
	node := startNode()
	awaitNodes(t, relayCA, dnsAddr, port, 1)
	nodeCA, err := os.ReadFile(node.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(nodeCA)
	agentHTTP := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: loop.Dial(),
		TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13}}}
	sess, err := agent.NewSession(agent.Config{Node: host, Signer: &agent.Signer{Domain: granted, Kid: "k1", Key: grantedKey}, HTTPClient: agentHTTP})
	if err != nil {
		t.Fatal(err)
	}
	var ar *agent.ApprovalRequired
	if _, err := sess.Call(ctx, "bills_due", map[string]any{}); !errors.As(err, &ar) {
		t.Fatalf("first call = %v, want approval_required", err)
	}
	if _, err := node.Decide(ctx, ar.MatchCode, true); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Call(ctx, "bills_due", map[string]any{}); err != nil {
		t.Fatalf("call under the grant: %v", err)
	}
	// The second agent has called live too (an agent's first contact
	// is live), but holds no grant: the node does not keep its key
	// document across the restart below.
	other, err := agent.NewSession(agent.Config{Node: host, Signer: &agent.Signer{Domain: ungranted, Kid: "k1", Key: ungrantedKey}, HTTPClient: agentHTTP})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Initialize(ctx); err != nil {
		t.Fatalf("the second agent's live initialize: %v", err)
	}
	res, err := rel.Resolve(ctx, demobox.Address)
	if err != nil || res.Hostname != host {
		t.Fatalf("resolve = %+v, %v", res, err)
	}
	node.Stop()
	awaitNodes(t, relayCA, dnsAddr, port, 0)

	// The queue, while the node is away.
	type envelope struct {
		name    string
		sealed  string // base64url
		granted bool   // a granted agent's call: its reply is posted
	}
	call := func(name string, signer *agent.Signer, size int) envelope {
		t.Helper()
		pad := 0
		for range 5 {
			body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
				"params": map[string]any{"name": "bills_due", "arguments": map[string]any{}, "_meta": map[string]string{"pad": strings.Repeat("p", pad)}}})
			req, _ := http.NewRequest(http.MethodPost, "https://"+host+"/mcp", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if err := signer.Sign(req, body); err != nil {
				t.Fatal(err)
			}
			env, err := agent.Seal(res.BoxPubKey, req, body)
			if err != nil {
				t.Fatal(err)
			}
			n := base64.RawURLEncoding.DecodedLen(len(env))
			if size == 0 || n == size {
				return envelope{name: name, sealed: env, granted: signer.Domain == granted && signer.Key.Equal(grantedKey)}
			}
			pad += size - n
		}
		t.Fatalf("%s: no call seals to %d bytes", name, size)
		return envelope{}
	}
	var boxKey [32]byte
	copy(boxKey[:], keys.BoxPublic())
	junk := func(name string, n int, seal bool) envelope {
		b := make([]byte, n)
		rand.Read(b)
		if seal {
			b, _ = box.SealAnonymous(nil, b, &boxKey, rand.Reader)
		}
		return envelope{name: name, sealed: base64.RawURLEncoding.EncodeToString(b)}
	}
	grantedSigner := &agent.Signer{Domain: granted, Kid: "k1", Key: grantedKey}
	sealedJSON := func(name, plain string, key *[32]byte) envelope {
		b, _ := box.SealAnonymous(nil, []byte(plain), key, rand.Reader)
		return envelope{name: name, sealed: base64.RawURLEncoding.EncodeToString(b)}
	}
	var q []envelope
	for _, size := range []int{0, 6 << 10, 7 << 10, 8<<10 - 1, 8 << 10, 8<<10 + 1, 9000, 16 << 10, relay.MaxEnvelope} {
		q = append(q, call(fmt.Sprintf("granted call of %d bytes", size), grantedSigner, size))
		q = append(q, junk(fmt.Sprintf("%d random bytes", max(size, 49)), max(size, 49), false))
	}
	q = append(q,
		call("ungranted agent's call", &agent.Signer{Domain: ungranted, Kid: "k1", Key: ungrantedKey}, 0),
		call("call signed with another key", &agent.Signer{Domain: granted, Kid: "k1", Key: ungrantedKey}, 9000),
		junk("1 byte sealed", 1, true),
		junk("8 KiB sealed, not a request", 8<<10, true),
		junk("64 KiB sealed, not a request", relay.MaxEnvelope-relay.SealOverhead, true),
		sealedJSON("{} sealed", `{}`, &boxKey),
		sealedJSON("unsigned request sealed", `{"method":"POST","path":"/mcp","headers":{"host":"`+host+`"},"body":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}`, &boxKey),
	)
	for i := 0; len(q) < relay.MaxQueued; i++ {
		n := relay.SealOverhead + 1 + int(randUint32()%uint32(relay.MaxEnvelope-relay.SealOverhead))
		q = append(q, junk(fmt.Sprintf("%d random bytes (%d)", n, i), n, false))
	}
	ids := make([]string, len(q))
	prefix := rand.Text()[:10]
	for i, e := range q {
		ids[i] = fmt.Sprintf("%s-%02d", prefix, i)
		// Each from a client network of its own, so that no share of a
		// name's slots one network may hold turns any away.
		got, err := (&agent.Relay{BaseURL: rel.BaseURL, HTTPClient: fromNetwork(tlsAddr, relayTLS, i)}).
			Enqueue(ctx, res.QueueEndpoint, host, e.sealed, ids[i])
		if err != nil {
			t.Fatalf("enqueue %s: %v", e.name, err)
		}
		// The receipt's id is the relay's own (issue 40, item 9): it is
		// what the reply is polled with.
		ids[i] = got.RequestID
	}

	// The node comes back.
	node = startNode()
	var waiting []relaystore.Envelope
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if waiting, err = st.Undelivered(ctx, label, time.Now(), relay.MaxQueued); err != nil {
			t.Fatal(err)
		}
		if len(waiting) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, w := range waiting {
		for i, id := range ids {
			if id == w.ID {
				t.Errorf("%s was not acknowledged within 60 s of the node starting", q[i].name)
			}
		}
	}
	var pub, priv [32]byte
	copy(pub[:], keys.BoxPublic())
	copy(priv[:], keys.Box.Bytes())
	for i, e := range q {
		sealed, ready, err := rel.Reply(ctx, ids[i])
		if err != nil {
			t.Errorf("reply to %s: %v", e.name, err)
			continue
		}
		if ready != e.granted {
			t.Errorf("reply to %s: ready %v, want %v", e.name, ready, e.granted)
		}
		if !ready {
			continue
		}
		b, _ := base64.RawURLEncoding.DecodeString(sealed)
		plain, ok := box.OpenAnonymous(nil, b, &pub, &priv)
		if !ok || !strings.Contains(string(plain), "queued_not_run") {
			t.Errorf("reply to %s opens %v: %.200s; want queued_not_run", e.name, ok, plain)
		}
	}
	pending, err := node.Pending(ctx)
	if err != nil || len(pending) != 0 {
		t.Errorf("pending = %+v, %v; want none (the ungranted agent is not kept across a restart)", pending, err)
	}
	if strings.Contains(relayProc.out.String(), "Queue delivery failed") {
		t.Error("a queue delivery failed")
	}
}

// fromNetwork is an HTTPS client of the relay at addr whose connections
// come from 127.0.n.1, an IPv4 /24 of their own.
func fromNetwork(addr string, tlsConfig *tls.Config, n int) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, byte(n), 1)}}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
		TLSClientConfig: tlsConfig.Clone(),
	}}
}

func randUint32() uint32 {
	var b [4]byte
	rand.Read(b[:])
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// apptestLogger is a debug logger into b, as apptest's.
func apptestLogger(b *apptest.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
