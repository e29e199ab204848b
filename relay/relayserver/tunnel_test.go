package relayserver_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"

	"mailnode/relay"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relaystore"
)

func startLocal(t testing.TB, o relaylocal.Options) *relaylocal.Relay {
	t.Helper()
	if o.DataDir == "" {
		o.DataDir = t.TempDir()
	}
	r, err := relaylocal.Start(t.Context(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// registered puts a node with keys k for address into the relay's store,
// through a second handle on the same SQLite file.
func registered(t testing.TB, dir, address string, k relayclient.Keys) string {
	t.Helper()
	st, err := relaystore.OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	label := "aaaaaaaaaaaaaaa" + string(rune('a'+len(address)%26))
	if err := st.PutNode(t.Context(), relaystore.Node{Address: address, Label: label, NodeKey: k.NodePublic(),
		BoxKey: k.BoxPublic(), RegisteredAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	return label + "." + relaylocal.Zone
}

// node runs a tunnel for k and serves HTTPS on its streams with a
// certificate from ca, answering with its name.
type node struct {
	ups  chan string
	errs chan error
	stop func()
}

func runNode(t testing.TB, r *relaylocal.Relay, k relayclient.Keys, ca *relaylocal.CA, say string) *node {
	t.Helper()
	ln := relayclient.NewListener()
	n := &node{ups: make(chan string, 10), errs: make(chan error, 10)}
	tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, port(r.Addr)), Key: k.Node, TLS: r.CA.ClientTLS(), Dial: r.Dial,
		Up: func(h string) { send(n.ups, h) }, Down: func(err error) { send(n.errs, err) }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tun.Run(ctx, ln) }()
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, say) }),
		TLSConfig: &tls.Config{GetCertificate: func(h *tls.ClientHelloInfo) (*tls.Certificate, error) { return ca.Issue(h.ServerName) }}}
	go hs.ServeTLS(ln.View(), "", "")
	var once sync.Once
	n.stop = func() { once.Do(func() { cancel(); <-done; hs.Close(); ln.Close() }) }
	t.Cleanup(n.stop)
	return n
}

// send never blocks the tunnel on a slow test.
func send[T any](ch chan T, v T) {
	select {
	case ch <- v:
	default:
	}
}

func port(addr string) string { _, p, _ := net.SplitHostPort(addr); return p }

func (n *node) up(t testing.TB) string {
	t.Helper()
	select {
	case h := <-n.ups:
		return h
	case err := <-n.errs:
		t.Fatalf("tunnel down: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("tunnel not up")
	}
	return ""
}

func get(r *relaylocal.Relay, ca *relaylocal.CA, host string, timeout time.Duration) (string, error) {
	c := &http.Client{Timeout: timeout, Transport: &http.Transport{DialContext: r.Dial, TLSClientConfig: ca.ClientTLS(), DisableKeepAlives: true}}
	resp, err := c.Get("https://" + host + "/")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// TestTunnelTakeoverAndImpostor: the newest tunnel for a name wins over a
// stale one, which the relay closes; a key
// the relay does not know is refused; a hello signed for another TLS
// connection is refused.
func TestTunnelTakeoverAndImpostor(t *testing.T) {
	dir := t.TempDir()
	r := startLocal(t, relaylocal.Options{DataDir: dir})
	ca, _ := relaylocal.NewCA()
	k, _ := relayclient.NewKeys()
	host := registered(t, dir, "ann@example.com", k)

	// A stale tunnel: handshake done, then silent, as a connection that
	// died without a FIN looks to the relay.
	stale := dialTunnel(t, r)
	defer stale.Close()
	hello, err := relay.NewTunnelHello(stale.ConnectionState(), k.Node)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(hello)
	stale.Write(append(line, '\n'))
	stale.SetReadDeadline(time.Now().Add(5 * time.Second))
	if w, err := relay.ReadLine(stale, relay.MaxHandshakeLine); err != nil || !bytes.Contains(w, []byte(host)) {
		t.Fatalf("stale tunnel's welcome: %s %v", w, err)
	}
	// The node comes back on a new connection and takes its name over.
	n := runNode(t, r, k, ca, "fresh")
	if h := n.up(t); h != host {
		t.Fatalf("tunnel up as %s, want %s", h, host)
	}
	if got, err := get(r, ca, host, 5*time.Second); err != nil || got != "fresh" {
		t.Fatalf("through the newest tunnel: %q %v", got, err)
	}
	// The relay closed the stale one.
	stale.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.Copy(io.Discard, stale); err != nil {
		t.Fatalf("stale tunnel not closed by the relay: %v", err)
	}
	n.stop()

	// An impostor's key is refused before any stream.
	imp, _ := relayclient.NewKeys()
	tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, port(r.Addr)), Key: imp.Node, TLS: r.CA.ClientTLS(), Dial: r.Dial}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := tun.Run(ctx, relayclient.NewListener()); !errors.Is(err, relayclient.ErrNotRegistered) {
		t.Fatalf("impostor tunnel = %v, want ErrNotRegistered", err)
	}

	// A hello replayed from another TLS connection does not verify.
	a, b := dialTunnel(t, r), dialTunnel(t, r)
	defer a.Close()
	defer b.Close()
	hello, err = relay.NewTunnelHello(a.ConnectionState(), k.Node)
	if err != nil {
		t.Fatal(err)
	}
	line, _ = json.Marshal(hello)
	b.Write(append(line, '\n'))
	b.SetReadDeadline(time.Now().Add(5 * time.Second))
	answer, _ := relay.ReadLine(b, relay.MaxHandshakeLine)
	var w relay.TunnelWelcome
	if json.Unmarshal(answer, &w); w.Error == "" || w.Hostname != "" {
		t.Fatalf("replayed hello answered %s, want a refusal", answer)
	}
}

// dialTunnel opens TLS to the relay's own name with the tunnel protocol.
func dialTunnel(t *testing.T, r *relaylocal.Relay) *tls.Conn {
	t.Helper()
	raw, err := r.Dial(t.Context(), "tcp", net.JoinHostPort(relaylocal.Zone, "443"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := r.CA.ClientTLS()
	cfg.ServerName, cfg.NextProtos = relaylocal.Zone, []string{relay.TunnelALPN}
	c := tls.Client(raw, cfg)
	if err := c.Handshake(); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestUnknownDecoyOfflineStall: a connection for an unknown name, a decoy
// name and a registered node that is offline is accepted and never gets
// a byte of TLS back; a live node answers.
func TestUnknownDecoyOfflineStall(t *testing.T) {
	dir := t.TempDir()
	r := startLocal(t, relaylocal.Options{DataDir: dir})
	ca, _ := relaylocal.NewCA()
	k, _ := relayclient.NewKeys()
	offline := registered(t, dir, "off@example.com", k)
	decoy := resolveHost(t, r, "nobody@example.com")
	for _, host := range []string{"zzzzzzzzzzzzzzzz." + relaylocal.Zone, decoy, offline, "not-a-label." + relaylocal.Zone} {
		raw, err := r.Dial(t.Context(), "tcp", net.JoinHostPort(host, "443"))
		if err != nil {
			t.Fatalf("%s: TCP refused: %v", host, err)
		}
		c := tls.Client(raw, &tls.Config{ServerName: host, InsecureSkipVerify: true})
		ctx, cancel := context.WithTimeout(t.Context(), 400*time.Millisecond)
		err = c.HandshakeContext(ctx)
		cancel()
		if err == nil || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: handshake = %v, want a stall until our deadline", host, err)
		}
		raw.Close()
	}
	n := runNode(t, r, k, ca, "online")
	n.up(t)
	if got, err := get(r, ca, offline, 5*time.Second); err != nil || got != "online" {
		t.Fatalf("once online: %q %v", got, err)
	}
}

func resolveHost(t *testing.T, r *relaylocal.Relay, address string) string {
	t.Helper()
	resp, err := r.HTTPClient().Post(r.URL+relay.PathResolve, "application/json", bytes.NewReader([]byte(`{"address":"`+address+`"}`)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var res relay.Resolution
	json.NewDecoder(resp.Body).Decode(&res)
	return res.Hostname
}

// TestRelayRestart: nodes reconnect to a restarted relay on their own,
// within 2 s.
func TestRelayRestart(t *testing.T) {
	dir := t.TempDir()
	r := startLocal(t, relaylocal.Options{DataDir: dir})
	ca, _ := relaylocal.NewCA()
	k, _ := relayclient.NewKeys()
	host := registered(t, dir, "ann@example.com", k)
	n := runNode(t, r, k, ca, "hello")
	n.up(t)
	addr, dnsAddr, rca := r.Addr, r.DNSAddr, r.CA
	r.Close()
	<-n.errs
	stopped := time.Now()
	r2, err := relaylocal.Start(t.Context(), relaylocal.Options{DataDir: dir, Addr: addr, DNSAddr: dnsAddr, CA: rca}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	n.up(t)
	took := time.Since(stopped)
	t.Logf("reconnected %v after the relay stopped", took)
	if took > 2*time.Second {
		t.Fatalf("reconnect took %v, want < 2 s", took)
	}
	if got, err := get(r2, ca, host, 5*time.Second); err != nil || got != "hello" {
		t.Fatalf("after restart: %q %v", got, err)
	}
}

// TestDNS: every name in the zone has the same address; the apex has SOA
// and NS; _acme-challenge TXT holds only what the node set; other zones
// are refused.
func TestDNS(t *testing.T) {
	dir := t.TempDir()
	r := startLocal(t, relaylocal.Options{DataDir: dir})
	k, _ := relayclient.NewKeys()
	host := registered(t, dir, "ann@example.com", k)
	ask := func(name string, qt uint16) *dns.Msg {
		m := new(dns.Msg)
		m.SetQuestion(dns.Fqdn(name), qt)
		in, err := dns.Exchange(m, r.DNSAddr)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return in
	}
	for _, name := range []string{host, resolveHost(t, r, "x@example.com"), "unknownxxxxxxxxx." + relaylocal.Zone, relaylocal.Zone} {
		in := ask(name, dns.TypeA)
		if !in.Authoritative || len(in.Answer) != 1 || in.Answer[0].(*dns.A).A.String() != "127.0.0.1" {
			t.Errorf("%s A = %v", name, in)
		}
	}
	if in := ask(relaylocal.Zone, dns.TypeSOA); len(in.Answer) != 1 {
		t.Errorf("SOA = %v", in)
	}
	if in := ask(relaylocal.Zone, dns.TypeNS); len(in.Answer) != 1 {
		t.Errorf("NS = %v", in)
	}
	if in := ask("example.com", dns.TypeA); in.Rcode != dns.RcodeRefused {
		t.Errorf("outside the zone: rcode %d, want REFUSED", in.Rcode)
	}
	api := &relayclient.API{BaseURL: r.URL, Key: k.Node, HTTP: r.HTTPClient()}
	if err := api.SetChallenges(t.Context(), []string{"token-value-1"}); err != nil {
		t.Fatal(err)
	}
	in := ask("_acme-challenge."+host, dns.TypeTXT)
	if len(in.Answer) != 1 || in.Answer[0].(*dns.TXT).Txt[0] != "token-value-1" {
		t.Fatalf("TXT = %v", in)
	}
	// Another key cannot touch it, nor set one for itself without being a node.
	other, _ := relayclient.NewKeys()
	if err := (&relayclient.API{BaseURL: r.URL, Key: other.Node, HTTP: r.HTTPClient()}).SetChallenges(t.Context(), []string{"x"}); !relayclient.IsCode(err, "not_registered") {
		t.Fatalf("stranger's challenge = %v", err)
	}
	if err := api.SetChallenges(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if in := ask("_acme-challenge."+host, dns.TypeTXT); len(in.Answer) != 0 || len(in.Ns) != 1 {
		t.Fatalf("cleared TXT = %v", in)
	}
}

// TestNodeSignature: self-service calls with a bad signature, an old
// time or a replayed nonce are refused.
func TestNodeSignature(t *testing.T) {
	r := startLocal(t, relaylocal.Options{})
	k, _ := relayclient.NewKeys()
	api := &relayclient.API{BaseURL: r.URL, Key: k.Node, HTTP: r.HTTPClient()}
	if _, err := api.Status(t.Context()); !relayclient.IsCode(err, "not_registered") {
		t.Fatalf("status of a fresh key = %v, want not_registered", err)
	}
	old := &relayclient.API{BaseURL: r.URL, Key: k.Node, HTTP: r.HTTPClient(), Now: func() time.Time { return time.Now().Add(-10 * time.Minute) }}
	if _, err := old.Status(t.Context()); !relayclient.IsCode(err, "unauthorized") {
		t.Fatalf("status signed 10 minutes ago = %v, want unauthorized", err)
	}
	_, wrong, _ := ed25519.GenerateKey(nil)
	req, _ := http.NewRequest(http.MethodGet, r.URL+relay.PathNodeStatus, nil)
	req.Header.Set(relay.HeaderNodeKey, relay.EncodeKey(k.NodePublic()))
	req.Header.Set(relay.HeaderNodeTime, "1")
	req.Header.Set(relay.HeaderNodeNonce, "AAAAAAAAAAAAAAAAAAAAAA")
	req.Header.Set(relay.HeaderNodeSig, relay.EncodeKey(ed25519.Sign(wrong, []byte("x")))[:10])
	resp, err := r.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("bad signature: %d, want 401", resp.StatusCode)
	}
}

// TestSilentNodeDropped: a node whose tunnel stops answering (power cut,
// NAT state lost: no FIN ever arrives) loses its tunnel within two
// keepalive periods, and its name stalls like any offline name.
func TestSilentNodeDropped(t *testing.T) {
	dir := t.TempDir()
	const every = 500 * time.Millisecond
	r := startLocal(t, relaylocal.Options{DataDir: dir, KeepAlive: every})
	k, _ := relayclient.NewKeys()
	host := registered(t, dir, "ann@example.com", k)

	// The tunnel handshake, then silence: nothing reads the relay's pings.
	silent := dialTunnel(t, r)
	defer silent.Close()
	hello, err := relay.NewTunnelHello(silent.ConnectionState(), k.Node)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(hello)
	silent.Write(append(line, '\n'))
	silent.SetReadDeadline(time.Now().Add(5 * time.Second))
	if w, err := relay.ReadLine(silent, relay.MaxHandshakeLine); err != nil || !bytes.Contains(w, []byte(host)) {
		t.Fatalf("welcome: %s %v", w, err)
	}
	if n := r.Server.ConnectedNodes(); n != 1 {
		t.Fatalf("ConnectedNodes() = %d after the welcome, want 1", n)
	}
	start := time.Now()
	for r.Server.ConnectedNodes() != 0 {
		if time.Since(start) > 10*every {
			t.Fatalf("silent tunnel still counted after %v", time.Since(start))
		}
		time.Sleep(every / 10)
	}
	// Two periods, and one more of slack for a loaded machine.
	if d := time.Since(start); d > 3*every {
		t.Errorf("silent tunnel dropped after %v, want within two periods (%v)", d, 2*every)
	}
	// The relay closed its end: the connection reads EOF (after the pings
	// it sent and nobody answered).
	silent.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.Copy(io.Discard, silent); err != nil {
		t.Fatalf("silent tunnel not closed by the relay: %v", err)
	}
	// Its name now stalls.
	raw, err := r.Dial(t.Context(), "tcp", net.JoinHostPort(host, "443"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	c := tls.Client(raw, &tls.Config{ServerName: host, InsecureSkipVerify: true})
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if err := c.HandshakeContext(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("name of a dropped tunnel: handshake = %v, want a stall", err)
	}
}
