package main

import (
	"crypto/x509"
	"encoding/pem"
	"flag"
	"io"
	"mailnode/app"
	"mailnode/relay/relayclient"
	"os"
	"path/filepath"
	"slices"
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

// TestRelayFlags: the relay is opt-in (flag, environment, or a URL in
// the settings file, never the built-in default alone), and with it the
// gateway listens, on loopback unless told, to serve the tunnel.
func TestRelayFlags(t *testing.T) {
	dir := t.TempDir()
	config := func(env map[string]string, args ...string) app.Config {
		t.Helper()
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var o options
		o.register(fs, true)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		env["MAILNODE_DATA_DIR"] = dir
		cfg, err := o.load(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	load := func(env map[string]string, args ...string) (string, string, string) {
		t.Helper()
		cfg := config(env, args...)
		return cfg.Relay.URL, cfg.Relay.Address, cfg.Gateway.Listen
	}
	for _, tc := range []struct {
		name                 string
		env                  map[string]string
		args                 []string
		url, address, listen string
	}{
		{"off by default", map[string]string{}, nil, "", "", ""},
		{"flag", map[string]string{}, []string{"--relay", "https://relay.example.net", "--relay-address", "ann@example.com"},
			"https://relay.example.net", "ann@example.com", "127.0.0.1:0"},
		{"environment", map[string]string{"MAILNODE_RELAY": "https://r.example", "MAILNODE_LISTEN": ":8443"}, nil,
			"https://r.example", "", ":8443"},
	} {
		url, addr, listen := load(tc.env, tc.args...)
		if url != tc.url || addr != tc.address || listen != tc.listen {
			t.Errorf("%s: relay %q address %q listen %q; want %q %q %q", tc.name, url, addr, listen, tc.url, tc.address, tc.listen)
		}
	}
	// The relay name's certificate: Let's Encrypt unless told.
	acme := func(env map[string]string, args ...string) string {
		t.Helper()
		return config(env, args...).Relay.ACME
	}
	if got := acme(map[string]string{}, "--relay", "https://r.example"); got != relayclient.LetsEncrypt {
		t.Errorf("default ACME directory %q", got)
	}
	if got := acme(map[string]string{"MAILNODE_RELAY_ACME": "off"}, "--relay", "https://r.example"); got != "" {
		t.Errorf("ACME off: %q", got)
	}
	if got := acme(map[string]string{}, "--relay", "https://relay.test", "--dev-relay-port", "8443"); got != "" {
		t.Errorf("ACME with a relay on loopback: %q, want none unless named", got)
	}
	if got := acme(map[string]string{}, "--relay-acme", "https://ca.example/dir"); got != "https://ca.example/dir" {
		t.Errorf("--relay-acme: %q", got)
	}
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"version":2,"relay":{"url":"https://settings.example"}}`), 0o600)
	if url, _, _ := load(map[string]string{}); url != "https://settings.example" {
		t.Errorf("relay from the settings file = %q", url)
	}
}

// TestHostingSuffixes: the agent hosting suffixes come from the settings
// file, then MAILNODE_AGENT_HOSTING_SUFFIXES, then --agent-hosting-suffix,
// each in place of the one before.
func TestHostingSuffixes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.json"),
		[]byte(`{"version":2,"accounts":[],"gateway":{"agent_hosting_suffixes":["agents.file.example"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  string
		args []string
		want []string
	}{
		{"settings file", "", nil, []string{"agents.file.example"}},
		{"environment", "a.env.example, b.env.example", nil, []string{"a.env.example", "b.env.example"}},
		{"flags", "a.env.example", []string{"--agent-hosting-suffix", "x.flag.example", "--agent-hosting-suffix", "y.flag.example"},
			[]string{"x.flag.example", "y.flag.example"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var o options
			o.register(fs, true)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"MAILNODE_DATA_DIR": dir, "MAILNODE_AGENT_HOSTING_SUFFIXES": tc.env}
			cfg, err := o.load(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cfg.Gateway.HostingSuffixes, tc.want) {
				t.Errorf("HostingSuffixes = %q, want %q", cfg.Gateway.HostingSuffixes, tc.want)
			}
		})
	}
}

// TestPlainSMTPFlags: --smtp-security plain (sending approved drafts) is
// refused off loopback unless --allow-insecure, the flag that allows
// plain IMAP too.
func TestPlainSMTPFlags(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"off loopback", []string{"--smtp-server", "smtp.example.com:25", "--smtp-security", "plain"}, "refusing plain SMTP to smtp.example.com"},
		{"off loopback, allowed", []string{"--smtp-server", "smtp.example.com:25", "--smtp-security", "plain", "--allow-insecure"}, ""},
		{"on loopback", []string{"--smtp-server", "127.0.0.1:2525", "--smtp-security", "plain"}, ""},
		{"starttls off loopback", []string{"--smtp-server", "smtp.example.com:587"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var o options
			o.register(fs, true)
			args := append([]string{"--imap-server", "imap.example.com:993", "--imap-user", "ann@example.com"}, tc.args...)
			if err := fs.Parse(args); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"MAILNODE_DATA_DIR": t.TempDir(), "MAILNODE_IMAP_PASSWORD": "pw"}
			_, err := o.load(func(k string) string { return env[k] })
			if (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("load(%q) = %v, want %q", args, err, tc.wantErr)
			}
		})
	}
}

// TestDevRelayAgentZone: a node pointed at a development relay fetches
// the key documents of the agents that relay hosts (agents.<its zone>)
// through the relay's development DNS, port and CA; without the
// development flags, through public DNS as every other agent.
func TestDevRelayAgentZone(t *testing.T) {
	dir := t.TempDir()
	caFile := filepath.Join(dir, "relay-ca.pem")
	writeTestCert(t, caFile)
	for _, tc := range []struct {
		name      string
		args      []string
		wantZones []string
		wantCAs   int
	}{
		{"development relay", []string{"--relay", "https://Relay.Test", "--dev-relay-ca", caFile, "--dev-relay-dns", "127.0.0.1:5353", "--dev-relay-port", "8443"},
			[]string{"agents.relay.test"}, 1},
		{"development port only", []string{"--relay", "https://relay.test", "--dev-relay-port", "8443"}, []string{"agents.relay.test"}, 0},
		{"public relay", []string{"--relay", "https://relay.example.net"}, nil, 0},
		{"development relay by IP address", []string{"--relay", "https://127.0.0.1:8443", "--dev-relay-ca", caFile}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var o options
			o.register(fs, true)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			cfg, err := o.load(func(k string) string { return map[string]string{"MAILNODE_DATA_DIR": dir}[k] })
			if err != nil {
				t.Fatal(err)
			}
			g := cfg.Gateway
			if !slices.Equal(g.DevAgentZones, tc.wantZones) || len(g.DevAgentCAs) != tc.wantCAs || (g.DevAgentDial != nil) != (tc.wantZones != nil) {
				t.Errorf("DevAgentZones = %q, %d CAs, dial %v; want %q, %d CAs, dial %v",
					g.DevAgentZones, len(g.DevAgentCAs), g.DevAgentDial != nil, tc.wantZones, tc.wantCAs, tc.wantZones != nil)
			}
		})
	}
}
