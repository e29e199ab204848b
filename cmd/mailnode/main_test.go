package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/app/localapi/localclient"
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
		// A data directory that holds no node is an error, not an empty answer (hardening item 12).
		{name: "approvals list, no data", args: []string{"approvals", "list"}, wantCode: 1, wantErr: "holds no mailnode data"},
		{name: "search, no data", args: []string{"search", "x"}, wantCode: 1, wantErr: "holds no mailnode data"},
		{name: "drafts, no data", args: []string{"drafts"}, wantCode: 1, wantErr: "holds no mailnode data"},
		{name: "phones, no data", args: []string{"phones"}, wantCode: 1, wantErr: "holds no mailnode data"},
		{name: "serve without account or data", args: []string{"serve", "--listen", "127.0.0.1:0"}, wantCode: 1, wantErr: "holds no mailnode data"},
		{name: "serve without account or listen", args: []string{"serve"}, wantCode: 2, wantErr: "nothing to do"},
		{name: "serve --demo-mx alone", args: []string{"serve", "--demo-mx", "127.0.0.1:0"}, wantCode: 2, wantErr: "--demo-mx goes with --demo"},
		{name: "serve --demo with an account", args: []string{"serve", "--demo", "--imap-server", "imap.example.com:993"}, wantCode: 2, wantErr: "give it no --imap-server"},
		{name: "serve --demo-mx off loopback", args: []string{"serve", "--demo", "--demo-mx", "0.0.0.0:0", "--listen", "127.0.0.1:0"}, wantCode: 1, wantErr: "not a loopback address"},
		{name: "no password names every source", args: []string{"sync", "--imap-server", "imap.example.com:993", "--imap-user", "u"},
			wantCode: 2, wantErr: "--imap-password-file FILE (a file of mode 0600), set MAILNODE_IMAP_PASSWORD, or use --imap-keyring"},
		{name: "-h lists the command's flags and exits 0", args: []string{"sync", "-h"}, wantCode: 0, wantErr: "-imap-server"},
		{name: "search -h", args: []string{"search", "-h"}, wantCode: 0, wantErr: "-data-dir"},
		{name: "approvals -h", args: []string{"approvals", "-h"}, wantCode: 0, wantOut: "mailnode approvals list"},
		{name: "approvals approve -h", args: []string{"approvals", "approve", "-h"}, wantCode: 0, wantErr: "-data-dir"},
		{name: "demo", args: []string{"demo", "--listen", "127.0.0.1:0"}, wantCode: 0, wantOut: "44 messages"},
		{name: "demo agent call", args: []string{"demo", "--listen", "127.0.0.1:0"}, wantCode: 0, wantOut: "The retried call runs. get_upcoming_travel returned:\n  {\n    \"trips\": ["},
		{name: "approvals without subcommand", args: []string{"approvals"}, wantCode: 2, wantErr: "Usage"},
		{name: "sync without account", args: []string{"sync"}, wantCode: 1, wantErr: "no IMAP account"},
		{name: "the reference phone moved", args: []string{"phone", "list"}, wantCode: 2, wantErr: "mailnode-phone"},
		{name: "smtp plain to a remote host refused", args: []string{"sync", "--imap-server", "imap.example.com:993", "--imap-user", "u",
			"--imap-password-file", pwFile, "--smtp-server", "smtp.example.com:25", "--smtp-security", "plain"}, wantCode: 2, wantErr: "refusing plain SMTP"},
		{name: "serve with a relay and no address to register refused", args: []string{"serve", "--relay", "https://relay.example",
			"--imap-server", "imap.example.com:993", "--imap-user", "u", "--imap-password-file", pwFile}, wantCode: 2,
			wantErr: `the IMAP username ("u") is not an address and no sending From is set; give the address agents will know you by with --relay-address`},
		{name: "serve with a relay address that is none refused", args: []string{"serve", "--relay", "https://relay.example", "--relay-address", "u",
			"--imap-server", "imap.example.com:993", "--imap-user", "u", "--imap-password-file", pwFile}, wantCode: 2,
			wantErr: `--relay-address "u" is not an e-mail address`},
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
		{name: "approvals list, no node running", args: []string{"approvals", "list"}, wantCode: 0, wantOut: "No pending requests.\nNo grants."},
		{name: "approvals approve unknown", args: []string{"approvals", "approve", "ABC-DEF"}, wantCode: 1, wantErr: "no such approval request"},
		{name: "approvals revoke", args: []string{"approvals", "revoke", "agent.example.com"}, wantCode: 0, wantOut: "Revoked 0 grant(s)"},
		{name: "approvals block a registrable domain", args: []string{"approvals", "block", "*.a.evil.example"}, wantCode: 0, wantOut: "Blocked every agent under evil.example."},
		{name: "approvals block one agent hosted by the relay", args: []string{"approvals", "block", "*.k1.agents.relay.example"},
			env: map[string]string{"MAILNODE_RELAY": "https://relay.example"}, wantCode: 0, wantOut: "Blocked every agent under k1.agents.relay.example."},
		{name: "approvals block one agent under a hosting suffix", args: []string{"approvals", "block", "*.x.a.hosting.example"},
			env: map[string]string{"MAILNODE_AGENT_HOSTING_SUFFIXES": "agents.other.example, hosting.example"}, wantCode: 0, wantOut: "Blocked every agent under a.hosting.example."},
		{name: "a hosting suffix must be a domain", args: []string{"sync", "--agent-hosting-suffix", "example"}, wantCode: 2, wantErr: "at least two labels"},
		{name: "phones, none paired", args: []string{"phones"}, wantCode: 0, wantOut: "No phones. Pair one with: mailnode pair"},
		{name: "phones remove unknown", args: []string{"phones", "remove", "ph_nope"}, wantCode: 1, wantErr: "no such phone"},
		{name: "pair without a running node", args: []string{"pair"}, wantCode: 1, wantErr: "start it first"},
		{name: "drafts, none", args: []string{"drafts"}, wantCode: 0, wantOut: "No drafts."},
		{name: "drafts show unknown", args: []string{"drafts", "show", "d_nope"}, wantCode: 1, wantErr: "no such draft"},
		{name: "drafts edit without a change", args: []string{"drafts", "edit", "d_x"}, wantCode: 2, wantErr: "give --subject or --body-file"},
		{name: "search", args: []string{"search", "nothing-like-this"}, wantCode: 0, wantOut: "No messages match"},
		{name: "backup", args: []string{"backup", "--out", filepath.Join(dir, "node.mnb")}, env: map[string]string{passphraseEnv: "a long passphrase"},
			wantCode: 0, wantOut: "Wrote " + filepath.Join(dir, "node.mnb")},
		{name: "backup does not overwrite", args: []string{"backup", "--out", filepath.Join(dir, "node.mnb")}, env: map[string]string{passphraseEnv: "a long passphrase"},
			wantCode: 1, wantErr: "file exists"},
		{name: "restore over the node", args: []string{"restore", filepath.Join(dir, "node.mnb")}, env: map[string]string{passphraseEnv: "a long passphrase"},
			wantCode: 1, wantErr: "already holds a node"},
		{name: "restore, wrong passphrase", args: []string{"restore", "--data-dir", filepath.Join(dir, "new"), filepath.Join(dir, "node.mnb")},
			env: map[string]string{passphraseEnv: "another passphrase"}, wantCode: 1, wantErr: "passphrase is wrong"},
		{name: "restore", args: []string{"restore", "--data-dir", filepath.Join(dir, "new"), filepath.Join(dir, "node.mnb")},
			env: map[string]string{passphraseEnv: "a long passphrase"}, wantCode: 0, wantOut: "Restored the node"},
		{name: "restore needs a file", args: []string{"restore"}, wantCode: 2, wantErr: "name the backup file"},
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
			// The reference phone is the command mailnode-phone (issue 42
			// item 9).
			if strings.Contains(out.String()+errb.String(), "mailnode phone ") {
				t.Errorf("run(%q) names the command \"mailnode phone\", which is mailnode-phone", tt.args)
			}
			for _, secret := range []string{srv.Password, "bad-pass-123"} {
				if strings.Contains(out.String()+errb.String(), secret) {
					t.Errorf("run(%q) printed a password", tt.args)
				}
			}
		})
	}
}

// TestServeFromStore (hardening item 12): serve on a synced data
// directory without IMAP settings serves agents from the store.
func TestServeFromStore(t *testing.T) {
	dir := t.TempDir()
	n, err := app.New(apptest.Demo(t, app.Config{DataDir: dir}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	n.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb apptest.Buffer
	done := make(chan error, 1)
	go func() {
		done <- cmdServe(ctx, []string{"--data-dir", dir, "--listen", "127.0.0.1:0"}, &out, &errb, func(string) string { return "" })
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if lc, err := localclient.Dial(dir); err == nil {
			if p, err := lc.Pending(ctx); err != nil || len(p) != 0 {
				t.Fatalf("the serving node's local API: %v %v", p, err)
			}
			break
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v\n%s%s", err, out.String(), errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start:\n%s%s", out.String(), errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The line comes once the node has started, which its local API
	// answering does not wait for.
	for !strings.Contains(out.String(), "serving agents from the mail in") {
		if time.Now().After(deadline) {
			t.Fatalf("stdout = %q", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A second node on the directory says only that another runs: it
	// does not claim to serve first (issue 42 item 9).
	var out2, errb2 bytes.Buffer
	if code := runContext(ctx, []string{"serve", "--data-dir", dir, "--listen", "127.0.0.1:0"}, &out2, &errb2, func(string) string { return "" }); code != 1 ||
		out2.String() != "" || !strings.HasPrefix(errb2.String(), "mailnode: another node is running on this data directory") {
		t.Errorf("a second serve on one directory = %d\nstdout: %q\nstderr: %q\nwant 1 and only \"another node is running\"", code, out2.String(), errb2.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve on cancel = %v", err)
	}
}

// errSignal stands for what signal.NotifyContext gives as the cause.
var errSignal = errors.New("interrupt signal received")

// TestStoppedBySignal (issue 42 item 9): Ctrl-C ends a serving command
// with exit status 0 and no error; a one-shot command it cuts short says
// so instead of "context canceled".
func TestStoppedBySignal(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string // "" : stderr holds no "mailnode:" line
	}{
		{name: "demo --serve", args: []string{"demo", "--serve", "--listen", "127.0.0.1:0"}, wantCode: 0},
		{name: "one-shot demo", args: []string{"demo", "--listen", "127.0.0.1:0"}, wantCode: 1,
			wantErr: "mailnode: stopped before it finished (interrupt signal received)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(errSignal)
			var out, errb bytes.Buffer
			code := runContext(ctx, tt.args, &out, &errb, func(string) string { return "" })
			if code != tt.wantCode {
				t.Errorf("runContext(cancelled, %q) = %d, want %d\nstderr: %s", tt.args, code, tt.wantCode, errb.String())
			}
			if strings.Contains(errb.String(), "context canceled") {
				t.Errorf("runContext(cancelled, %q) stderr = %q, want no \"context canceled\"", tt.args, errb.String())
			}
			if tt.wantErr == "" && strings.Contains(errb.String(), "mailnode:") || !strings.Contains(errb.String(), tt.wantErr) {
				t.Errorf("runContext(cancelled, %q) stderr = %q, want %q", tt.args, errb.String(), tt.wantErr)
			}
		})
	}
}

func TestInterrupted(t *testing.T) {
	live := context.Background()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	signalled, cancelSignal := context.WithCancelCause(context.Background())
	cancelSignal(errSignal)
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"no error", cancelled, nil, false},
		{"cancelled without a signal", live, fmt.Errorf("sync: %w", context.Canceled), false},
		{"cancelled by a signal", cancelled, fmt.Errorf("sync: %w", context.Canceled), true},
		{"the signal as the cause", signalled, fmt.Errorf("agent: Post %q: %w", "https://x", errSignal), true},
		{"another failure after a signal", signalled, errors.New("close: disk full"), false},
	}
	for _, tt := range tests {
		if got := interrupted(tt.ctx, tt.err); got != tt.want {
			t.Errorf("%s: interrupted(ctx, %v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
}
