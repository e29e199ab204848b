package autostart

import (
	"errors"
	"strings"
	"syscall"

	"golang.org/x/sys/windows/registry"
)

// On Windows the entry is a string value named ID under the per-user Run
// key (HKEY_CURRENT_USER\Software\Microsoft\Windows\CurrentVersion\Run):
// the command line Explorer runs at login. Per-user, so no
// administrator is asked; Task Manager's Startup tab lists it and can
// turn it off there (it then keeps the value and marks it off under
// StartupApproved, which this package leaves alone: the person's
// choice there wins over the app's switch).

// RunKey is the per-user Run key.
const RunKey = `Software\Microsoft\Windows\CurrentVersion\Run`

func defaultDir() (string, error) { return RunKey, nil }

// Path names the value, for the settings window.
func (e Entry) Path() string { return `HKEY_CURRENT_USER\` + e.Dir + `\` + e.ID }

func (e Entry) enabled() bool {
	k, err := registry.OpenKey(registry.CURRENT_USER, e.Dir, registry.QUERY_VALUE)
	if err != nil {
		return false
	}
	defer k.Close()
	v, _, err := k.GetStringValue(e.ID)
	return err == nil && v != ""
}

func (e Entry) set(on bool) error {
	if !on {
		k, err := registry.OpenKey(registry.CURRENT_USER, e.Dir, registry.SET_VALUE)
		if errors.Is(err, registry.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		defer k.Close()
		if err := k.DeleteValue(e.ID); err != nil && !errors.Is(err, registry.ErrNotExist) {
			return err
		}
		return nil
	}
	k, _, err := registry.CreateKey(registry.CURRENT_USER, e.Dir, registry.SET_VALUE)
	if err != nil {
		return err
	}
	defer k.Close()
	return k.SetStringValue(e.ID, e.commandLine())
}

// commandLine quotes the program and its arguments as Windows programs
// split them (CommandLineToArgvW, as syscall.EscapeArg writes them).
func (e Entry) commandLine() string {
	parts := []string{syscall.EscapeArg(e.Exe)}
	for _, a := range e.Args {
		parts = append(parts, syscall.EscapeArg(a))
	}
	return strings.Join(parts, " ")
}
