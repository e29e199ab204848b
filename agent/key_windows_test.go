package agent

import (
	"path/filepath"
	"testing"

	"mailnode/internal/wintest"
)

// TestKeyWindows: GenerateKey never overwrites a key, and LoadKey reads
// one back: its DACL grants this user alone.
func TestKeyWindows(t *testing.T) {
	path := filepath.Join(wintest.TempDir(t), "agent.key")
	priv, err := GenerateKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := GenerateKey(path); err == nil {
		t.Error("GenerateKey over an existing key = nil")
	}
	if wintest.UnderWine() {
		t.Skip("Wine keeps no DACL (it derives one from the unix mode bits on each read): the key's private DACL cannot be read back here; this part runs on Windows")
	}
	got, err := LoadKey(path)
	if err != nil || !got.Equal(priv) {
		t.Errorf("LoadKey = %v; want the generated key", err)
	}
}
