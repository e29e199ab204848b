package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDataDirWindows: in this Windows session's own environment the
// data directory is %AppData%\mailnode, where os.UserConfigDir (the
// shell's FOLDERID_RoamingAppData) points.
func TestDataDirWindows(t *testing.T) {
	appData, err := os.UserConfigDir()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := DefaultDataDir(os.Getenv), filepath.Join(appData, "mailnode"); got != want {
		t.Errorf("DefaultDataDir = %q, want %q", got, want)
	}
}
