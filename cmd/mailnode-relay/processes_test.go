package main

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"mailnode/app/apptest"
	"mailnode/assets"
	"mailnode/mail/demobox"
	"mailnode/relay"
	"mailnode/relay/acmetest"
	"mailnode/relay/devnet"
	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
)

// TestThreeProcesses runs the relay, the node and the agent as their own
// binaries, as people run them, on loopback: the node registers and
// confirms by the code the relay mails to its IMAP mailbox, gets its
// certificate from an ACME CA (Pebble, in this process) through the
// relay's DNS, and the agent's call arrives through resolve, DNS, SNI and
// the tunnel, checked against that CA's roots and not the node's local
// one; the user approves with the node's command line; the relay is
// restarted and the node reconnects by itself; a stale tunnel with the
// node's key takes the name and the node takes it back; a key the relay
// does not know gets no tunnel; and once the node is gone its name and an
// unknown address look alike.
func TestThreeProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three binaries")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", bin+"/", "mailnode/cmd/mailnode", "mailnode/cmd/mailnode-relay", "mailnode/cmd/mailnode-agent")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}

	// The user's mail provider: IMAP with the demo mailbox, and the
	// submission server the relay mails its code through.
	imap, err := demobox.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer imap.Close()
	if _, err := imap.Seed(assets.DemoMailbox(), time.Now()); err != nil {
		t.Fatal(err)
	}
	smtp, err := demobox.StartSMTP(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer smtp.Close()
	smtp.DeliverLocally(imap.Deliver)
	password := file("password", []byte(demobox.Password))

	// The relay's own certificate, from a CA the agent and node are told of.
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
	smtpCA := file("smtp-ca.pem", pemBlock("CERTIFICATE", smtp.CA.Raw))

	relayData := filepath.Join(dir, "relay")
	relayArgs := func(listen, dnsListen string) []string {
		return []string{"serve", "--data-dir", relayData, "--zone", relaylocal.Zone,
			"--listen", listen, "--dns-listen", dnsListen, "--public-ip", "127.0.0.1",
			"--tls-cert", certFile, "--tls-key", keyFile,
			"--smtp-server", smtp.Addr, "--smtp-user", demobox.Username, "--smtp-password-file", password, "--smtp-ca", smtpCA}
	}
	relayProc := start(t, bin, "mailnode-relay", relayArgs("127.0.0.1:0", "127.0.0.1:0")...)
	tlsAddr := relayProc.await(t, `service=tls addr=(\S+)`, 10*time.Second)
	dnsAddr := relayProc.await(t, `service=dns addr=(\S+)`, 10*time.Second)
	_, port, _ := strings.Cut(tlsAddr, ":")
	dev := []string{"--dev-dns", dnsAddr, "--dev-port", port}

	pebble := acmetest.Start(dnsAddr, 0, nil)
	defer pebble.Close()
	pebbleServer := file("pebble-server.pem", pebble.ServerPEM())
	// The agent trusts the relay's CA (for the relay's API) and the ACME
	// CA's roots: not the node's local CA.
	agentCA := file("agent-ca.pem", append(pemBlock("CERTIFICATE", ca.Cert.Raw), pebble.RootPEM...))

	// The agent has no domain: the relay hosts its key document.
	agentKey := filepath.Join(dir, "agent.key")
	out := runBin(t, bin, "mailnode-agent", append([]string{"keygen", "--relay", "https://" + relaylocal.Zone, "--key-file", agentKey, "--ca", relayCA}, dev...)...)
	domain := regexp.MustCompile(`[a-z0-9-]+\.agents\.` + regexp.QuoteMeta(relaylocal.Zone)).FindString(out)
	if domain == "" {
		t.Fatalf("keygen printed no agent domain:\n%s", out)
	}

	nodeData := filepath.Join(dir, "node")
	node := start(t, bin, "mailnode", "serve", "--data-dir", nodeData,
		"--imap-server", imap.Addr, "--imap-security", "plain", "--imap-user", demobox.Username, "--imap-password-file", password,
		"--relay", "https://"+relaylocal.Zone, "--relay-address", demobox.Address, "--relay-acme", pebble.DirectoryURL,
		"--dev-relay-ca", relayCA, "--dev-relay-ca", pebbleServer, "--dev-relay-dns", dnsAddr, "--dev-relay-port", port,
		"--dev-agent", domain+"="+tlsAddr, "--dev-agent-ca", relayCA)
	node.await(t, `New certificate for the relay name`, 60*time.Second)
	awaitNodes(t, relayCA, dnsAddr, port, 1)

	// The agent's first call waits for the user; the user approves on
	// the node's command line with the match code the agent printed.
	call := func(wantApproval bool) string {
		t.Helper()
		agentArgs := append([]string{"call", "--relay", "https://" + relaylocal.Zone, "--address", demobox.Address,
			"--domain", domain, "--key", agentKey, "--ca", agentCA, "--wait", "60s"}, dev...)
		p := start(t, bin, "mailnode-agent", append(agentArgs, "bills_due", `{}`)...)
		code := p.awaitOrExit(t, `Match code: (\S+)`, 30*time.Second)
		if (code != "") != wantApproval {
			t.Fatalf("match code %q, want one: %v\n%s", code, wantApproval, p.out.String())
		}
		if code != "" {
			runBin(t, bin, "mailnode", "approvals", "approve", code, "--data-dir", nodeData)
		}
		if err := p.wait(60 * time.Second); err != nil {
			t.Fatalf("agent call: %v\n%s", err, p.out.String())
		}
		return p.stdout.String()
	}
	if got := call(true); !strings.Contains(got, `"bills"`) {
		t.Fatalf("bills_due through the relay answered:\n%s", got)
	}

	// The relay restarts on the same ports; the node reconnects by itself.
	relayProc.stop(t)
	relayProc = start(t, bin, "mailnode-relay", relayArgs(tlsAddr, dnsAddr)...)
	relayProc.await(t, `service=tls`, 10*time.Second)
	awaitNodes(t, relayCA, dnsAddr, port, 1)
	// The grant stands: no second approval.
	if got := call(false); !strings.Contains(got, `"bills"`) {
		t.Fatalf("bills_due after the relay's restart answered:\n%s", got)
	}

	var p int
	fmt.Sscan(port, &p)
	loop := devnet.Overrides{CAFiles: []string{relayCA}, DNS: dnsAddr, Port: p}
	relayTLS, _ := loop.TLS()
	// A key the relay does not know gets no tunnel.
	_, impostor, _ := ed25519.GenerateKey(nil)
	ictx, icancel := context.WithTimeout(t.Context(), 10*time.Second)
	err = (&relayclient.Tunnel{Addr: relaylocal.Zone + ":443", Key: impostor, TLS: relayTLS, Dial: loop.Dial()}).Run(ictx, relayclient.NewListener())
	icancel()
	if !errors.Is(err, relayclient.ErrNotRegistered) {
		t.Fatalf("impostor's tunnel: %v, want ErrNotRegistered", err)
	}

	// A stale tunnel with the node's key (a connection the relay still
	// holds, say across a NAT change) takes the name; the node, its own
	// tunnel closed by the relay, dials again and takes it back.
	keys, err := relayclient.LoadKeys(filepath.Join(nodeData, "relay", "keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := loop.Dial()(t.Context(), "tcp", relaylocal.Zone+":443")
	if err != nil {
		t.Fatal(err)
	}
	staleCfg := relayTLS.Clone()
	staleCfg.ServerName, staleCfg.NextProtos = relaylocal.Zone, []string{relay.TunnelALPN}
	stale := tls.Client(raw, staleCfg)
	defer stale.Close()
	if err := stale.HandshakeContext(t.Context()); err != nil {
		t.Fatal(err)
	}
	hello, err := relay.NewTunnelHello(stale.ConnectionState(), keys.Node)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(hello)
	stale.Write(append(line, '\n'))
	stale.SetReadDeadline(time.Now().Add(5 * time.Second))
	if w, err := relay.ReadLine(stale, relay.MaxHandshakeLine); err != nil || !strings.Contains(string(w), "hostname") {
		t.Fatalf("stale tunnel's welcome: %s %v", w, err)
	}
	ups := strings.Count(node.out.String(), `msg="Tunnel up"`)
	for deadline := time.Now().Add(10 * time.Second); strings.Count(node.out.String(), `msg="Tunnel up"`) == ups; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("node did not take its name back:\n%s", node.out.String())
		}
	}
	stale.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.Copy(io.Discard, stale); err != nil {
		t.Fatalf("stale tunnel not closed by the relay: %v", err)
	}
	if got := call(false); !strings.Contains(got, `"bills"`) {
		t.Fatalf("bills_due after the takeover answered:\n%s", got)
	}

	// Offline, unknown: the same answer shape, and TLS that never
	// completes, alike.
	node.stop(t)
	awaitNodes(t, relayCA, dnsAddr, port, 0)
	hc, _ := loop.HTTPClient()
	for _, address := range []string{demobox.Address, "nobody@demo-mail.example"} {
		resp, err := hc.Post("https://"+relaylocal.Zone+relay.PathResolve, "application/json", strings.NewReader(`{"address":"`+address+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		var res map[string]any
		json.NewDecoder(resp.Body).Decode(&res)
		resp.Body.Close()
		host, _ := res["hostname"].(string)
		if resp.StatusCode != 200 || len(res) != 4 || !strings.HasSuffix(host, "."+relaylocal.Zone) {
			t.Fatalf("resolve %s = %d %v", address, resp.StatusCode, res)
		}
		c, err := loop.Dial()(t.Context(), "tcp", host+":443")
		if err != nil {
			t.Fatalf("%s: TCP refused: %v", address, err)
		}
		tc := tls.Client(c, &tls.Config{ServerName: host, RootCAs: relayTLS.RootCAs})
		hctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		err = tc.HandshakeContext(hctx)
		cancel()
		c.Close()
		if err == nil || hctx.Err() == nil {
			t.Fatalf("%s: TLS = %v, want a stall", address, err)
		}
	}
}

func pemBlock(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

// awaitNodes waits until the relay's health counts n live tunnels.
func awaitNodes(t *testing.T, caFile, dnsAddr, port string, n int) {
	t.Helper()
	var p int
	fmt.Sscan(port, &p)
	hc, err := devnet.Overrides{CAFiles: []string{caFile}, DNS: dnsAddr, Port: p}.HTTPClient()
	if err != nil {
		t.Fatal(err)
	}
	hc.Timeout = 2 * time.Second
	var last string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		resp, err := hc.Get("https://" + relaylocal.Zone + relay.PathHealth)
		if err != nil {
			last = err.Error()
			continue
		}
		var h relay.Health
		json.NewDecoder(resp.Body).Decode(&h)
		resp.Body.Close()
		if h.NodesConnected == n {
			return
		}
		last = fmt.Sprintf("%+v", h)
	}
	t.Fatalf("relay never counted %d nodes: %s", n, last)
}

// proc is a started binary with its output.
type proc struct {
	cmd    *exec.Cmd
	out    *apptest.Buffer // stdout and stderr
	stdout *apptest.Buffer
	done   chan error
}

func env(t *testing.T) []string {
	var e []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MAILNODE_") && !strings.HasPrefix(kv, "HOME=") {
			e = append(e, kv)
		}
	}
	return append(e, "HOME="+t.TempDir())
}

func start(t *testing.T, bin, name string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(filepath.Join(bin, name), args...), out: &apptest.Buffer{}, stdout: &apptest.Buffer{}, done: make(chan error, 1)}
	p.cmd.Env = env(t)
	p.cmd.Stdout = multi{p.out, p.stdout}
	p.cmd.Stderr = p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			p.cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("%s %s:\n%s", name, strings.Join(args, " "), p.out.String())
		}
	})
	return p
}

// runBin runs a binary to its end and returns its stdout and stderr.
func runBin(t *testing.T, bin, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, name), args...)
	cmd.Env = env(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// await waits for re in the output and returns its first group (or the
// match).
func (p *proc) await(t *testing.T, re string, d time.Duration) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := rx.FindStringSubmatch(p.out.String()); m != nil {
			return m[len(m)-1]
		}
		select {
		case err := <-p.done:
			p.done <- err
			t.Fatalf("%s ended (%v) before printing %q:\n%s", p.cmd.Path, err, re, p.out.String())
		default:
		}
	}
	t.Fatalf("%s did not print %q in %v:\n%s", p.cmd.Path, re, d, p.out.String())
	return ""
}

// awaitOrExit is await that returns "" if the process ends first.
func (p *proc) awaitOrExit(t *testing.T, re string, d time.Duration) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := rx.FindStringSubmatch(p.out.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-p.done:
			p.done <- err
			return ""
		default:
		}
	}
	t.Fatalf("%s did not print %q in %v:\n%s", p.cmd.Path, re, d, p.out.String())
	return ""
}

func (p *proc) wait(d time.Duration) error {
	select {
	case err := <-p.done:
		p.done <- err
		return err
	case <-time.After(d):
		return fmt.Errorf("still running after %v", d)
	}
}

// stop ends the process with SIGTERM, as a service manager would.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.wait(10 * time.Second); err != nil {
		t.Fatalf("%s on SIGTERM: %v\n%s", p.cmd.Path, err, p.out.String())
	}
}

// multi writes to both buffers.
type multi [2]*apptest.Buffer

func (m multi) Write(b []byte) (int, error) {
	m[0].Write(b)
	return m[1].Write(b)
}
