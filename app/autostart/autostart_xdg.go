//go:build !windows && !darwin

package autostart

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// On Linux and the BSDs the entry is a .desktop file in the autostart
// directory (freedesktop.org Desktop Application Autostart
// Specification): $XDG_CONFIG_HOME/autostart/ID.desktop.

func defaultDir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "autostart"), nil
}

// Path is the entry's file.
func (e Entry) Path() string { return filepath.Join(e.Dir, e.ID+".desktop") }

func (e Entry) enabled() bool {
	b, err := os.ReadFile(e.Path())
	return err == nil && !strings.Contains(string(b), "\nHidden=true")
}

func (e Entry) set(on bool) error {
	if !on {
		if err := os.Remove(e.Path()); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(e.Dir, 0o700); err != nil {
		return err
	}
	cmd := execQuote(e.Exe)
	for _, a := range e.Args {
		cmd += " " + execQuote(a)
	}
	entry := "[Desktop Entry]\nType=Application\nName=mailnode\nComment=Your mail, for your agents, on your terms\n" +
		"Exec=" + cmd + "\nIcon=mailnode\nTerminal=false\nX-GNOME-Autostart-enabled=true\n"
	return writeAtomic(e.Path(), []byte(entry))
}

// execQuote quotes an argument for a desktop entry's Exec key when it
// needs it.
func execQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\"'\\$`") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", "$", `\$`)
	return `"` + r.Replace(s) + `"`
}
