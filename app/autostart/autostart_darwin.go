package autostart

import (
	"bytes"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
)

// On macOS the entry is a LaunchAgent: a property list in
// ~/Library/LaunchAgents that launchd reads at login (launchd.plist(5)).
// RunAtLoad starts the app once at login; it is not kept alive, so Quit
// stays quit. A plist there is loaded at the next login without
// launchctl.

func defaultDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "Library", "LaunchAgents"), nil
}

// Path is the entry's file.
func (e Entry) Path() string { return filepath.Join(e.Dir, e.ID+".plist") }

func (e Entry) enabled() bool {
	b, err := os.ReadFile(e.Path())
	return err == nil && !bytes.Contains(b, []byte("<key>Disabled</key>\n\t<true/>"))
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
	return writeAtomic(e.Path(), e.plist())
}

// plist is the LaunchAgent: Label, ProgramArguments, RunAtLoad, and
// ProcessType Interactive (a UI app: launchd does not throttle it).
func (e Entry) plist() []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n")
	b.WriteString("<plist version=\"1.0\">\n<dict>\n\t<key>Label</key>\n\t<string>")
	xml.EscapeText(&b, []byte(e.ID))
	b.WriteString("</string>\n\t<key>ProgramArguments</key>\n\t<array>\n")
	for _, a := range append([]string{e.Exe}, e.Args...) {
		b.WriteString("\t\t<string>")
		xml.EscapeText(&b, []byte(a))
		b.WriteString("</string>\n")
	}
	b.WriteString("\t</array>\n\t<key>RunAtLoad</key>\n\t<true/>\n\t<key>ProcessType</key>\n\t<string>Interactive</string>\n</dict>\n</plist>\n")
	return b.Bytes()
}
