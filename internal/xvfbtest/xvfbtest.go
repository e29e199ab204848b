// Package xvfbtest runs an X server without a screen (Xvfb) for a test
// that shows windows: the desktop app's end-to-end tests, on Linux and
// under Wine.
package xvfbtest

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Start runs Xvfb with one screen of width×height at 24 bits, listening on
// no TCP port, until the test ends; it returns the display (":N").
//
// The display number is drawn at random from a high range rather than
// left to Xvfb's -displayfd search from :0: test packages run at once
// (the desktop app's and Wine's), and servers killed by earlier runs leave
// their socket files behind, so a search from :0 races other servers for
// the same low numbers. A CI run once got a display its app could not
// open. A drawn number that is taken makes Xvfb exit ("Cannot establish
// any listening sockets"), and another is drawn. Xvfb still reports on
// -displayfd, which it writes once it accepts clients; the display is then
// checked through both sockets a client may use (Linux's abstract one,
// which libxcb tries first, and the file in /tmp/.X11-unix), so a server
// that is not the test's own is never handed out. Xvfb's own output is
// logged if the test fails.
//
// Xvfb runs with -noreset. Without it an X server resets itself each time
// its last client leaves, and a client that connects during the reset is
// dropped before the connection setup's reply ("X connection setup: EOF",
// or the app's "Failed to open display"). The handshakes above are such
// last clients, and so is the pointer's parking after them: measured here
// (Xvfb 21.1, a server started and connected to six times in a row), 22 of
// 60 servers dropped a connection without -noreset, none of 120 with it
// (TestDisplayOutlivesItsClients).
func Start(t testing.TB, width, height int) string {
	t.Helper()
	var lastErr error
	for attempt := 0; attempt < 8; attempt++ {
		n := 1000 + rand.IntN(30000)
		display, err := start(t, n, width, height)
		if err == nil {
			return display
		}
		lastErr = err
	}
	t.Fatalf("no Xvfb display: %v", lastErr)
	return ""
}

// start runs one Xvfb on display n; on any failure it stops it and says why.
func start(t testing.TB, n, width, height int) (string, error) {
	display := fmt.Sprintf(":%d", n)
	if inUse(n) {
		return "", fmt.Errorf("display %s is in use", display)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	defer r.Close()
	var out lockedBuffer
	cmd := exec.Command("Xvfb", display, "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", width, height), "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		w.Close()
		return "", fmt.Errorf("start Xvfb: %w", err)
	}
	w.Close()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stop := func() {
		// SIGTERM lets Xvfb remove its socket file; a killed one leaves
		// it behind for the next run to trip over.
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	var line string
	select {
	case line = <-got:
	case <-time.After(30 * time.Second):
		stop()
		return "", fmt.Errorf("the X server on %s gave no display in 30 s: %s", display, out.String())
	}
	if line != fmt.Sprint(n) {
		stop()
		return "", fmt.Errorf("the X server on %s did not start (reported %q): %s", display, line, out.String())
	}
	for _, addr := range []string{"@/tmp/.X11-unix/X" + line, "/tmp/.X11-unix/X" + line} {
		if err := handshake(addr); err != nil {
			stop()
			return "", fmt.Errorf("the X server on %s does not answer on %s: %v; its output: %s", display, addr, err, out.String())
		}
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("Xvfb %s output:\n%s", display, out.String())
		}
	})
	return display, nil
}

// inUse reports whether some X server already answers on display n's
// abstract socket (the one a stale socket file cannot fake).
func inUse(n int) bool {
	c, err := net.DialTimeout("unix", fmt.Sprintf("@/tmp/.X11-unix/X%d", n), time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// handshake opens an X connection at addr and checks the server accepts it
// (X11 connection setup, no authorization, as Xvfb admits local clients).
func handshake(addr string) error {
	c, err := net.DialTimeout("unix", addr, 5*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write([]byte{'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0}); err != nil {
		return err
	}
	head := make([]byte, 8)
	if _, err := c.Read(head[:1]); err != nil {
		return fmt.Errorf("connection setup: %w", err)
	}
	if head[0] != 1 {
		return fmt.Errorf("connection refused by the server (status %d)", head[0])
	}
	return nil
}

// lockedBuffer collects a process's output while the test may read it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
