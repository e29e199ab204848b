package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"

	"mailnode/app/apptest"
	"mailnode/relay"
	"mailnode/relay/acmetest"
	"mailnode/relay/relayserver"
)

// servedRelay is a `serve` run by relayMain.
type servedRelay struct {
	cancel context.CancelFunc
	done   chan error
	stderr *apptest.Buffer
	addrs  map[string]string
}

func startServe(t *testing.T, want int, args ...string) *servedRelay {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &servedRelay{cancel: cancel, done: make(chan error, 1), stderr: &apptest.Buffer{}, addrs: map[string]string{}}
	ready := make(chan [2]string, 4)
	go func() {
		r.done <- relayMain(ctx, append([]string{"serve"}, args...), io.Discard, r.stderr, func(name, addr string) { ready <- [2]string{name, addr} })
	}()
	for len(r.addrs) < want {
		select {
		case a := <-ready:
			r.addrs[a[0]] = a[1]
		case err := <-r.done:
			cancel()
			t.Fatalf("serve ended: %v\n%s", err, r.stderr.String())
		case <-time.After(10 * time.Second):
			cancel()
			t.Fatalf("serve did not listen\n%s", r.stderr.String())
		}
	}
	return r
}

func (r *servedRelay) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			t.Errorf("serve returned %v on cancel", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("serve did not stop on cancel")
	}
}

// TestServeACME: `serve --acme` against Pebble, whose validation asks the
// relay's own DNS: the TLS port answers the API name (the agent API) and
// a hosted agent's name with one certificate chaining to the CA's root,
// each step is logged, the challenges are withdrawn; a restart serves the
// stored certificate without ordering (its CA is unreachable).
func TestServeACME(t *testing.T) {
	// The DNS port is chosen first: Pebble must know where to ask.
	pc, ln, err := relayserver.ListenDNS("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dnsAddr := pc.LocalAddr().String()
	pc.Close()
	ln.Close()
	pebble := acmetest.Start(dnsAddr, 0, nil)
	defer pebble.Close()
	dir := t.TempDir()
	caFile := filepath.Join(dir, "pebble-server.pem")
	if err := os.WriteFile(caFile, pebble.ServerPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	args := []string{"--data-dir", data, "--zone", "relay.test", "--public-ip", "127.0.0.1",
		"--listen", "127.0.0.1:0", "--dns-listen", dnsAddr, "--acme", "--acme-ca", caFile, "--acme-email", "hostmaster@example.org"}

	r := startServe(t, 2, append(args, "--acme-directory", pebble.DirectoryURL)...)
	agentName := "abcdefghijklmnop.agents.relay.test"
	handshake := func(name string) (*tls.Conn, error) {
		d := &net.Dialer{Timeout: 5 * time.Second}
		return tls.DialWithDialer(d, "tcp", r.addrs["tls"], &tls.Config{ServerName: name, RootCAs: pebble.Roots})
	}
	var serial string
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		c, err := handshake("relay.test")
		if err == nil {
			serial = c.ConnectionState().PeerCertificates[0].SerialNumber.String()
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no certificate from Pebble: %v\n%s", err, r.stderr.String())
		}
	}
	c, err := handshake(agentName)
	if err != nil {
		t.Fatalf("hosted agent's name: %v", err)
	}
	if got := c.ConnectionState().PeerCertificates[0].SerialNumber.String(); got != serial {
		t.Errorf("hosted agent's name served certificate %s, the API name %s: want one for both", got, serial)
	}
	c.Close()
	// The agent API over it.
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pebble.Roots},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, r.addrs["tls"])
		}}}
	resp, err := hc.Get("https://relay.test" + relay.PathHealth)
	if err != nil {
		t.Fatal(err)
	}
	var h relay.Health
	json.NewDecoder(resp.Body).Decode(&h)
	resp.Body.Close()
	if h.Status != "ok" {
		t.Fatalf("health over the ACME certificate = %+v", h)
	}
	// The challenges are gone from the zone.
	for _, name := range []string{"relay.test", "agents.relay.test"} {
		m := new(dns.Msg)
		m.SetQuestion("_acme-challenge."+name+".", dns.TypeTXT)
		if in, err := dns.Exchange(m, dnsAddr); err != nil || len(in.Answer) != 0 {
			t.Errorf("_acme-challenge.%s after the order = %v, %v", name, in, err)
		}
	}
	log := r.stderr.String()
	for _, step := range []string{"Ordering a certificate", "Published the ACME challenge", "The CA validated the challenge", "New certificate"} {
		if !strings.Contains(log, step) {
			t.Errorf("the log lacks %q:\n%s", step, log)
		}
	}
	r.stop(t)

	// Restarted with a CA that does not answer: the stored certificate.
	r = startServe(t, 2, append(args, "--acme-directory", "https://127.0.0.1:1/directory")...)
	defer r.stop(t)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, err := handshake(agentName)
		if err == nil {
			got := c.ConnectionState().PeerCertificates[0].SerialNumber.String()
			c.Close()
			if got != serial {
				t.Fatalf("after a restart: certificate %s, want the stored %s", got, serial)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a restart: %v\n%s", err, r.stderr.String())
		}
	}
	if log := r.stderr.String(); strings.Contains(log, "Ordering a certificate") || !strings.Contains(log, "Serving the stored certificate") {
		t.Errorf("a restart ordered a certificate, or did not say it serves the stored one:\n%s", log)
	}
}

// TestACMEFlags: --acme's flags go with it, and it does not go with a
// certificate of another origin.
func TestACMEFlags(t *testing.T) {
	base := []string{"serve", "--data-dir", t.TempDir(), "--zone", "relay.test"}
	for _, extra := range [][]string{
		{"--acme", "--tls-cert", "c.pem", "--tls-key", "k.pem"},
		{"--acme", "--dev"},
		{"--acme-email", "a@example.org"},
		{"--acme-directory", "https://ca.example/dir"},
		{"--acme", "--api-name", "api.example.org"},
	} {
		args := append(append([]string(nil), base...), extra...)
		if _, ok := relayMain(context.Background(), args, io.Discard, io.Discard, nil).(usageError); !ok {
			t.Errorf("relayMain(%q): want a usage error", args)
		}
	}
}
