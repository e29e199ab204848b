package wintest_test

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"mailnode/internal/xvfbtest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// EnvDesktopExe names the Windows desktop app built by make
// package-windows (mailnode.exe from mailnode-windows-amd64.zip) for
// TestWineDesktop; make test-windows-desktop, which .ci/run calls after
// make package, sets it. The app's cgo build takes minutes, so make test
// does not build it a second time.
const EnvDesktopExe = "MAILNODE_WINE_DESKTOP_EXE"

// TestWineDesktop starts the Windows desktop app under Wine on an Xvfb
// display, on the demo mailbox: its main window opens at the size the
// Linux app's does (880×600), shows the demo's messages read, and the
// node runs; Wine has no AF_UNIX sockets, so the node says it keeps its
// data directory with a lock file instead (app/localapi/nodelock).
// MAILNODE_UI_SHOTS=DIR writes the window as windows-wine.png.
func TestWineDesktop(t *testing.T) {
	exe := os.Getenv(EnvDesktopExe)
	if exe == "" {
		t.Skipf("%s is not set: make test-windows-desktop runs this after make package-windows", EnvDesktopExe)
	}
	for _, tool := range []string{"Xvfb", "xwininfo", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found (make test-deps installs it)", tool)
		}
	}
	dir := t.TempDir()
	w := newWine(t, dir)
	display := xvfbtest.Start(t, 1280, 800)
	w.env = append(w.env, "DISPLAY="+display)

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	logFile := filepath.Join(dir, "app.log")
	f, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	app := w.command(ctx, "wine", exe, "--demo", `--data-dir`, `C:\mailnode-data`, "--listen", "127.0.0.1:0")
	app.Stdout, app.Stderr = f, f
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		w.command(context.Background(), "wineserver", "-k").Run()
		app.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(logFile)
			t.Logf("the app's output:\n%s", b)
		}
	}()

	// The window, by its title, once the demo's mail is read into it.
	win := regexp.MustCompile(`(?m)^\s*(0x[0-9a-f]+) "mailnode": \("mailnode\.exe" "mailnode\.exe"\)\s+(\d+)x(\d+)`)
	var id string
	var width, height int
	var shot image.Image
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(2 * time.Second) {
		if time.Now().After(deadline) {
			t.Fatalf("no window named mailnode showing the demo's messages within 3 minutes")
		}
		out, _ := exec.Command("xwininfo", "-display", display, "-root", "-tree").Output()
		m := win.FindSubmatch(out)
		if m == nil {
			continue
		}
		id = string(m[1])
		fmt.Sscan(string(m[2]), &width)
		fmt.Sscan(string(m[3]), &height)
		b, _ := os.ReadFile(logFile)
		if !strings.Contains(string(b), "Read mail for facts") {
			continue
		}
		png, err := exec.Command("import", "-display", display, "-window", id, "png:-").Output()
		if err != nil {
			continue
		}
		if img, err := decodePNG(png); err == nil && colours(img) > 8 {
			shot = img
			if dir := os.Getenv("MAILNODE_UI_SHOTS"); dir != "" {
				if err := os.WriteFile(filepath.Join(dir, "windows-wine.png"), png, 0o644); err != nil {
					t.Error(err)
				}
			}
			break
		}
	}
	if width != 880 || height != 600 {
		t.Errorf("the window is %d×%d, want 880×600 as on Linux", width, height)
	}
	b, _ := os.ReadFile(logFile)
	for _, want := range []string{"Demo IMAP server started", "keeps its data directory to itself with a lock file", "Serving agents"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the app did not log %q", want)
		}
	}
	t.Logf("window %s, %d×%d, %d colours", id, width, height, colours(shot))
}

func decodePNG(b []byte) (image.Image, error) { return png.Decode(strings.NewReader(string(b))) }

// colours counts the distinct colours of img, up to 1,000: a window that
// drew nothing has one or two.
func colours(img image.Image) int {
	if img == nil {
		return 0
	}
	seen := map[[3]uint32]bool{}
	bnd := img.Bounds()
	for y := bnd.Min.Y; y < bnd.Max.Y && len(seen) < 1000; y += 3 {
		for x := bnd.Min.X; x < bnd.Max.X && len(seen) < 1000; x += 3 {
			r, g, b, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r, g, b}] = true
		}
	}
	return len(seen)
}
