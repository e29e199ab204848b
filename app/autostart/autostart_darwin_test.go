package autostart

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestLaunchAgent(t *testing.T) {
	e := Entry{ID: "app.mailnode.node", Exe: "/Applications/mailnode.app/Contents/MacOS/mailnode", Args: []string{"--minimized"}, Dir: t.TempDir()}
	if err := e.Set(true); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(e.Path())
	if err != nil || !e.Enabled() || !strings.Contains(string(b), "<string>/Applications/mailnode.app/Contents/MacOS/mailnode</string>\n\t\t<string>--minimized</string>") {
		t.Fatalf("plist %s, %v", b, err)
	}
	// plutil (part of macOS) checks the property list as launchd reads it.
	if out, err := exec.Command("plutil", "-lint", e.Path()).CombinedOutput(); err != nil {
		t.Errorf("plutil -lint: %v %s", err, out)
	}
	if err := e.Set(false); err != nil || e.Enabled() {
		t.Fatalf("Set(false) = %v, enabled %v", err, e.Enabled())
	}
}
