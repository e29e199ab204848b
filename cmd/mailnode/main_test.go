package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mailnode/mail/imaptest"
)

func TestRun(t *testing.T) {
	srv := imaptest.NewMemory(t)
	dir := t.TempDir()
	pwFile := filepath.Join(dir, "pw")
	os.WriteFile(pwFile, []byte(srv.Password+"\n"), 0o600)
	env := map[string]string{"MAILNODE_DATA_DIR": filepath.Join(dir, "data")}
	getenv := func(k string) string { return env[k] }

	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{name: "no command", args: nil, wantCode: 2, wantErr: "Usage"},
		{name: "unknown command", args: []string{"frobnicate"}, wantCode: 2, wantErr: "unknown command"},
		{name: "demo", args: []string{"demo", "--listen", "127.0.0.1:0"}, wantCode: 0, wantOut: "44 messages"},
		{name: "demo agent call", args: []string{"demo", "--listen", "127.0.0.1:0"}, wantCode: 0, wantOut: "The retried call runs. get_upcoming_travel returned:\n  {\n    \"trips\": ["},
		{name: "approvals list, no node running", args: []string{"approvals", "list"}, wantCode: 0, wantOut: "No pending requests.\nNo grants."},
		{name: "approvals approve unknown", args: []string{"approvals", "approve", "ABC-DEF"}, wantCode: 1, wantErr: "no such approval request"},
		{name: "approvals revoke", args: []string{"approvals", "revoke", "agent.example.com"}, wantCode: 0, wantOut: "Revoked 0 grant(s)"},
		{name: "approvals block a registrable domain", args: []string{"approvals", "block", "*.a.evil.example"}, wantCode: 0, wantOut: "Blocked every agent under evil.example."},
		{name: "approvals without subcommand", args: []string{"approvals"}, wantCode: 2, wantErr: "Usage"},
		{name: "sync without account", args: []string{"sync"}, wantCode: 1, wantErr: "no IMAP account"},
		{name: "phones, none paired", args: []string{"phones"}, wantCode: 0, wantOut: "No phones. Pair one with: mailnode pair"},
		{name: "phones remove unknown", args: []string{"phones", "remove", "ph_nope"}, wantCode: 1, wantErr: "no such phone"},
		{name: "pair without a running node", args: []string{"pair"}, wantCode: 1, wantErr: "start it first"},
		{name: "phone without a device", args: []string{"phone", "list", "--device", filepath.Join(dir, "none.json")}, wantCode: 1, wantErr: "load device"},
		{name: "phone pair with a bad URL", args: []string{"phone", "pair", "https://node.example/phone/#pair=x"}, wantCode: 1, wantErr: "pairing URL"},
		{name: "drafts, none", args: []string{"drafts"}, wantCode: 0, wantOut: "No drafts."},
		{name: "drafts show unknown", args: []string{"drafts", "show", "d_nope"}, wantCode: 1, wantErr: "no such draft"},
		{name: "drafts edit without a change", args: []string{"drafts", "edit", "d_x"}, wantCode: 2, wantErr: "give --subject or --body-file"},
		{name: "smtp plain to a remote host refused", args: []string{"sync", "--imap-server", "imap.example.com:993", "--imap-user", "u",
			"--imap-password-file", pwFile, "--smtp-server", "smtp.example.com:25", "--smtp-security", "plain"}, wantCode: 2, wantErr: "refusing plain SMTP"},
		{name: "password flag does not exist", args: []string{"sync", "--imap-password", "x"}, wantCode: 2, wantErr: "not defined"},
		{name: "plain to a remote host refused", args: []string{"sync", "--imap-server", "imap.example.com:143", "--imap-security", "plain",
			"--imap-user", "u", "--imap-password-file", pwFile}, wantCode: 2, wantErr: "refusing plain IMAP"},
		{name: "sync with password file", args: []string{"sync", "--imap-server", srv.Addr, "--imap-security", "plain",
			"--imap-user", srv.Username, "--imap-password-file", pwFile}, wantCode: 0, wantOut: "The store holds 0 messages"},
		{name: "sync with password env", args: []string{"sync", "--imap-security", "plain"},
			env:      map[string]string{"MAILNODE_IMAP_SERVER": srv.Addr, "MAILNODE_IMAP_USER": srv.Username, "MAILNODE_IMAP_PASSWORD": srv.Password},
			wantCode: 0, wantOut: "Synced 1 folders"},
		{name: "wrong password", args: []string{"sync", "--imap-security", "plain"},
			env:      map[string]string{"MAILNODE_IMAP_SERVER": srv.Addr, "MAILNODE_IMAP_USER": srv.Username, "MAILNODE_IMAP_PASSWORD": "bad-pass-123"},
			wantCode: 1, wantErr: "login"},
		{name: "search needs words", args: []string{"search"}, wantCode: 2, wantErr: "give some words"},
		{name: "search", args: []string{"search", "nothing-like-this"}, wantCode: 0, wantOut: "No messages match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				env[k] = v
			}
			defer func() {
				for k := range tt.env {
					delete(env, k)
				}
			}()
			var out, errb bytes.Buffer
			code := run(tt.args, &out, &errb, getenv)
			if code != tt.wantCode {
				t.Errorf("run(%q) = %d, want %d\nstdout: %s\nstderr: %s", tt.args, code, tt.wantCode, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), tt.wantOut) {
				t.Errorf("run(%q) stdout = %q, want it to contain %q", tt.args, out.String(), tt.wantOut)
			}
			if !strings.Contains(errb.String(), tt.wantErr) {
				t.Errorf("run(%q) stderr = %q, want it to contain %q", tt.args, errb.String(), tt.wantErr)
			}
			for _, secret := range []string{srv.Password, "bad-pass-123"} {
				if strings.Contains(out.String()+errb.String(), secret) {
					t.Errorf("run(%q) printed a password", tt.args)
				}
			}
		})
	}
}
