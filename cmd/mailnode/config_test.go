package main

import (
	"crypto/x509"
	"encoding/pem"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"math/big"
)

// TestDevAgentFlags (hardening item 13): --dev-agent and --dev-agent-ca
// reach the gateway's development overrides, only from flags, only to
// loopback.
func TestDevAgentFlags(t *testing.T) {
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.pem")
	writeTestCert(t, caFile)
	parse := func(args ...string) (options, error) {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var o options
		o.register(fs, true)
		return o, fs.Parse(args)
	}
	getenv := func(k string) string {
		return map[string]string{"MAILNODE_DATA_DIR": dir, "MAILNODE_DEV_AGENT": "evil.example=10.0.0.1:443"}[k]
	}

	o, err := parse("--dev-agent", "My-Agent.test=127.0.0.1:9443", "--dev-agent", "other.test=localhost:9444", "--dev-agent-ca", caFile)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := o.load(getenv)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Gateway.DevAgentAddrs; len(got) != 2 || got["my-agent.test"] != "127.0.0.1:9443" || got["other.test"] != "localhost:9444" {
		t.Errorf("DevAgentAddrs = %v", got)
	}
	if len(cfg.Gateway.DevAgentCAs) != 1 {
		t.Errorf("DevAgentCAs = %d certificates, want 1", len(cfg.Gateway.DevAgentCAs))
	}

	// Off unless given: the environment does not turn them on.
	o, _ = parse()
	if cfg, err := o.load(getenv); err != nil || cfg.Gateway.DevAgentAddrs != nil || cfg.Gateway.DevAgentCAs != nil {
		t.Errorf("without flags: %v %v %v", cfg.Gateway.DevAgentAddrs, cfg.Gateway.DevAgentCAs, err)
	}
	for _, bad := range [][]string{
		{"--dev-agent", "my-agent.test=10.0.0.1:443"},
		{"--dev-agent", "my-agent.test=agent.example.com:443"},
		{"--dev-agent", "my-agent.test"},
		{"--dev-agent", "localhost=127.0.0.1:9443"},
		{"--dev-agent", "my-agent.test=127.0.0.1"},
	} {
		if _, err := parse(bad...); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	o, _ = parse("--dev-agent-ca", filepath.Join(dir, "missing.pem"))
	if _, err := o.load(getenv); err == nil {
		t.Error("a missing CA file was accepted")
	}
	os.WriteFile(filepath.Join(dir, "junk.pem"), []byte("not a certificate"), 0o600)
	o, _ = parse("--dev-agent-ca", filepath.Join(dir, "junk.pem"))
	if _, err := o.load(getenv); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Errorf("a file without a certificate: %v", err)
	}
}

func writeTestCert(t *testing.T, path string) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
}
