package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCheckCommand runs `mailnode-relay check` against a relay that
// `mailnode-relay serve` runs on loopback, with the relay's certificate
// from a CA the system does not trust and no parent zone to ask: the
// relay's DNS passes over UDP and TCP, what cannot pass fails with its
// words, one line per check, and the exit status is 1. (Every check
// passing and each failing on its own: relay/relaycheck.)
func TestCheckCommand(t *testing.T) {
	dir := t.TempDir()
	_, certFile, keyFile := relayCert(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs := make(chan [2]string, 4)
	done := make(chan error, 1)
	var serveErr bytes.Buffer
	go func() {
		done <- relayMain(ctx, []string{"serve", "--data-dir", dir, "--zone", "relay.test", "--listen", "127.0.0.1:0",
			"--dns-listen", "127.0.0.1:0", "--public-ip", "127.0.0.1", "--tls-cert", certFile, "--tls-key", keyFile},
			io.Discard, &serveErr, func(name, addr string) { addrs <- [2]string{name, addr} })
	}()
	got := map[string]string{}
	for len(got) < 2 {
		select {
		case a := <-addrs:
			got[a[0]] = a[1]
		case err := <-done:
			t.Fatalf("serve ended: %v\n%s", err, serveErr.String())
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not listen")
		}
	}
	closed := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().String()
	}
	pw := filepath.Join(dir, "smtp-password")
	if err := os.WriteFile(pw, []byte("not-in-the-output\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := relayMain(ctx, []string{"check", "--zone", "relay.test", "--public-ip", "127.0.0.1",
		"--listen", got["tls"], "--dns-listen", got["dns"], "--resolver", closed(), "--timeout", "2s",
		"--acme-directory", "https://" + closed() + "/directory",
		"--smtp-server", closed(), "--smtp-user", "relay", "--smtp-password-file", pw,
		// serve's flags that check does not use are taken and ignored
		"--data-dir", dir, "--tls-cert", certFile, "--tls-key", keyFile, "--rate-client", "5", "-v"},
		&stdout, &stderr, nil)
	out := stdout.String()
	t.Log("\n" + out)
	if err == nil || !strings.Contains(err.Error(), "checks failed") {
		t.Errorf("check = %v, want checks failed (exit status 1)", err)
	}
	if _, usage := err.(usageError); usage {
		t.Errorf("check = %v, a usage error (exit status 2), want 1", err)
	}
	if code := run([]string{"check", "--zone", "relay.test", "--listen", closed(), "--timeout", "1s", "--resolver", closed(),
		"--acme-directory", "https://" + closed() + "/"}, io.Discard, io.Discard); code != 1 {
		t.Errorf("run(check ...) = exit status %d, want 1", code)
	}
	line := regexp.MustCompile(`^(ok  |FAIL)  [^:]+: .+|^      hint: .+`)
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if !line.MatchString(sc.Text()) {
			t.Errorf("line %q is neither a check nor its hint", sc.Text())
		}
	}
	for _, want := range []string{
		"FAIL  delegation: ask resolver",
		"ok    relay DNS: " + got["dns"] + " answers relay.test over UDP",
		"ok    relay DNS: " + got["dns"] + " answers relay.test over TCP",
		"FAIL  TLS relay.test: TLS handshake for relay.test on " + got["tls"] + ": the certificate is not signed by a CA this machine trusts",
		"FAIL  ACME directory: GET https://",
		"FAIL  SMTP: " + "127.0.0.1:",
		"connect failed: connection refused",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check's output lacks %q", want)
		}
	}
	if strings.Contains(out+stderr.String(), "not-in-the-output") {
		t.Error("check printed the SMTP password")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve returned %v on cancel", err)
	}
}

func TestCheckUsage(t *testing.T) {
	for _, args := range [][]string{
		{"check"},
		{"check", "--public-ip", "192.0.2.1"},
		{"check", "--zone", "relay.test", "--frobnicate"},
		{"check", "--zone", "relay.test", "extra"},
		{"check", "--zone", "relay.test", "--smtp-server", "smtp.example.com:25", "--smtp-security", "plain"},
		{"check", "--dev", "--data-dir", "/tmp/mailnode-relay"},
	} {
		err := relayMain(context.Background(), args, io.Discard, io.Discard, nil)
		if _, ok := err.(usageError); !ok {
			t.Errorf("relayMain(%q) = %v, want a usage error", args, err)
		}
	}
}

// serveFlags reads the flags serve --help lists (flag's PrintDefaults:
// "  -name type" or, for a boolean, "  -name" alone) and whether each is
// boolean: the command's own flag set is local to serve.
func serveFlags(t *testing.T) map[string]bool {
	t.Helper()
	var help bytes.Buffer
	if err := relayMain(context.Background(), []string{"serve", "--help"}, io.Discard, &help, nil); err != nil {
		t.Fatalf("serve --help = %v", err)
	}
	flags := map[string]bool{}
	re := regexp.MustCompile(`^  -([a-z0-9-]+)(\t| [a-z]+$|$)`)
	for _, l := range strings.Split(help.String(), "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			flags[m[1]] = m[2] == "\t" || m[2] == ""
		}
	}
	if len(flags) < 20 {
		t.Fatalf("serve --help lists %d flags:\n%s", len(flags), help.String())
	}
	return flags
}

// TestCheckTakesServeFlags: check takes every flag serve takes, boolean
// where serve's is, so a deployer can run it with their serve command's
// flags; its help lists only the flags it uses. A flag added to serve
// fails this until check uses it or lists it in serveOnly (check.go).
func TestCheckTakesServeFlags(t *testing.T) {
	serve := serveFlags(t)
	var help bytes.Buffer
	fs, _ := newCheckFlags(&help)
	for name, isBool := range serve {
		f := fs.Lookup(name)
		if f == nil {
			t.Errorf("check does not take serve's flag --%s: use it in check.go or add it to serveOnly", name)
			continue
		}
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		if checkBool := ok && b.IsBoolFlag(); checkBool != isBool {
			t.Errorf("--%s is boolean in serve: %v, in check: %v", name, isBool, checkBool)
		}
	}
	fs.Usage()
	for name := range serveOnly {
		if _, ok := serve[name]; !ok {
			t.Errorf("serveOnly lists --%s, which serve does not take", name)
		}
		if strings.Contains(help.String(), "  -"+name+" ") || strings.Contains(help.String(), "  -"+name+"\n") {
			t.Errorf("check --help lists --%s, which it ignores", name)
		}
	}
	for _, used := range []string{"  -zone string", "  -public-ip value", "  -smtp-password-file string", "  -acme-directory string"} {
		if !strings.Contains(help.String(), used) {
			t.Errorf("check --help lacks %q:\n%s", used, help.String())
		}
	}
}

// unit is a systemd unit file: section → key → values in order.
type unit map[string]map[string][]string

// parseUnit reads a unit file as systemd does (systemd.syntax(7)):
// comments, sections, Key=Value, a backslash joining the next line.
func parseUnit(t *testing.T, path string) unit {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	u := unit{}
	section := ""
	var cont string
	for i, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if cont == "" && (l == "" || l[0] == '#' || l[0] == ';') {
			continue
		}
		if strings.HasSuffix(l, "\\") {
			cont += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		l, cont = cont+l, ""
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			section = l[1 : len(l)-1]
			u[section] = map[string][]string{}
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok || section == "" {
			t.Fatalf("%s:%d: %q is not Key=Value in a section", path, i+1, l)
		}
		u[section][strings.TrimSpace(k)] = append(u[section][strings.TrimSpace(k)], strings.TrimSpace(v))
	}
	return u
}

// TestServiceUnit: mailnode-relay.service runs the relay sandboxed,
// every flag of its ExecStart is one serve takes (and check too), the
// secrets it names come from LoadCredential, and the data directory is
// its StateDirectory. With systemd-analyze on the machine, systemd
// itself finds nothing to say about the unit.
func TestServiceUnit(t *testing.T) {
	const path = "mailnode-relay.service"
	u := parseUnit(t, path)
	svc := u["Service"]
	if svc == nil || u["Unit"] == nil || u["Install"] == nil {
		t.Fatalf("%s: want [Unit], [Service] and [Install] sections, got %v", path, u)
	}
	one := func(key string) string {
		if len(svc[key]) != 1 {
			t.Errorf("%s: %s= set %d times, want once", path, key, len(svc[key]))
			return ""
		}
		return svc[key][0]
	}
	for key, want := range map[string]string{
		"DynamicUser":             "yes",
		"AmbientCapabilities":     "CAP_NET_BIND_SERVICE",
		"CapabilityBoundingSet":   "CAP_NET_BIND_SERVICE",
		"ProtectSystem":           "strict",
		"ProtectHome":             "yes",
		"PrivateTmp":              "yes",
		"PrivateDevices":          "yes",
		"NoNewPrivileges":         "yes",
		"StateDirectory":          "mailnode-relay",
		"UMask":                   "0077",
		"RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
		"RestrictNamespaces":      "yes",
		"SystemCallArchitectures": "native",
	} {
		if got := one(key); got != want {
			t.Errorf("%s: %s=%s, want %s", path, key, got, want)
		}
	}
	credentials := map[string]bool{}
	for _, lc := range svc["LoadCredential"] {
		name, src, ok := strings.Cut(lc, ":")
		if !ok || !strings.HasPrefix(src, "/etc/mailnode-relay/") {
			t.Errorf("%s: LoadCredential=%s, want NAME:/etc/mailnode-relay/FILE", path, lc)
		}
		credentials[name] = true
	}

	words := strings.Fields(one("ExecStart"))
	if len(words) < 2 || words[0] != "/usr/local/bin/mailnode-relay" || words[1] != "serve" {
		t.Fatalf("%s: ExecStart=%q, want /usr/local/bin/mailnode-relay serve ...", path, words)
	}
	flags := words[2:]
	values := map[string]string{}
	for i := 0; i+1 < len(flags); i++ {
		if strings.HasPrefix(flags[i], "--") && !strings.HasPrefix(flags[i+1], "--") {
			values[flags[i]] = flags[i+1]
		}
	}
	for flag, cred := range map[string]string{"--tls-key": "tls-key", "--smtp-password-file": "smtp-password"} {
		if _, given := values[flag]; !given && flag == "--tls-key" {
			continue // the certificate by ACME, below
		}
		if values[flag] != "%d/"+cred || !credentials[cred] {
			t.Errorf("%s: %s %s, want %%d/%s from LoadCredential=%s:...", path, flag, values[flag], cred, cred)
		}
	}
	// The default deployment gets its certificate by ACME (the agents'
	// wildcard is issued only by DNS-01, which the relay answers).
	if !slices.Contains(flags, "--acme") || values["--tls-cert"] != "" {
		t.Errorf("%s: ExecStart without --acme, or with --tls-cert too", path)
	}
	// Code mail comes from outside the zone, whose DNS has no SPF, DKIM or DMARC.
	if from := values["--smtp-from"]; from == "" || senderInZone(from, values["--zone"]) {
		t.Errorf("%s: --smtp-from %q, want an address outside --zone %s", path, from, values["--zone"])
	}
	if want := "/var/lib/" + one("StateDirectory"); values["--data-dir"] != want {
		t.Errorf("%s: --data-dir %s, want the StateDirectory %s", path, values["--data-dir"], want)
	}
	// The flag sets themselves decide: --help after the flags returns
	// nil only if every flag before it parsed.
	for _, sub := range []string{"serve", "check"} {
		var stderr bytes.Buffer
		args := append(append([]string{sub}, flags...), "--help")
		if err := relayMain(context.Background(), args, io.Discard, &stderr, nil); err != nil {
			t.Errorf("%s: %s does not take ExecStart's flags: %v", path, sub, err)
		}
	}

	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Logf("no systemd-analyze here: the unit is not verified by systemd")
		return
	}
	// verify wants ExecStart's binary to exist: the built one stands in.
	tmp := t.TempDir()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "/usr/local/bin/mailnode-relay", filepath.Join(relayBinary(t), "mailnode-relay"), 1)
	if err := os.WriteFile(filepath.Join(tmp, path), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(analyze, "verify", filepath.Join(tmp, path))
	out, err := cmd.CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze verify %s: %v\n%s", path, err, out)
	}
}
