package config

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestDefaultDataDir: where each platform keeps the node's files, from a
// made-up environment, and with the real one an absolute path.
func TestDefaultDataDir(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := DefaultDataDir(getenv); got != "mailnode-data" {
		t.Errorf("DefaultDataDir(no environment) = %q, want mailnode-data", got)
	}
	var want string
	switch runtime.GOOS {
	case "windows":
		env["AppData"] = `C:\Users\ana\AppData\Roaming`
		want = `C:\Users\ana\AppData\Roaming\mailnode`
	case "darwin":
		env["HOME"] = "/Users/ana"
		want = "/Users/ana/Library/Application Support/mailnode"
	default:
		env["HOME"] = "/home/ana"
		want = "/home/ana/.local/share/mailnode"
		if got := DefaultDataDir(getenv); got != want {
			t.Errorf("DefaultDataDir(HOME) = %q, want %q", got, want)
		}
		env["XDG_DATA_HOME"] = "/data/ana"
		want = "/data/ana/mailnode"
	}
	if got := DefaultDataDir(getenv); got != want {
		t.Errorf("DefaultDataDir(%v) = %q, want %q", env, got, want)
	}
	if got := DefaultDataDir(os.Getenv); !filepath.IsAbs(got) {
		t.Errorf("DefaultDataDir(this environment) = %q, not absolute", got)
	}
}
