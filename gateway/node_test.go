package gateway_test

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
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/approvals"
	"mailnode/approvals/site"
	"mailnode/extract/answer"
	"mailnode/gateway"
	"mailnode/gateway/agentkeys"
	"mailnode/gateway/localca"
	"mailnode/gateway/nonces"
	"mailnode/gateway/oauth"
	"mailnode/gateway/tools"
	"mailnode/mail/store"
)

// The test world: a node at node.example.net on a loopback port; agents'
// key documents served by one TLS server that answers for several
// example.com domains, reached through the fetcher's development
// overrides; two domains that resolve to loopback and private addresses
// and are not overridden.
const nodeName = "node.example.net"

// countingSource is the mail the tools read. It counts every access, so a
// test can prove that a refused request touched no mail. Its one message's
// text may be changed (setText), as when new mail arrives.
type countingSource struct {
	hits atomic.Int64
	text atomic.Pointer[string] // nil: flightText
}

const flightText = "Your flight to Lisbon departs from gate B12 at 10:40."

func (c *countingSource) setText(s string) { c.text.Store(&s) }

func (c *countingSource) TermStats(_ context.Context, terms []answer.Term) (map[string]int, int, error) {
	c.hits.Add(1)
	df := map[string]int{}
	for _, t := range terms {
		df[t.Word] = 1
	}
	return df, 100, nil
}

func (c *countingSource) Retrieve(context.Context, []answer.Term, map[string]int, int, int) ([]tools.Message, error) {
	c.hits.Add(1)
	return []tools.Message{{ID: 1, Date: time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC),
		From: "Air Example <noreply@air.example.com>", Subject: "Your flight LH 123 booking confirmation"}}, nil
}

func (c *countingSource) Text(context.Context, tools.Message) (string, bool, error) {
	c.hits.Add(1)
	if t := c.text.Load(); t != nil {
		return *t, false, nil
	}
	return flightText, false, nil
}

func (c *countingSource) Trips(context.Context, time.Time, time.Time, int) ([]json.RawMessage, error) {
	c.hits.Add(1)
	return []json.RawMessage{json.RawMessage(`{"id":"t_1","status":"confirmed","segments":[{"type":"flight","number":"LH 123"}]}`)}, nil
}

func (c *countingSource) About(context.Context, []string, int) ([]json.RawMessage, error) {
	c.hits.Add(1)
	return nil, nil
}

func (c *countingSource) Orders(context.Context, string, int) ([]json.RawMessage, error) {
	c.hits.Add(1)
	return []json.RawMessage{json.RawMessage(`{"id":"o_1","merchant":"Shop","status":"shipped"}`)}, nil
}

func (c *countingSource) BillsDue(context.Context, time.Time, int) ([]json.RawMessage, error) {
	c.hits.Add(1)
	return []json.RawMessage{json.RawMessage(`{"id":"b_1","issuer":"Power","status":"due"}`)}, nil
}

// keyDocs serves agents' key documents, keyed by the Host asked for.
type keyDocs struct {
	*httptest.Server
	docs map[string]func(w http.ResponseWriter, r *http.Request)
	// files are other documents served, by host and path (an OAuth
	// client's metadata document); their hosts must be in docs too.
	files map[string]string
	// root signs the server's certificates; nil: httptest's, which
	// names only example.com and the names one label under it.
	root *x509.Certificate
}

func doc(domain string, kid string, pub ed25519.PublicKey) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"domain":%q,"keys":[{"kid":%q,"kty":"OKP","crv":"Ed25519","x":%q}]}`,
			domain, kid, base64.RawURLEncoding.EncodeToString(pub))
	}
}

type agentKey struct {
	domain, kid string
	priv        ed25519.PrivateKey
	pub         ed25519.PublicKey
}

func newAgentKey(domain string) agentKey {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	return agentKey{domain: domain, kid: "k1", priv: priv, pub: pub}
}

func (a agentKey) keyID() string { return a.domain + "#" + a.kid }

func newKeyDocs(t testing.TB, agents ...agentKey) *keyDocs {
	k := newKeyDocsUnstarted(t, agents...)
	k.StartTLS()
	return k
}

// newKeyDocsAnyName is newKeyDocs for agent domains of any name, with a
// certificate for each from a local CA.
func newKeyDocsAnyName(t testing.TB, agents ...agentKey) *keyDocs {
	ca, err := localca.Open(t.TempDir(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := newKeyDocsUnstarted(t, agents...)
	k.root = ca.Cert()
	k.TLS = &tls.Config{GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		return ca.Leaf(hello.ServerName)
	}}
	k.StartTLS()
	return k
}

func newKeyDocsUnstarted(t testing.TB, agents ...agentKey) *keyDocs {
	k := &keyDocs{docs: map[string]func(http.ResponseWriter, *http.Request){}, files: map[string]string{}}
	for _, a := range agents {
		k.docs[a.domain] = doc(a.domain, a.kid, a.pub)
	}
	k.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.Host)
		if host == "" {
			host = r.Host
		}
		if f, ok := k.files[host+r.URL.Path]; ok {
			io.WriteString(w, f)
			return
		}
		if h := k.docs[host]; h != nil && r.URL.Path == agentkeys.Path {
			h(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(k.Close)
	return k
}

// fetcher is the production fetcher with the development overrides for
// the served domains, and a resolver that puts two domains on loopback
// and private addresses. file keeps its documents, as the node's does;
// "": memory only.
func (k *keyDocs) fetcher(file string) *agentkeys.Fetcher {
	dev := map[string]string{}
	for d := range k.docs {
		dev[d] = k.Listener.Addr().String()
	}
	root := k.root
	if root == nil {
		root = k.Certificate()
	}
	f := agentkeys.New(agentkeys.Config{
		File:       file,
		DevAddrs:   dev,
		DevRootCAs: []*x509.Certificate{root},
		LookupAddrs: func(_ context.Context, host string) ([]netip.Addr, error) {
			switch host {
			case "loopback.example.com":
				return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
			case "private.example.com":
				return []netip.Addr{netip.MustParseAddr("10.0.0.1")}, nil
			}
			return nil, errors.New("no such host")
		},
	}, nil)
	if err := f.Load(); err != nil {
		panic(err)
	}
	return f
}

// testNode is a gateway as the node runs it: over TLS with the local CA,
// nonces and approvals in one SQLite file.
type testNode struct {
	t         testing.TB
	dir       string
	addr      string // listener address
	host      string // nodeName:port, the signed authority
	url       string
	srv       *gateway.Server
	st        *store.Store
	approvals *approvals.Manager
	oauth     *oauth.Server
	source    *countingSource
	client    *http.Client
	stop      func()
}

// startNode starts a node on dir. addr may be "" for a fresh loopback
// port, or the address of a node that ran on dir before.
func startNode(t testing.TB, dir, addr string, keys *keyDocs, opts ...func(*gateway.Server)) *testNode {
	t.Helper()
	return startNodeSites(t, dir, addr, keys, nil, opts...)
}

// startNodeSites is startNode with the node's hosting suffixes, given to
// the approvals and the gateway alike as the node does.
func startNodeSites(t testing.TB, dir, addr string, keys *keyDocs, sites *site.Sites, opts ...func(*gateway.Server)) *testNode {
	t.Helper()
	ctx := context.Background()
	n := &testNode{t: t, dir: dir, source: &countingSource{}}
	st, err := store.Open(ctx, filepath.Join(dir, "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	n.st = st
	ndb, err := st.Attach(ctx, "nonces", nonces.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := nonces.New(ctx, ndb, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	adb, err := st.Attach(ctx, "approvals", approvals.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	n.approvals, err = approvals.New(ctx, adb, approvals.Config{Sites: sites}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := localca.Open(filepath.Join(dir, "ca"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	n.addr = ln.Addr().String()
	_, port, _ := net.SplitHostPort(n.addr)
	n.host = nodeName + ":" + port
	n.url = "https://" + n.host + "/mcp"
	fetcher := keys.fetcher(filepath.Join(dir, "agentkeys.json"))
	odb, err := st.Attach(ctx, "oauth", oauth.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	catalog := tools.Catalog(n.source, nil, nil)
	if n.oauth, err = oauth.New(oauth.Config{Docs: fetcher, Approvals: n.approvals, File: odb,
		Tiers: gateway.Tiers(catalog), Describe: gateway.ScopeText}, nil); err != nil {
		t.Fatal(err)
	}
	n.srv, err = gateway.New(gateway.Config{
		Hostname: n.host, Keys: fetcher, QueueKeys: fetcher.Held(), Nonces: ns, Approvals: n.approvals,
		Tools: catalog, Sites: sites, OAuth: n.oauth,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range opts {
		o(n.srv)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- n.srv.Serve(runCtx, ln, gateway.TLSConfig(ca.GetCertificate(nodeName))) }()

	roots := x509.NewCertPool()
	roots.AddCert(ca.Cert())
	jar, _ := cookiejar.New(nil) // a browser's, for the OAuth consent page's cookie
	n.client = &http.Client{
		Jar: jar,
		Transport: &http.Transport{
			TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13},
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, "tcp", n.addr)
			},
			MaxIdleConnsPerHost: 64,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       10 * time.Second,
	}
	var stopped bool
	n.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		n.client.CloseIdleConnections()
		ns.Close()
		n.approvals.Close()
		n.st.Close()
	}
	t.Cleanup(n.stop)
	return n
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// post sends body to /mcp with the headers every call carries and the
// signing headers h.
func (n *testNode) post(path string, body []byte, h http.Header) response {
	n.t.Helper()
	req, _ := http.NewRequest("POST", "https://"+n.host+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := n.client.Do(req)
	if err != nil {
		n.t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}
}

// grant approves tier for agent the way the user would.
func (n *testNode) grant(a agentKey, tool string, tier approvals.Tier) {
	n.t.Helper()
	d, err := n.approvals.Request(context.Background(), approvals.Call{Domain: a.domain, KeyFP: approvals.Fingerprint(a.pub), Tool: tool, Tier: tier})
	if err != nil || d.Approval == nil {
		n.t.Fatalf("request approval: %v %+v", err, d)
	}
	if _, err := n.approvals.Decide(context.Background(), d.Approval.ID, true); err != nil {
		n.t.Fatal(err)
	}
}

func rpc(id int, method string, params any) []byte {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if id > 0 {
		m["id"] = id
	}
	if params != nil {
		m["params"] = params
	}
	b, _ := json.Marshal(m)
	return b
}

func callTool(id int, name string, args any) []byte {
	return rpc(id, "tools/call", map[string]any{"name": name, "arguments": args})
}

func ed25519GenerateKey() (ed25519.PublicKey, ed25519.PrivateKey, error) {
	return ed25519.GenerateKey(rand.Reader)
}
