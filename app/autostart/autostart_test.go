package autostart

import (
	"os"
	"path/filepath"
	"testing"
)

func TestNotAvailable(t *testing.T) {
	var e Entry
	if e.Available() || e.Enabled() {
		t.Error("the zero Entry is available")
	}
	if err := e.Set(true); err == nil {
		t.Error("Set on the zero Entry = nil")
	}
}

func TestDefault(t *testing.T) {
	e, err := Default("app.mailnode.node", "--minimized")
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	if !e.Available() || e.Exe != exe || !filepath.IsAbs(e.Exe) || len(e.Args) != 1 {
		t.Errorf("Default = %+v", e)
	}
}
