package main

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mailnode/app"
	"mailnode/app/apptest"
)

// TestServeDocAgainstANode (hardening item 13): one's own agent, its key
// document served by serve-doc on loopback, calls a local node started
// with the development overrides, as the README shows.
func TestServeDocAgainstANode(t *testing.T) {
	dir := t.TempDir()
	key, doc, cert := filepath.Join(dir, "agent.key"), filepath.Join(dir, "svc-agent.json"), filepath.Join(dir, "ca.pem")
	var out, errb bytes.Buffer
	if code := run([]string{"keygen", "--domain", "my-agent.test", "--key-file", key, "--doc-file", doc}, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready, served := make(chan string, 1), make(chan error, 1)
	go func() { served <- runServeDoc(ctx, doc, "127.0.0.1:0", cert, &out, func(a string) { ready <- a }) }()
	var docAddr string
	select {
	case docAddr = <-ready:
	case err := <-served:
		t.Fatal(err)
	}
	b, _ := os.ReadFile(cert)
	blk, _ := pem.Decode(b)
	c, err := x509.ParseCertificate(blk.Bytes)
	if err != nil {
		t.Fatal(err)
	}

	n, err := app.New(apptest.Demo(t, app.Config{DataDir: filepath.Join(dir, "node"), Gateway: app.GatewayConfig{
		Listen: "127.0.0.1:0", DevAgentAddrs: map[string]string{"my-agent.test": docAddr}, DevAgentCAs: []*x509.Certificate{c},
	}, Services: app.Services{Gateway: true}}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	url := n.GatewayURL()
	node := strings.TrimSuffix(strings.TrimPrefix(url, "https://"), "/mcp")
	out.Reset()
	errb.Reset()
	code := run([]string{"call", "--node", node, "--ca", n.CAFile(), "--domain", "my-agent.test", "--key", key, "--wait", "1s",
		"bills_due"}, &out, &errb)
	// The signature verified against the served document: the node asks
	// the user, and the agent shows the match code.
	if !strings.Contains(out.String()+errb.String(), "Match code") {
		t.Fatalf("call = %d\nstdout: %s\nstderr: %s", code, out.String(), errb.String())
	}
}
