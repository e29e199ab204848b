package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Autostart is the XDG autostart entry that starts the app at login
// (freedesktop.org Desktop Application Autostart Specification): a .desktop
// file in $XDG_CONFIG_HOME/autostart.
type Autostart struct {
	// Path is the entry's file, e.g. ~/.config/autostart/app.mailnode.node.desktop.
	Path string
	// Exec is the command line it runs, e.g. "/usr/bin/mailnode --minimized".
	Exec string
}

// DefaultAutostart is the entry for the running executable.
func DefaultAutostart(appID string) (Autostart, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return Autostart{}, fmt.Errorf("autostart: %w", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return Autostart{}, fmt.Errorf("autostart: %w", err)
	}
	return Autostart{Path: filepath.Join(dir, "autostart", appID+".desktop"), Exec: execQuote(exe) + " --minimized"}, nil
}

// Enabled reports whether the entry exists and is not hidden.
func (a Autostart) Enabled() bool {
	b, err := os.ReadFile(a.Path)
	return err == nil && !strings.Contains(string(b), "\nHidden=true")
}

// Set writes or removes the entry.
func (a Autostart) Set(on bool) error {
	if a.Path == "" {
		return errors.New("autostart is not available here")
	}
	if !on {
		if err := os.Remove(a.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("autostart: %w", err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(a.Path), 0o700); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	entry := "[Desktop Entry]\nType=Application\nName=mailnode\nComment=Your mail, for your agents, on your terms\n" +
		"Exec=" + a.Exec + "\nIcon=mailnode\nTerminal=false\nX-GNOME-Autostart-enabled=true\n"
	tmp := a.Path + ".tmp"
	if err := os.WriteFile(tmp, []byte(entry), 0o600); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	if err := os.Rename(tmp, a.Path); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

// execQuote quotes a path for a desktop entry's Exec key when it needs it.
func execQuote(s string) string {
	if !strings.ContainsAny(s, " \t\"'\\$`") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", "$", `\$`)
	return `"` + r.Replace(s) + `"`
}
