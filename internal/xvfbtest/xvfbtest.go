// Package xvfbtest runs an X server without a screen (Xvfb) for a test
// that shows windows: the desktop app's end-to-end tests, on Linux and
// under Wine.
package xvfbtest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Start runs Xvfb with one screen of width×height at 24 bits, on a display
// number it picks itself (-displayfd), listening on no TCP port, until
// the test ends; it returns the display (":N").
func Start(t testing.TB, width, height int) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", width, height), "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("Xvfb gave no display: %v", err)
	}
	return ":" + strings.TrimSpace(line)
}
