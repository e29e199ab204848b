package main

import (
	"bytes"
	"path/filepath"
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
