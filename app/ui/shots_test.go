package ui

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"mailnode/app"
)

// TestShotTrayMenu draws the tray menu as Fyne draws menus, for the README
// (MAILNODE_UI_SHOTS=DIR). A panel draws the same items in its own style;
// the end-to-end test reads them over dbusmenu.
func TestShotTrayMenu(t *testing.T) {
	dir := os.Getenv("MAILNODE_UI_SHOTS")
	if dir == "" {
		t.Skip("MAILNODE_UI_SHOTS not set")
	}
	fa := test.NewTempApp(t)
	//lint:ignore SA1019 the tray menu's screenshot is of the dark variant on purpose, whatever the machine prefers.
	fa.Settings().SetTheme(theme.DarkTheme())
	n, err := app.New(app.Config{DataDir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := New(fa, n, Options{TrayHost: func() bool { return true }})
	m := widget.NewMenu(u.Menu())
	w := test.NewWindow(m)
	w.SetPadded(false)
	w.Resize(m.MinSize())
	var b bytes.Buffer
	if err := png.Encode(&b, w.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tray-menu.png"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
