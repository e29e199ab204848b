package xvfbtest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestDisplayOutlivesItsClients connects to a started display again and
// again, each client leaving before the next comes, as the handshakes, the
// pointer's parking and the app do in turn. An X server that resets when
// its last client leaves drops some of these connections.
func TestDisplayOutlivesItsClients(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil {
		if os.Getenv("MAILNODE_TEST_DESKTOP") == "1" {
			t.Fatal("Xvfb not found (required by MAILNODE_TEST_DESKTOP=1; Debian package xvfb)")
		}
		t.Skip("Xvfb not found")
	}
	for server := 0; server < 3; server++ {
		display := Start(t, 320, 240)
		n := strings.TrimPrefix(display, ":")
		for i := 0; i < 20; i++ {
			if err := handshake("/tmp/.X11-unix/X" + n); err != nil {
				t.Fatalf("display %s, client %d: %v", display, i+1, err)
			}
		}
	}
}
