package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
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
