// Package autostart starts the desktop app when the person logs in, the
// way each desktop expects it: an XDG autostart entry on Linux and the
// BSDs (autostart_xdg.go), a LaunchAgent on macOS (autostart_darwin.go),
// a value under the per-user Run key on Windows (autostart_windows.go).
// Each is per-user and needs no administrator: the app never asks for
// more than the person's own login.
package autostart

import (
	"errors"
	"fmt"
	"os"
)

// Entry is one program started at login.
type Entry struct {
	// ID names the entry: the .desktop file's name, the LaunchAgent's
	// Label and file name, the Run value's name (the app ID,
	// app.mailnode.node).
	ID string
	// Exe is the program's absolute path; Args are passed to it (the app
	// runs "--minimized": into the tray, without a window).
	Exe  string
	Args []string
	// Dir is where the entry is kept: the autostart directory
	// ($XDG_CONFIG_HOME/autostart), ~/Library/LaunchAgents, or on
	// Windows the registry key under HKEY_CURRENT_USER
	// (Software\Microsoft\Windows\CurrentVersion\Run). Empty: autostart
	// is not offered.
	Dir string
}

// Default is the entry for the running executable, started with args,
// where this platform keeps it.
func Default(id string, args ...string) (Entry, error) {
	exe, err := os.Executable()
	if err != nil {
		return Entry{}, fmt.Errorf("autostart: %w", err)
	}
	dir, err := defaultDir()
	if err != nil {
		return Entry{}, fmt.Errorf("autostart: %w", err)
	}
	return Entry{ID: id, Exe: exe, Args: args, Dir: dir}, nil
}

// Available reports whether the entry can be written.
func (e Entry) Available() bool { return e.Dir != "" && e.ID != "" }

// Enabled reports whether the entry is there and on.
func (e Entry) Enabled() bool {
	if !e.Available() {
		return false
	}
	return e.enabled()
}

// Set writes or removes the entry.
func (e Entry) Set(on bool) error {
	if !e.Available() {
		return errors.New("autostart is not available here")
	}
	if err := e.set(on); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}
