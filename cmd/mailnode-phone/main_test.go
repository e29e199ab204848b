package main

import (
	"bytes"
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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
