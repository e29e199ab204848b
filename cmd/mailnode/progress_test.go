package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/assets"
	"mailnode/mail/demobox"
)

// TestSyncProgress: a sync whose output is not a terminal prints one line
// per folder it fetched, with its count, bytes and rate.
func TestSyncProgress(t *testing.T) {
	srv, dir, pw := demoServer(t)
	var out, errb bytes.Buffer
	code := run([]string{"sync", "--data-dir", filepath.Join(dir, "data"), "--imap-server", srv.Addr, "--imap-security", "plain",
		"--imap-user", demobox.Username, "--imap-password-file", pw, "--log-level", "warn"}, &out, &errb, func(string) string { return "" })
	if code != 0 {
		t.Fatalf("sync = %d\n%s\n%s", code, out.String(), errb.String())
	}
	line := regexp.MustCompile(`(?m)^INBOX: (\d+) new messages, [0-9.]+ KiB in [0-9.]+m?s \(\d+ messages/s\)$`)
	m := line.FindStringSubmatch(errb.String())
	if m == nil || m[1] == "0" {
		t.Fatalf("no progress line for INBOX in:\n%s", errb.String())
	}
	if n := len(regexp.MustCompile(`(?m)^\S+: \d+ new messages?,`).FindAllString(errb.String(), -1)); n != 4 {
		t.Errorf("%d folder lines, want 4 (the demo mailbox's synced folders):\n%s", n, errb.String())
	}
	// A second pass fetches nothing and prints no folder lines.
	errb.Reset()
	run([]string{"sync", "--data-dir", filepath.Join(dir, "data"), "--imap-server", srv.Addr, "--imap-security", "plain",
		"--imap-user", demobox.Username, "--imap-password-file", pw, "--log-level", "warn"}, &out, &errb, func(string) string { return "" })
	if line.MatchString(errb.String()) {
		t.Errorf("a sync with nothing new printed progress:\n%s", errb.String())
	}
}

// TestConfigV1: a settings file of the first releases (version 1) still
// drives the command line.
func TestConfigV1(t *testing.T) {
	srv, dir, pw := demoServer(t)
	data := filepath.Join(dir, "data")
	os.MkdirAll(data, 0o700)
	v1 := `{"accounts":[{"name":"home","server":"` + srv.Addr + `","security":"plain","username":"` + demobox.Username +
		`","password_file":"` + pw + `","smtp_server":"127.0.0.1:2525","smtp_security":"plain"}]}`
	os.WriteFile(filepath.Join(data, "config.json"), []byte(v1), 0o600)
	var out, errb bytes.Buffer
	if code := run([]string{"sync", "--data-dir", data}, &out, &errb, func(string) string { return "" }); code != 0 {
		t.Fatalf("sync with a version 1 settings file = %d\n%s%s", code, out.String(), errb.String())
	}
	if !regexp.MustCompile(`The store holds [1-9]\d* messages`).MatchString(out.String()) {
		t.Errorf("sync output: %s", out.String())
	}
}

// demoServer serves the demo mailbox for one test, and returns a
// directory and a password file for the command.
func demoServer(t *testing.T) (srv *demobox.Server, dir, pwFile string) {
	t.Helper()
	srv, err := demobox.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if _, err := srv.Seed(assets.DemoMailbox(), time.Now()); err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	pwFile = filepath.Join(dir, "pw")
	if err := os.WriteFile(pwFile, []byte(demobox.Password), 0o600); err != nil {
		t.Fatal(err)
	}
	return srv, dir, pwFile
}

// TestReportRereading: `mailnode serve` says when a long facts pass (an
// extractor upgrade's) begins and ends, and not a sync's few PDF mails.
func TestReportRereading(t *testing.T) {
	sub := make(chan app.Status, 8)
	for _, f := range []app.FactsStatus{{Done: 0, Total: 12}, {Done: 12, Total: 12}, {},
		{Done: 0, Total: 50000}, {Done: 256, Total: 50000}, {Done: 50000, Total: 50000}, {Bills: 3}} {
		sub <- app.Status{State: app.StateIdle, Facts: f}
	}
	close(sub)
	var out bytes.Buffer
	reportRereading(&out, sub)
	want := "Re-reading 0 of 50000 messages for trips, orders and bills; agents get what was read before until then.\nRe-read 50000 messages.\n"
	if out.String() != want {
		t.Errorf("serve printed:\n%s\nwant:\n%s", out.String(), want)
	}
}
