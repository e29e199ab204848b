package main

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/pem"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/approvals/pairing"
	"mailnode/approvals/phoneapi"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no subcommand", nil, 2, "Usage"},
		{"without a device", []string{"list", "--device", filepath.Join(dir, "none.json")}, 1, "load device"},
		{"pair with a bad URL", []string{"pair", "--device", filepath.Join(dir, "d.json"), "https://node.example/phone/#pair=x"}, 1, "pairing URL"},
		{"pair without a URL", []string{"pair"}, 2, "give the pairing URL"},
		{"unknown subcommand", []string{"frobnicate", "--device", filepath.Join(dir, "none.json")}, 1, "load device"},
		{"-h", []string{"list", "-h"}, 0, "-device"},
		// Flags after the positional argument, as the usage shows them (issue 42 item 9).
		{"pair URL --name", []string{"pair", "https://node.example/phone/#pair=x", "--name", "Pixel", "--device", filepath.Join(dir, "d.json")}, 1, "pairing URL"},
		{"approve CODE --device", []string{"approve", "ABC-DEF", "--device", filepath.Join(dir, "none.json")}, 1, "load device"},
		{"revoke AGENT --tier", []string{"revoke", "agent.example", "--tier", "raw_read", "--device", filepath.Join(dir, "none.json")}, 1, "load device"},
		{"a flag after the URL is still checked", []string{"pair", "https://node.example/", "--nonsense"}, 2, "flag provided but not defined: -nonsense"},
		{"two URLs", []string{"pair", "https://a.example/", "--name", "P", "https://b.example/"}, 2, "give the pairing URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(tc.args, &out, &errb); code != tc.wantCode || !strings.Contains(out.String()+errb.String(), tc.wantErr) {
				t.Errorf("run(%q) = %d\nstdout: %s\nstderr: %s\nwant %d and %q", tc.args, code, out.String(), errb.String(), tc.wantCode, tc.wantErr)
			}
		})
	}
}

// TestActivityLine: list prints a call the agent repeated while it waited
// once, with how often it asked.
func TestActivityLine(t *testing.T) {
	at := time.Date(2027, 1, 2, 3, 4, 5, 0, time.Local)
	tests := []struct {
		decision string
		retries  int
		want     string
	}{
		{"approval_required", 0, "Call\t2027-01-02 03:04:05\tagent.example\tget_excerpt\tapproval_required"},
		{"approval_required", 29, "Call\t2027-01-02 03:04:05\tagent.example\tget_excerpt\tapproval_required (asked 30 times)"},
		{"allowed", 0, "Call\t2027-01-02 03:04:05\tagent.example\tget_excerpt\tallowed"},
	}
	for _, tt := range tests {
		a := phoneapi.Activity{At: at, Agent: "agent.example", Tool: "get_excerpt", Decision: tt.decision, Retries: tt.retries}
		if got := activityLine(a); got != tt.want {
			t.Errorf("activityLine(%s, retries %d) = %q, want %q", tt.decision, tt.retries, got, tt.want)
		}
	}
}

func TestParseInterspersed(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		wantPos  []string
		wantName string
	}{
		{[]string{"URL"}, []string{"URL"}, ""},
		{[]string{"--name", "N", "URL"}, []string{"URL"}, "N"},
		{[]string{"URL", "--name", "N"}, []string{"URL"}, "N"},
		{[]string{"A", "--name=N", "B"}, []string{"A", "B"}, "N"},
		{[]string{"A", "--", "--name", "N"}, []string{"A", "--name", "N"}, ""},
		{nil, nil, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		name := fs.String("name", "", "")
		pos, err := parseInterspersed(fs, tc.args)
		if err != nil || !slices.Equal(pos, tc.wantPos) || *name != tc.wantName {
			t.Errorf("parseInterspersed(%q) = %q, name %q, %v; want %q, name %q", tc.args, pos, *name, err, tc.wantPos, tc.wantName)
		}
	}
}

// TestPairUntrustedNode: pairing with a node whose certificate comes from
// a CA the machine does not trust (every node's own CA) says which flag
// trusts it, not only x509's "certificate signed by unknown authority";
// given that CA with --ca, the same URL reaches the node.
func TestPairUntrustedNode(t *testing.T) {
	var reached atomic.Bool
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Store(true)
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer srv.Close()
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	offer, err := pairing.NewOffer(key.PublicKey(), time.Now(), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	pairURL := offer.URL(srv.URL + "/phone/")
	device := filepath.Join(dir, "device.json")

	var out, errb bytes.Buffer
	args := []string{"pair", pairURL, "--device", device}
	code := run(args, &out, &errb)
	const want = "mailnode-phone: the node's certificate is not trusted: for a node's own CA pass --ca <node data dir>/ca/ca.pem"
	if code != 1 || !strings.Contains(errb.String(), "x509: certificate signed by unknown authority") || !strings.Contains(errb.String(), want) {
		t.Errorf("run(%q) = %d, stderr:\n%s\nwant 1, the x509 error and %q", args, code, errb.String(), want)
	}
	if reached.Load() {
		t.Error("the untrusted server got a request")
	}

	// With the CA the handshake succeeds; the server's refusal is another
	// error, without the hint.
	errb.Reset()
	args = append(args, "--ca", caFile)
	code = run(args, &out, &errb)
	if code != 1 || !reached.Load() || strings.Contains(errb.String(), "not trusted") {
		t.Errorf("run(%q) = %d, reached %v, stderr:\n%s\nwant 1 after reaching the server, without the hint", args, code, reached.Load(), errb.String())
	}
}
