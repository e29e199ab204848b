package agent_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mailnode/agent"
	"mailnode/agent/agentproto"
	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/approvals"
	"mailnode/gateway"
	"mailnode/gateway/localca"
	"mailnode/gateway/phone/phoneclient"
	"mailnode/relay"
)

// agentHost publishes an agent's key document over TLS, as the agent's own
// web server would.
func agentHost(t *testing.T, domain string, pub ed25519.PublicKey) *httptest.Server {
	doc, err := agent.KeyDocument(domain, "k1", pub)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/svc-agent" {
			http.NotFound(w, r)
			return
		}
		w.Write(doc)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// startDemoNode runs a node on the demo mailbox with its gateway on a
// loopback port, trusting the agent host through the development
// overrides, and returns it with an HTTP client that trusts its CA.
func startDemoNode(t *testing.T, domain string, host *httptest.Server) (*app.Node, string, *http.Client) {
	t.Helper()
	return startDemoNodeLimited(t, domain, host, gateway.RateLimit{})
}

// startDemoNodeLimited is startDemoNode with the gateway's per-agent rate
// limit rl (zero: the gateway's default).
func startDemoNodeLimited(t *testing.T, domain string, host *httptest.Server, rl gateway.RateLimit) (*app.Node, string, *http.Client) {
	t.Helper()
	ctx := context.Background()
	n, err := app.New(apptest.Demo(t, app.Config{DataDir: t.TempDir(), Gateway: app.GatewayConfig{
		Listen:        "127.0.0.1:0",
		RateLimit:     rl,
		DevAgentAddrs: map[string]string{domain: host.Listener.Addr().String()},
		DevAgentCAs:   []*x509.Certificate{host.Certificate()},
	}, Services: app.Services{Gateway: true}}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := n.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	if _, err := n.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	url := n.GatewayURL()
	pem, err := os.ReadFile(n.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}, Timeout: 10 * time.Second}
	node := strings.TrimSuffix(strings.TrimPrefix(url, "https://"), "/mcp")
	return n, node, client
}

// pairPhone pairs a reference phone with n, as the user does.
func pairPhone(t *testing.T, n *app.Node, client *http.Client) *phoneclient.Device {
	t.Helper()
	ctx := context.Background()
	offer, err := n.Pair(ctx, app.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := phoneclient.Pair(ctx, client, offer.URL, "Test phone")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.ConfirmPhone(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	return d
}

// approveOnPhone approves the pending request id on the phone, over the
// prompt the phone was shown.
func approveOnPhone(t *testing.T, d *phoneclient.Device, id string) {
	t.Helper()
	st, err := d.State(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range st.Pending {
		if p, err := phoneclient.ReadPrompt(text); err == nil && p.ApprovalID == id {
			if _, err := d.Decide(context.Background(), text, approvals.Approve); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("request %s is not on the phone", id)
}

// TestSessionAgainstNode runs the SDK against a real node end to end: the
// session order, approval_required with its match code, the user's
// approval, the retried call, and per-call approval of get_excerpt.
func TestSessionAgainstNode(t *testing.T) {
	const domain = "agent.example.com"
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	n, node, client := startDemoNode(t, domain, agentHost(t, domain, pub))
	ctx := context.Background()

	s, err := agent.NewSession(agent.Config{Node: node, HTTPClient: client,
		Signer: &agent.Signer{Domain: domain, Kid: "k1", Key: priv}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	if len(s.Tools()) != 8 {
		t.Fatalf("Tools() = %d tools, want 8", len(s.Tools()))
	}
	if s.Version() != agent.ProtocolVersion {
		t.Fatalf("Version() = %q against a node, want %q", s.Version(), agent.ProtocolVersion)
	}

	// The first call waits for the user; "the user" approves on seeing
	// the match code, as they would on the phone.
	var asked []*agent.ApprovalRequired
	out, err := s.CallAndWait(ctx, "order_status", map[string]any{"merchant": "ikea"}, 50*time.Millisecond, func(ar *agent.ApprovalRequired) {
		asked = append(asked, ar)
		if ar.Agent != domain || ar.Tier != "structured_read" {
			t.Errorf("approval request %+v", ar)
		}
		if _, err := n.Decide(ctx, ar.MatchCode, true); err != nil {
			t.Error(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 {
		t.Fatalf("asked the user %d times, want 1", len(asked))
	}
	var orders struct{ Orders []map[string]any }
	if err := json.Unmarshal(out, &orders); err != nil || len(orders.Orders) == 0 {
		t.Fatalf("order_status = %s, %v; want the demo mailbox's IKEA order", out, err)
	}
	// Granted now: the next call of the tier runs at once.
	if _, err := s.Call(ctx, "bills_due", nil); err != nil {
		t.Fatalf("bills_due under the grant: %v", err)
	}
	var te *agent.ToolError
	if _, err := s.Call(ctx, "order_status", map[string]any{}); !errors.As(err, &te) || te.Code != "invalid_arguments" {
		t.Fatalf("order_status without merchant: %v", err)
	}

	// raw_read: approval every time, on the user's paired phone only.
	phone := pairPhone(t, n, client)
	excerpt := func() error {
		_, err := s.CallAndWait(ctx, "get_excerpt", map[string]any{"query": "booking"}, 50*time.Millisecond, func(ar *agent.ApprovalRequired) {
			approveOnPhone(t, phone, ar.ApprovalID)
		})
		return err
	}
	for range 2 {
		if err := excerpt(); err != nil {
			t.Fatal(err)
		}
	}
	log, _ := n.Audit(ctx, 0)
	required := 0
	for _, e := range log {
		if e.Tool == "get_excerpt" && e.Decision == "approval_required" {
			required++
		}
	}
	if required < 2 {
		t.Errorf("get_excerpt asked for approval %d times in the audit log, want 2", required)
	}

	// A refused request is an error the agent can show.
	_, err = s.CallAndWait(ctx, "ask", map[string]any{"question": "when do I fly?"}, 50*time.Millisecond, func(ar *agent.ApprovalRequired) {
		n.Decide(ctx, ar.ApprovalID, false)
	})
	if !errors.As(err, &te) || te.Code != "approval_denied" {
		t.Fatalf("denied ask: %v", err)
	}
}

// TestCallAndWaitRateLimited: an agent polling for its approval faster
// than the node's per-agent rate gets rate_limited with retry_after; the
// SDK waits that long and asks again instead of giving up (a CI run saw
// the offline queue's test end on "rate_limited" right after approval).
func TestCallAndWaitRateLimited(t *testing.T) {
	const domain = "agent.example.com"
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	n, node, client := startDemoNodeLimited(t, domain, agentHost(t, domain, pub),
		gateway.RateLimit{PerAgent: 1, Burst: 3, PerSite: 100, SiteBurst: 100})
	ctx := context.Background()
	s, err := agent.NewSession(agent.Config{Node: node, HTTPClient: client,
		Signer: &agent.Signer{Domain: domain, Kid: "k1", Key: priv}})
	if err != nil {
		t.Fatal(err)
	}
	// The person decides a while after the prompt: the 10 ms polls
	// meanwhile run past the bucket's three tokens.
	out, err := s.CallAndWait(ctx, "bills_due", nil, 10*time.Millisecond, func(ar *agent.ApprovalRequired) {
		time.AfterFunc(500*time.Millisecond, func() {
			if _, err := n.Decide(ctx, ar.MatchCode, true); err != nil {
				t.Error(err)
			}
		})
	})
	if err != nil {
		t.Fatalf("CallAndWait under a rate limit: %v", err)
	}
	if !json.Valid(out) {
		t.Fatalf("bills_due = %s", out)
	}
}

// TestOfflineQueue: when no TLS connection to the node can be made, the
// call is signed for the node's public URL, sealed to its box key and left
// at the relay; the relay can't read it, the node's key can.
func TestOfflineQueue(t *testing.T) {
	boxPub, boxPriv, _ := boxKeys()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	deadAddr := ln.Addr().String()
	ln.Close() // nothing listens: the node is offline

	var got struct {
		hostname, envelope, requestID string
	}
	relaySrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Envelope  string `json:"envelope"`
			RequestID string `json:"request_id"`
		}
		if r.Method != "POST" || !strings.HasPrefix(r.URL.Path, "/v1/queue/") || json.NewDecoder(r.Body).Decode(&body) != nil {
			http.Error(w, `{"error":"bad_request"}`, 400)
			return
		}
		got.hostname, got.envelope, got.requestID = strings.TrimPrefix(r.URL.Path, "/v1/queue/"), body.Envelope, body.RequestID
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte(`{"request_id":"` + body.RequestID + `","expires_at":1900000000}`))
	}))
	defer relaySrv.Close()

	s, _ := agent.NewSession(agent.Config{
		Node:   deadAddr,
		Signer: &agent.Signer{Domain: "agent.example.com", Kid: "k1", Key: priv},
		Queue: &agent.Queue{Relay: &agent.Relay{BaseURL: relaySrv.URL}, Resolution: relay.Resolution{
			Hostname: deadAddr, BoxPubKey: boxPub, QueueEndpoint: relaySrv.URL + relay.PathQueue,
		}},
	})
	_, err := s.Call(context.Background(), "bills_due", map[string]any{"before": 1900000000})
	var qe *agent.QueuedError
	if !errors.As(err, &qe) || qe.RequestID == "" || qe.RequestID != got.requestID {
		t.Fatalf("Call on an offline node = %v, want *QueuedError with the request id", err)
	}
	if got.hostname != deadAddr {
		t.Errorf("queued for %q, want %q", got.hostname, deadAddr)
	}
	plain := openEnvelope(t, got.envelope, boxPub, boxPriv)
	var env struct {
		Method, Path string
		Headers      map[string]string
		Body         map[string]any
	}
	if err := json.Unmarshal(plain, &env); err != nil {
		t.Fatal(err)
	}
	if env.Method != "POST" || env.Path != "/mcp" || env.Body["method"] != "tools/call" || env.Headers["host"] != deadAddr {
		t.Fatalf("envelope = %s", plain)
	}
	for _, h := range []string{"content-type", "accept", "content-digest", "signature-input", "signature"} {
		if env.Headers[h] == "" {
			t.Errorf("envelope lacks header %s", h)
		}
	}
	// A node never reached live is sent the contract's revision.
	params, _ := env.Body["params"].(map[string]any)
	if env.Headers["mcp-protocol-version"] != "" || params["_meta"] != nil {
		t.Errorf("envelope for a node never reached = %s, want the contract's revision", plain)
	}
}

// TestFallbackToLegacy: against an MCP server that does not serve
// 2026-07-28 (the official Go SDK's, narrowed to the 2025 revisions, as a
// node's would be), the session falls back to initialize at 2025-06-18 and
// works; the server's refusal is the SDK's own.
func TestFallbackToLegacy(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old", Version: "1"}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{"2025-11-25", "2025-06-18"},
	})
	srv.AddTool(&mcp.Tool{Name: "bills_due", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"bills":[]}`}}}, nil
		})
	var versions []string
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		versions = append(versions, r.Header.Get("Mcp-Protocol-Version"))
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	s, err := agent.NewSession(agent.Config{Node: strings.TrimPrefix(ts.URL, "https://"), HTTPClient: ts.Client(),
		Signer: &agent.Signer{Domain: "agent.example.com", Kid: "k1", Key: priv}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Call(context.Background(), "bills_due", nil)
	if err != nil || string(out) != `{"bills":[]}` {
		t.Fatalf("Call = %s, %v", out, err)
	}
	// server/discover at 2026-07-28, initialize (which names its
	// revision in the body), then the 2025-06-18 header on every request.
	want := []string{agent.ProtocolVersion, "", agent.LegacyProtocolVersion, agent.LegacyProtocolVersion, agent.LegacyProtocolVersion}
	if s.Version() != agent.LegacyProtocolVersion || !slices.Equal(versions, want) {
		t.Errorf("Version() = %q after sending Mcp-Protocol-Version %q, want %q", s.Version(), versions, want)
	}
}

func TestResolve(t *testing.T) {
	relaySrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Address string }
		json.NewDecoder(r.Body).Decode(&body)
		switch {
		case r.Header.Get("Content-Type") != "application/json":
			w.WriteHeader(400)
			w.Write([]byte(`{"error":"bad_request","detail":"json only"}`))
		case body.Address == "busy@example.com":
			w.Header().Set("Retry-After", "60")
			w.WriteHeader(429)
			w.Write([]byte(`{"error":"rate_limited","detail":"too many requests"}`))
		case !strings.Contains(body.Address, "@"):
			w.WriteHeader(400)
			w.Write([]byte(`{"error":"invalid_address","detail":"local@domain"}`))
		default:
			w.Write([]byte(`{"relay":"relay.example.net","hostname":"n-1.relay.example.net","box_pubkey":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","queue_endpoint":"https://relay.example.net/v1/queue"}`))
		}
	}))
	defer relaySrv.Close()
	r := &agent.Relay{BaseURL: relaySrv.URL}
	res, err := r.Resolve(context.Background(), "user@example.com")
	if err != nil || res.Hostname != "n-1.relay.example.net" {
		t.Fatalf("Resolve = %+v, %v", res, err)
	}
	var re *agent.RelayError
	if _, err := r.Resolve(context.Background(), "nope"); !errors.As(err, &re) || re.Code != "invalid_address" {
		t.Fatalf("invalid address: %v", err)
	}
	if _, err := r.Resolve(context.Background(), "busy@example.com"); !errors.As(err, &re) || re.Status != 429 || re.RetryAfter != time.Minute {
		t.Fatalf("rate limited: %v", err)
	}
}

// TestUntrustedNodeCertificate: a node that answers TLS with a certificate
// the agent does not trust is online, so the call is not queued; the error
// says so, naming the node and the certificate's issuer.
func TestUntrustedNodeCertificate(t *testing.T) {
	logger := slog.New(slog.DiscardHandler)
	nodeCA, err := localca.Open(t.TempDir(), logger, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	otherCA, err := localca.Open(t.TempDir(), logger, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	// A CA whose clock is 200 days behind issues leaves already expired.
	pastCA, err := localca.Open(t.TempDir(), logger, func() time.Time { return time.Now().Add(-200 * 24 * time.Hour) })
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		issuer   *localca.CA
		certHost string
		trust    *localca.CA
		want     error // the x509 error As must find
	}{
		{"CA not given", nodeCA, "127.0.0.1", otherCA, x509.UnknownAuthorityError{}},
		{"certificate for another name", nodeCA, "other.example", nodeCA, x509.HostnameError{}},
		{"expired certificate", pastCA, "127.0.0.1", pastCA, x509.CertificateInvalidError{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			leaf, err := tc.issuer.Leaf(tc.certHost)
			if err != nil {
				t.Fatal(err)
			}
			node := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				t.Error("the node got a request over an untrusted connection")
			}))
			node.TLS = &tls.Config{Certificates: []tls.Certificate{*leaf}}
			node.Config.ErrorLog = log.New(io.Discard, "", 0)
			node.StartTLS()
			defer node.Close()
			queued := 0
			relaySrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				queued++
				w.WriteHeader(http.StatusAccepted)
				w.Write([]byte(`{"request_id":"x","expires_at":1900000000}`))
			}))
			defer relaySrv.Close()

			roots := x509.NewCertPool()
			roots.AddCert(tc.trust.Cert())
			addr := node.Listener.Addr().String()
			boxPub, _, _ := boxKeys()
			_, priv, _ := ed25519.GenerateKey(rand.Reader)
			s, _ := agent.NewSession(agent.Config{
				Node:       addr,
				Signer:     &agent.Signer{Domain: "agent.example.com", Kid: "k1", Key: priv},
				HTTPClient: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}, Timeout: 10 * time.Second},
				Queue: &agent.Queue{Relay: &agent.Relay{BaseURL: relaySrv.URL}, Resolution: relay.Resolution{
					Hostname: addr, BoxPubKey: boxPub, QueueEndpoint: relaySrv.URL + relay.PathQueue,
				}},
			})
			_, err = s.Call(context.Background(), "bills_due", nil)
			var ue *agent.UntrustedCertError
			if !errors.As(err, &ue) {
				t.Fatalf("Call = %v, want *agent.UntrustedCertError", err)
			}
			if queued != 0 {
				t.Errorf("the call went to the offline queue %d times, want 0", queued)
			}
			if ue.Node != addr {
				t.Errorf("Node = %q, want %q", ue.Node, addr)
			}
			keyID := fmt.Sprintf("%02X:%02X", tc.issuer.Cert().SubjectKeyId[0], tc.issuer.Cert().SubjectKeyId[1])
			if !strings.Contains(ue.Issuer, "mailnode local CA") || !strings.Contains(ue.Issuer, "key id "+keyID) {
				t.Errorf("Issuer = %q, want the node CA's name and key id %s...", ue.Issuer, keyID)
			}
			if !strings.Contains(err.Error(), "does not trust") || !strings.Contains(err.Error(), addr) {
				t.Errorf("Error() = %q, want the node's name and 'does not trust'", err)
			}
			target := reflect.New(reflect.TypeOf(tc.want)).Interface()
			if !errors.As(err, target) {
				t.Errorf("Call = %v, want it to wrap %T", err, tc.want)
			}
		})
	}
}

// TestQueue2026: a session that spoke 2026-07-28 with its node, which
// then went away, leaves the call in the queue in that revision, its
// headers sealed with the rest (docs/protocol.md, "Queue envelopes of
// 2026-07-28").
func TestQueue2026(t *testing.T) {
	boxPub, boxPriv, _ := boxKeys()
	srv := mcp.NewServer(&mcp.Implementation{Name: "node", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "bills_due", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"bills":[]}`}}}, nil
		})
	ts := httptest.NewTLSServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	node := strings.TrimPrefix(ts.URL, "https://")
	var envelope string
	relaySrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Envelope  string `json:"envelope"`
			RequestID string `json:"request_id"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		envelope = body.Envelope
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte(`{"request_id":"` + body.RequestID + `","expires_at":1900000000}`))
	}))
	defer relaySrv.Close()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	s, _ := agent.NewSession(agent.Config{Node: node, HTTPClient: ts.Client(),
		Signer: &agent.Signer{Domain: "agent.example.com", Kid: "k1", Key: priv},
		Queue: &agent.Queue{Relay: &agent.Relay{BaseURL: relaySrv.URL}, Resolution: relay.Resolution{
			Hostname: node, BoxPubKey: boxPub, QueueEndpoint: relaySrv.URL + relay.PathQueue}},
	})
	if err := s.Initialize(context.Background()); err != nil || s.Version() != agent.ProtocolVersion {
		t.Fatalf("Initialize = %v, version %q", err, s.Version())
	}
	ts.Close() // the node goes away
	_, err := s.Call(context.Background(), "bills_due", map[string]any{})
	var qe *agent.QueuedError
	if !errors.As(err, &qe) {
		t.Fatalf("Call on a node gone = %v, want *QueuedError", err)
	}
	var env struct {
		Headers map[string]string
		Body    struct {
			Params struct {
				Name string         `json:"name"`
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
	}
	plain := openEnvelope(t, envelope, boxPub, boxPriv)
	if err := json.Unmarshal(plain, &env); err != nil {
		t.Fatal(err)
	}
	if env.Headers["mcp-protocol-version"] != "2026-07-28" || env.Headers["mcp-method"] != "tools/call" || env.Headers["mcp-name"] != "bills_due" ||
		env.Body.Params.Meta["io.modelcontextprotocol/protocolVersion"] != "2026-07-28" {
		t.Errorf("envelope = %s, want a 2026-07-28 call with its headers", plain)
	}
}

// TestApprovalRequiredWhere: the agent tells the user where to approve. A
// tier the node's own approvals command and desktop app can grant is not
// "on their phone" alone (a user without a paired phone looked for one);
// raw_read and send are approved on the phone only (docs/protocol.md).
func TestApprovalRequiredWhere(t *testing.T) {
	for _, tc := range []struct {
		tier      string
		phoneOnly bool
		where     string
	}{
		{"structured_read", false, "on their phone or at the node"},
		{"free_form_read", false, "on their phone or at the node"},
		{"compose", false, "on their phone or at the node"},
		{"raw_read", true, "on their phone"},
		{"send", true, "on their phone"},
	} {
		ar := &agent.ApprovalRequired{ApprovalRequired: agentproto.ApprovalRequired{Tier: tc.tier, Tool: "t", Agent: "a.example", MatchCode: "ABC-DEF"}}
		if got := ar.PhoneOnly(); got != tc.phoneOnly {
			t.Errorf("PhoneOnly(%s) = %v, want %v", tc.tier, got, tc.phoneOnly)
		}
		if got := ar.Where(); got != tc.where {
			t.Errorf("Where(%s) = %q, want %q", tc.tier, got, tc.where)
		}
		if got, want := ar.Error(), "approve t for a.example "+tc.where+" (match code ABC-DEF)"; !strings.Contains(got, want) {
			t.Errorf("Error(%s) = %q, want it to contain %q", tc.tier, got, want)
		}
	}
}
