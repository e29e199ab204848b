package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"

	"mailnode/app/apptest"
	"mailnode/relay"
	"mailnode/relay/devnet"
	"mailnode/relay/relaylocal"
)

// TestDevRefusesNonLoopback: every address a --dev relay listens on is
// on loopback, its defaults included, or it refuses to start with a usage
// error saying why, before it writes anything.
func TestDevRefusesNonLoopback(t *testing.T) {
	// A data directory that is a file: a start that passes the checks
	// fails there, with an error that is not a usage error.
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flags   []string
		refused string // the flag named in the usage error; empty: accepted
	}{
		{nil, ""},
		{[]string{"--listen", ":4443"}, "--listen :4443"},
		{[]string{"--listen", "0.0.0.0:4443"}, "--listen 0.0.0.0:4443"},
		{[]string{"--listen", "192.0.2.1:4443"}, "--listen 192.0.2.1:4443"},
		{[]string{"--dns-listen", ":53"}, "--dns-listen :53"},
		{[]string{"--dns-listen", "[::]:4053"}, "--dns-listen [::]:4053"},
		{[]string{"--http-listen", ":8080"}, "--http-listen :8080"},
		{[]string{"--listen", "example.com:4443"}, "--listen example.com:4443"},
		{[]string{"--listen", "[::1]:0", "--dns-listen", "localhost:0", "--http-listen", "127.0.0.2:0"}, ""},
	} {
		args := append([]string{"serve", "--dev", "--data-dir", notADir}, tc.flags...)
		err := relayMain(context.Background(), args, io.Discard, io.Discard, nil)
		_, usage := err.(usageError)
		switch {
		case tc.refused != "" && (!usage || !strings.Contains(err.Error(), tc.refused) || !strings.Contains(err.Error(), "loopback")):
			t.Errorf("relayMain(%q) = %v, want a usage error naming %q and loopback", args, err, tc.refused)
		case tc.refused == "" && (err == nil || usage):
			t.Errorf("relayMain(%q) = %v, want it past the checks, failing on the data directory", args, err)
		}
	}
	for _, args := range [][]string{
		{"serve", "--dev", "--db", "postgres://localhost/relay"},                  // the CA needs a directory
		{"serve", "--data-dir", notADir, "--zone", "z.test", "--dev-ca-dir", "x"}, // --dev-ca-dir without --dev
	} {
		if _, ok := relayMain(context.Background(), args, io.Discard, io.Discard, nil).(usageError); !ok {
			t.Errorf("relayMain(%q): want a usage error", args)
		}
	}
}

// devRelay is a `serve --dev` relay run by relayMain.
type devRelay struct {
	cancel context.CancelFunc
	done   chan error
	stderr *apptest.Buffer
	addrs  map[string]string
}

func startDev(t *testing.T, args ...string) *devRelay {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	d := &devRelay{cancel: cancel, done: make(chan error, 1), stderr: &apptest.Buffer{}, addrs: map[string]string{}}
	ready := make(chan [2]string, 4)
	go func() {
		d.done <- relayMain(ctx, append([]string{"serve", "--dev"}, args...), io.Discard, d.stderr,
			func(name, addr string) { ready <- [2]string{name, addr} })
	}()
	for len(d.addrs) < 2 {
		select {
		case a := <-ready:
			d.addrs[a[0]] = a[1]
		case err := <-d.done:
			cancel()
			t.Fatalf("serve --dev ended: %v\n%s", err, d.stderr.String())
		case <-time.After(10 * time.Second):
			cancel()
			t.Fatalf("serve --dev did not listen\n%s", d.stderr.String())
		}
	}
	t.Cleanup(func() { d.stop(t) })
	return d
}

// stop cancels the relay and checks that it returns nil; again, nothing.
func (d *devRelay) stop(t *testing.T) {
	t.Helper()
	if d.cancel == nil {
		return
	}
	d.cancel()
	d.cancel = nil
	select {
	case err := <-d.done:
		if err != nil {
			t.Errorf("serve --dev returned %v on cancel", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("serve --dev did not stop on cancel")
	}
}

// agentFlags waits for the line telling agents how to reach the relay and
// returns its flags as overrides, as mailnode-agent would read them.
func (d *devRelay) agentFlags(t *testing.T) devnet.Overrides {
	t.Helper()
	re := regexp.MustCompile(`(?m)^Agents \(mailnode-agent\): --ca (\S+) --dev-dns (\S+) --dev-port (\d+)$`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(d.stderr.String()); m != nil {
			port, _ := strconv.Atoi(m[3])
			return devnet.Overrides{CAFiles: []string{m[1]}, DNS: m[2], Port: port}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no line for agents:\n%s", d.stderr.String())
		}
	}
}

// TestServeDev: `serve --dev` makes its CA in DATA/dev-ca (key 0600),
// prints how to trust it with the real paths and ports, answers its
// health over TLS to a client that trusts that CA file alone and dials
// through the printed DNS and port, answers the zone in DNS, and on a
// restart keeps the same CA.
func TestServeDev(t *testing.T) {
	data := t.TempDir()
	caFile := filepath.Join(data, "dev-ca", relaylocal.CAFile)
	args := []string{"--data-dir", data, "--listen", "127.0.0.1:0", "--dns-listen", "127.0.0.1:0"}
	d := startDev(t, args...)
	o := d.agentFlags(t)
	// The phones' line is written after the agents' one: a loaded machine
	// can be read between the two.
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(d.stderr.String(), "Phones (mailnode-phone):") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	_, port, _ := net.SplitHostPort(d.addrs["tls"])
	if o.CAFiles[0] != caFile || o.DNS != d.addrs["dns"] || strconv.Itoa(o.Port) != port {
		t.Errorf("agents' line = %+v, want --ca %s --dev-dns %s --dev-port %s", o, caFile, d.addrs["dns"], port)
	}
	for _, want := range []string{
		"Development relay " + relaylocal.Zone + " on " + d.addrs["tls"] + " (DNS " + d.addrs["dns"] + "), CA " + caFile + "\n",
		"Node (mailnode serve):   --relay https://" + relaylocal.Zone + " --dev-relay-ca " + caFile +
			" --dev-relay-dns " + d.addrs["dns"] + " --dev-relay-port " + port + "\n",
		"Phones (mailnode-phone): --ca NODE_DATA_DIR/ca/ca.pem --dev-dns " + d.addrs["dns"] + " --dev-port " + port + "\n",
		"development relay",
	} {
		if !strings.Contains(d.stderr.String(), want) {
			t.Errorf("serve --dev did not print %q:\n%s", want, d.stderr.String())
		}
	}
	for file, mode := range map[string]os.FileMode{relaylocal.CAFile: 0o644, relaylocal.CAKeyFile: 0o600} {
		if fi, err := os.Stat(filepath.Join(data, "dev-ca", file)); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("dev-ca/%s: %v %v, want mode %v", file, fi.Mode(), err, mode)
		}
	}
	first, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	checkDevRelay(t, o, first)

	d.stop(t)
	d = startDev(t, args...)
	again, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, again) {
		t.Fatal("a restart made a new CA: nodes and agents would have to trust it again")
	}
	checkDevRelay(t, d.agentFlags(t), first)
}

// checkDevRelay gets the relay's health over TLS trusting caPEM alone,
// through the DNS server and port o names, and looks a node's name up.
func checkDevRelay(t *testing.T, o devnet.Overrides, caPEM []byte) {
	t.Helper()
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		t.Fatal("no certificate in the CA file")
	}
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext: o.Dial(), TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13}}}
	resp, err := hc.Get("https://" + relaylocal.Zone + relay.PathHealth)
	if err != nil {
		t.Fatalf("health over TLS: %v", err)
	}
	var h relay.Health
	json.NewDecoder(resp.Body).Decode(&h)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || h.Status != "ok" {
		t.Fatalf("health = %d %+v", resp.StatusCode, h)
	}
	m := new(dns.Msg)
	m.SetQuestion("abc."+relaylocal.Zone+".", dns.TypeA)
	in, err := dns.Exchange(m, o.DNS)
	if err != nil || len(in.Answer) != 1 || !in.Answer[0].(*dns.A).A.Equal(net.IPv4(127, 0, 0, 1)) {
		t.Fatalf("dns A abc.%s = %v %v, want 127.0.0.1", relaylocal.Zone, in, err)
	}
}
