package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/netip"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/gateway/phone/phoneclient"
)

// TestPairConfirm (issue 42 item 9): mailnode pair from a script, where
// nobody can answer, pairs with --yes, and without it says that --yes
// exists; a person's answer still decides.
func TestPairConfirm(t *testing.T) {
	dir := t.TempDir()
	n, err := app.New(app.Config{DataDir: dir, Gateway: app.GatewayConfig{Listen: "127.0.0.1:0"},
		Services: app.Services{Gateway: true, LocalAPI: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	pem, err := os.ReadFile(n.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	hc := &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13}}}
	pairURL := regexp.MustCompile(`https://\S+`)

	tests := []struct {
		name     string
		args     []string
		stdin    string
		want     string
		wantNot  string
		wantPair bool
	}{
		{name: "--yes", args: []string{"--yes"}, want: "confirmed without asking: --yes", wantPair: true},
		{name: "--yes after the data directory", args: []string{"--data-dir", dir, "--yes"}, want: "Paired", wantPair: true},
		{name: "no answer from a script", want: "standard input is not a terminal. A script that checks the codes itself can pass --yes"},
		{name: "the user says yes", stdin: "y\n", want: "Paired", wantPair: true},
		{name: "the user says no", stdin: "n\n", want: "Not paired", wantNot: "--yes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var out, errb apptest.Buffer
			done := make(chan error, 1)
			go func() {
				done <- cmdPair(ctx, append([]string{"--data-dir", dir}, tt.args...), strings.NewReader(tt.stdin), &out, &errb,
					func(string) string { return "" })
			}()
			var url string
			for url == "" {
				select {
				case err := <-done:
					t.Fatalf("cmdPair ended before it showed the URL: %v\n%s%s", err, out.String(), errb.String())
				case <-time.After(20 * time.Millisecond):
				}
				url = pairURL.FindString(out.String())
			}
			phone, _, err := phoneclient.Pair(ctx, hc, url, "Test phone "+tt.name)
			if err != nil {
				t.Fatalf("phoneclient.Pair(%s) = %v", url, err)
			}
			if err := <-done; err != nil {
				t.Fatalf("cmdPair(%q) = %v\n%s", tt.args, err, out.String())
			}
			if !strings.Contains(out.String(), tt.want) || tt.wantNot != "" && strings.Contains(out.String(), tt.wantNot) {
				t.Errorf("cmdPair(%q) with stdin %q printed\n%s\nwant %q, not %q", tt.args, tt.stdin, out.String(), tt.want, tt.wantNot)
			}
			phones, err := n.Phones(ctx)
			if err != nil {
				t.Fatal(err)
			}
			paired := false
			for _, p := range phones {
				paired = paired || p.ID == phone.ID && p.State == "paired"
			}
			if paired != tt.wantPair {
				t.Errorf("cmdPair(%q) with stdin %q: phone paired = %v, want %v (%+v)", tt.args, tt.stdin, paired, tt.wantPair, phones)
			}
		})
	}
}

// TestPairLAN (issue 42 item 7): mailnode pair says how the phone reaches
// the node: on the desktop's loopback listener, only from this computer;
// with --lan, at the LAN address, where a phone pairs; phones lan off
// stops that. The LAN address is 127.0.0.21 (GatewayConfig.LANAddr):
// tests send traffic to loopback only, each LAN test at an address of its
// own (see app's TestPairOverLAN).
func TestPairLAN(t *testing.T) {
	dir := t.TempDir()
	n, err := app.New(app.Config{DataDir: dir, Gateway: app.GatewayConfig{Listen: "127.0.0.1:0",
		LANAddr: func() (netip.Addr, error) { return netip.MustParseAddr("127.0.0.21"), nil }},
		Services: app.Services{Gateway: true, LocalAPI: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	pem, err := os.ReadFile(n.CAFile())
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	hc := &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS13}}}
	noenv := func(string) string { return "" }

	for _, tt := range []struct {
		name    string
		args    []string
		wantURL string
		want    []string
	}{
		{"loopback", nil, "https://localhost:",
			[]string{"this computer only", "mailnode-phone", "Pair over this network with: mailnode pair --lan"}},
		{"--lan", []string{"--lan"}, "https://127.0.0.21:",
			[]string{"the phone must be on the same network", "for agents' signed requests too", "mailnode phones lan off"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var out, errb apptest.Buffer
			done := make(chan error, 1)
			go func() {
				done <- cmdPair(ctx, append([]string{"--data-dir", dir, "--yes"}, tt.args...), strings.NewReader(""), &out, &errb, noenv)
			}()
			var url string
			for url == "" || !strings.Contains(out.String(), "good for one phone") {
				select {
				case err := <-done:
					t.Fatalf("cmdPair ended before it showed the URL: %v\n%s%s", err, out.String(), errb.String())
				case <-time.After(20 * time.Millisecond):
				}
				url = regexp.MustCompile(`https://\S+`).FindString(out.String())
			}
			if !strings.HasPrefix(url, tt.wantURL) {
				t.Errorf("cmdPair(%q) URL %s, want %s...", tt.args, url, tt.wantURL)
			}
			if _, _, err := phoneclient.Pair(ctx, hc, url, "Phone "+tt.name); err != nil {
				t.Fatalf("phoneclient.Pair(%s) = %v", url, err)
			}
			if err := <-done; err != nil {
				t.Fatalf("cmdPair(%q) = %v\n%s", tt.args, err, out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("cmdPair(%q) printed\n%s\nwant %q", tt.args, out.String(), w)
				}
			}
		})
	}
	if got := n.Status().Gateway.LANURL; !strings.HasPrefix(got, "https://127.0.0.21:") {
		t.Errorf("after pair --lan the node listens on the LAN at %q, want it to go on doing so", got)
	}
	var out, errb apptest.Buffer
	if err := cmdPhones(context.Background(), []string{"lan", "off", "--data-dir", dir}, &out, &errb, noenv); err != nil ||
		!strings.Contains(out.String(), "no longer listens on the local network") {
		t.Errorf("phones lan off = %v\n%s%s", err, out.String(), errb.String())
	}
	if got := n.Status().Gateway.LANURL; got != "" {
		t.Errorf("after phones lan off LANURL = %q", got)
	}
}
