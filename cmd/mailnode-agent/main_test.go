package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mailnode/agent"
)

func TestKeygen(t *testing.T) {
	dir := t.TempDir()
	key, doc := filepath.Join(dir, "a.key"), filepath.Join(dir, "doc.json")
	args := []string{"keygen", "--domain", "agent.example", "--key-file", key, "--doc-file", doc}
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("keygen = %d, %s", code, errb.String())
	}
	fi, err := os.Stat(key)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	priv, err := agent.LoadKey(key)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Domain string
		Keys   []struct{ Kid, X string }
	}
	b, _ := os.ReadFile(doc)
	if err := json.Unmarshal(b, &d); err != nil || d.Domain != "agent.example" || d.Keys[0].Kid != "k1" {
		t.Fatalf("key document = %s, %v", b, err)
	}
	want, _ := agent.KeyDocument("agent.example", "k1", priv.Public().(ed25519.PublicKey))
	if strings.TrimSpace(string(b)) != string(want) {
		t.Errorf("key document does not hold the generated key")
	}
	if strings.Contains(out.String()+errb.String(), "PRIVATE KEY") {
		t.Errorf("keygen printed the private key")
	}

	// Never overwrite a key.
	before, _ := os.ReadFile(key)
	if code := run(args, &out, &errb); code != 1 {
		t.Errorf("second keygen = %d, want 1 (refusal)", code)
	}
	if after, _ := os.ReadFile(key); !bytes.Equal(before, after) {
		t.Errorf("second keygen changed the key file")
	}

	os.Chmod(key, 0o644)
	if _, err := agent.LoadKey(key); err == nil {
		t.Errorf("LoadKey(world-readable file) succeeded, want a refusal")
	}
	if code := run([]string{"keygen"}, &out, &errb); code != 2 {
		t.Errorf("keygen without --domain = %d, want 2", code)
	}
}
