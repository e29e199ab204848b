package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mailnode/app"
	"mailnode/app/backup"
)

// TestBackupOffersPassphrase (issue 40 item 8): mailnode backup offers a
// passphrase of six random words; an empty answer takes it, and the file
// opens with it. A passphrase of one's own still wins, and a restore
// offers nothing.
func TestBackupOffersPassphrase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	n, err := app.New(app.Config{DataDir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	n.Stop()
	noEnv := func(string) string { return "" }
	var made string // a backup file, for the restore below

	outDir := t.TempDir()
	for i, tc := range []struct {
		name, stdin string
		own         bool
	}{
		{"Enter takes the offer", "\n", false},
		{"one's own passphrase", "my own long passphrase\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(outDir, fmt.Sprintf("node%d.mnb", i))
			var stdout, stderr bytes.Buffer
			if err := cmdBackup(ctx, []string{"--data-dir", dir, "--out", out}, strings.NewReader(tc.stdin), &stdout, &stderr, noEnv); err != nil {
				t.Fatalf("backup: %v\n%s", err, stderr.String())
			}
			_, rest, ok := strings.Cut(stderr.String(), "\n\n    ")
			offer, _, _ := strings.Cut(rest, "\n")
			if !ok || len(strings.Fields(offer)) != backup.PassphraseWords {
				t.Fatalf("backup offered no passphrase of %d words:\n%s", backup.PassphraseWords, stderr.String())
			}
			sealed, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			made = out
			want := offer
			if tc.own {
				want = "my own long passphrase"
				if _, err := backup.Open(sealed, offer); err == nil {
					t.Error("the file opens with the offer, not the passphrase typed")
				}
			}
			if _, err := backup.Open(sealed, want); err != nil {
				t.Errorf("Open(file, %q) = %v", want, err)
			}
		})
	}

	var stdout, stderr bytes.Buffer
	err = cmdRestore(ctx, []string{"--data-dir", filepath.Join(t.TempDir(), "new"), made}, strings.NewReader("\n"), &stdout, &stderr, noEnv)
	if err == nil || !strings.Contains(err.Error(), "no passphrase") || strings.Contains(stderr.String(), "made for you") {
		t.Errorf("restore with an empty passphrase = %v, stderr %q; want an error and no offer", err, stderr.String())
	}
}
