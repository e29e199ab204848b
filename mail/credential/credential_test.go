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
