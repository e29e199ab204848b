package credential_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"mailnode/mail/credential"
)

func TestSecretNeverPrints(t *testing.T) {
	s := credential.Secret("hunter2")
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "password", s)
	outs := []string{fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s %q", s, s, s, s, s), buf.String(),
		fmt.Errorf("login: %v", s).Error()}
	for _, out := range outs {
		if strings.Contains(out, "hunter2") {
			t.Errorf("secret leaked in %q", out)
		}
	}
	if s.Reveal() != "hunter2" {
		t.Errorf("Reveal() = %q, want hunter2", s.Reveal())
	}
}

func TestLookup(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "pw")
	os.WriteFile(good, []byte("from-file\n"), 0o600)
	loose := filepath.Join(dir, "loose")
	os.WriteFile(loose, []byte("x"), 0o644)
	env := map[string]string{"MAILNODE_IMAP_PASSWORD": "from-env"}
	getenv := func(k string) string { return env[k] }

	tests := []struct {
		name    string
		src     credential.Source
		want    string
		wantErr bool
	}{
		{"file", credential.Source{File: good, Env: "MAILNODE_IMAP_PASSWORD"}, "from-file", false},
		{"file readable by others", credential.Source{File: loose}, "", true},
		{"missing file", credential.Source{File: filepath.Join(dir, "nope")}, "", true},
		{"env", credential.Source{Env: "MAILNODE_IMAP_PASSWORD"}, "from-env", false},
		{"empty env", credential.Source{Env: "UNSET"}, "", true},
		{"nothing", credential.Source{}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, where, err := tt.src.Lookup(getenv)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Lookup() error = %v, wantErr %v", err, tt.wantErr)
			}
			if got.Reveal() != tt.want {
				t.Errorf("Lookup() = %q, want %q", got.Reveal(), tt.want)
			}
			if err == nil && strings.Contains(where, tt.want) {
				t.Errorf("description %q contains the secret", where)
			}
		})
	}
	if _, _, err := (credential.Source{}).Lookup(getenv); !errors.Is(err, credential.ErrNoSource) {
		t.Errorf("empty Source error = %v, want ErrNoSource", err)
	}
}

// TestSaveFallsBackToFile: with no keyring answering (go-keyring's mock
// made to fail, as on a server without a Secret Service), Save writes a
// 0600 file that Lookup reads back, and Delete removes it; with a keyring,
// the entry is there and no file is written.
func TestSaveFallsBackToFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tokens", "google-a@example.com")

	keyring.MockInitWithError(errors.New("no Secret Service"))
	src, err := credential.Save("mailnode-oauth", "google:a@example.com", file, "refresh-1")
	if err != nil || src.File != file {
		t.Fatalf("Save() = %+v, %v, want the file", src, err)
	}
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stat %s = %v, %v, want mode 0600", file, fi, err)
	}
	got, _, err := src.Lookup(os.Getenv)
	if err != nil || got.Reveal() != "refresh-1" {
		t.Fatalf("Lookup() = %v, want the saved token", err)
	}
	if err := src.Delete(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after Delete, stat = %v", err)
	}
	if _, err := credential.Save("mailnode-oauth", "u", "", "x"); err == nil {
		t.Error("Save with neither keyring nor file = nil error")
	}

	// A rotated token replaces the file's; no keyring asked: the file.
	keyring.MockInit()
	if src, err = credential.Save("", "google:a@example.com", file, "refresh-1"); err != nil || src.File != file {
		t.Fatalf("Save(no keyring) = %+v, %v, want the file", src, err)
	}
	if err := src.Replace("refresh-1b"); err != nil {
		t.Fatal(err)
	}
	if got, _, err := src.Lookup(os.Getenv); err != nil || got.Reveal() != "refresh-1b" {
		t.Fatalf("Lookup() after Replace = %v", err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stat %s after Replace = %v, %v, want mode 0600", file, fi, err)
	}
	src.Delete()

	keyring.MockInit()
	src, err = credential.Save("mailnode-oauth", "google:a@example.com", file, "refresh-2")
	if err != nil || src.KeyringService != "mailnode-oauth" || src.File != "" {
		t.Fatalf("Save() = %+v, %v, want the keyring", src, err)
	}
	if got, _, err := src.Lookup(os.Getenv); err != nil || got.Reveal() != "refresh-2" {
		t.Fatalf("Lookup() = %v", err)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written beside the keyring: %v", err)
	}
	if err := src.Replace("refresh-3"); err != nil {
		t.Fatal(err)
	}
	if got, _, err := src.Lookup(os.Getenv); err != nil || got.Reveal() != "refresh-3" {
		t.Fatalf("Lookup() after Replace = %v", err)
	}
}
