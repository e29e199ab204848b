package main

import (
	"bufio"
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/app/apptest"
)

// TestCallThroughQueue: `mailnode-agent call` with a node that is away
// leaves the call in the relay's queue and says so; when the node is back
// it has taken the call and opened the prompt, the command's live retry
// shows the match code, and once the person approves it prints the answer.
func TestCallThroughQueue(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	_, port, _ := net.SplitHostPort(r.Addr)
	relayCA := filepath.Join(dir, "relay-ca.pem")
	if err := os.WriteFile(relayCA, (&apptest.Relayed{Relay: r, NodeCA: r.CA.Cert}).CAPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	dev := []string{"--ca", relayCA, "--dev-dns", r.DNSAddr, "--dev-port", port}
	keyFile := filepath.Join(dir, "agent.key")
	var out, errb bytes.Buffer
	if code := run(append([]string{"keygen", "--relay", r.URL, "--key-file", keyFile}, dev...), &out, &errb); code != 0 {
		t.Fatalf("keygen --relay = %d: %s", code, errb.String())
	}
	domain := regexp.MustCompile(`Agent domain: (\S+)`).FindStringSubmatch(out.String())[1]
	nodeDir := filepath.Join(dir, "node")
	e := apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentDomains: []string{domain}, DataDir: nodeDir})
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, e.CAPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	dev[1] = caFile
	e.Node.Stop()

	cmd := exec.Command(os.Args[0], append([]string{"call", "--relay", r.URL, "--address", "alex.morgan@demo-mail.example",
		"--domain", domain, "--key", keyFile, "--wait", "2m"}, append(dev, "bills_due")...)...)
	cmd.Env = append(os.Environ(), "MAILNODE_AGENT_MAIN=1")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var said []string
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			said = append(said, sc.Text())
			mu.Unlock()
		}
	}()
	saw := func(re *regexp.Regexp) []string {
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			for _, l := range said {
				if m := re.FindStringSubmatch(l); m != nil {
					mu.Unlock()
					return m
				}
			}
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
		}
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("the command never said %v; it said:\n%s", re, strings.Join(said, "\n"))
		return nil
	}
	saw(regexp.MustCompile(`waits in the relay's queue as (\S+)`))

	back := apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentDomains: []string{domain}, DataDir: nodeDir})
	// bills_due's tier the user may approve at the node too (as below), not only on a phone.
	saw(regexp.MustCompile(`^Waiting for the user to approve on their phone or at the node: agent \S+, bills_due \(structured_read\)\.$`))
	code := saw(regexp.MustCompile(`Match code: (\S+)`))[1]
	if p := apptest.WaitPending(back.Node, 1); p != 1 {
		t.Errorf("%d prompts open, want the one the queued call opened", p)
	}
	if _, err := back.Node.Decide(ctx, code, true); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			mu.Lock()
			t.Fatalf("call exited with %v:\n%s", err, strings.Join(said, "\n"))
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("call did not finish after the approval")
	}
	if !strings.Contains(stdout.String(), "bills") {
		t.Errorf("call printed %q, want the bills", stdout.String())
	}
}

// TestCallUntrustedNode: `mailnode-agent call` through a relay whose --ca
// trusts the relay but not the node's own CA meets the node online with a
// certificate it does not trust: it says so, and does not queue the call.
func TestCallUntrustedNode(t *testing.T) {
	dir := t.TempDir()
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	_, port, _ := net.SplitHostPort(r.Addr)
	relayCA := filepath.Join(dir, "relay-ca.pem")
	if err := os.WriteFile(relayCA, (&apptest.Relayed{Relay: r, NodeCA: r.CA.Cert}).CAPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	dev := []string{"--ca", relayCA, "--dev-dns", r.DNSAddr, "--dev-port", port}
	keyFile := filepath.Join(dir, "agent.key")
	var out, errb bytes.Buffer
	if code := run(append([]string{"keygen", "--relay", r.URL, "--key-file", keyFile}, dev...), &out, &errb); code != 0 {
		t.Fatalf("keygen --relay = %d: %s", code, errb.String())
	}
	domain := regexp.MustCompile(`Agent domain: (\S+)`).FindStringSubmatch(out.String())[1]
	apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentDomains: []string{domain}, DataDir: filepath.Join(dir, "node")})

	out.Reset()
	errb.Reset()
	code := run(append([]string{"call", "--relay", r.URL, "--address", "alex.morgan@demo-mail.example",
		"--domain", domain, "--key", keyFile, "--wait", "30s"}, append(dev, "bills_due")...), &out, &errb)
	said := errb.String()
	if code != 1 {
		t.Errorf("call = %d, want 1; it said:\n%s", code, said)
	}
	for _, want := range []string{"does not trust", "mailnode local CA", "--ca"} {
		if !strings.Contains(said, want) {
			t.Errorf("call said %q, want it to contain %q", said, want)
		}
	}
	if strings.Contains(said, "queue as") || strings.Contains(said, "unreachable") {
		t.Errorf("call said %q, want no word of the offline queue", said)
	}
}
