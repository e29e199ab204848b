//go:build !windows && !darwin

package autostart

import (
	"os"
	"strings"
	"testing"
)

func TestXDG(t *testing.T) {
	e := Entry{ID: "app.mailnode.node", Exe: "/opt/mail node/mailnode", Args: []string{"--minimized"}, Dir: t.TempDir() + "/autostart"}
	if e.Enabled() {
		t.Fatal("enabled before Set")
	}
	if err := e.Set(true); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(e.Path())
	if err != nil || !e.Enabled() || !strings.Contains(string(b), "Exec=\"/opt/mail node/mailnode\" --minimized\n") {
		t.Fatalf("entry %q, %v", b, err)
	}
	if fi, _ := os.Stat(e.Path()); fi.Mode().Perm() != 0o600 {
		t.Errorf("entry mode %v", fi.Mode().Perm())
	}
	if err := e.Set(false); err != nil || e.Enabled() {
		t.Fatalf("Set(false) = %v, enabled %v", err, e.Enabled())
	}
	if err := e.Set(false); err != nil {
		t.Errorf("Set(false) with no entry = %v", err)
	}
}
