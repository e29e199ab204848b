package agent_test

import (
	"os/exec"
	"strings"
	"testing"
)

// linked lists the packages pkgs link (go list -deps), without tests.
func linked(t *testing.T, pkgs ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps %v: %v", pkgs, err)
	}
	return strings.Fields(string(out))
}

// TestAgentLinksNothingOfTheNode: the agent SDK and its command are what an
// agent's author builds on; they must not drag in the node (its store,
// mail, extractors, gateway, approvals) nor the desktop UI.
func TestAgentLinksNothingOfTheNode(t *testing.T) {
	for _, p := range linked(t, "mailnode/agent", "mailnode/cmd/mailnode-agent") {
		for _, banned := range []string{"mailnode/app", "mailnode/mail/", "mailnode/extract", "mailnode/gateway", "mailnode/approvals", "fyne.io/", "modernc.org/sqlite"} {
			if p == strings.TrimSuffix(banned, "/") || strings.HasPrefix(p, banned) {
				t.Errorf("the agent side links %s", p)
			}
		}
	}
}

// TestCoreLinksNoUI: nothing but the desktop app's own package may link
// fyne.io, so that servers, the relay and CI build without cgo.
func TestCoreLinksNoUI(t *testing.T) {
	for _, p := range linked(t, "mailnode/app", "mailnode/gateway/...", "mailnode/mail/...", "mailnode/extract/...", "mailnode/approvals/...") {
		if strings.HasPrefix(p, "fyne.io/") {
			t.Errorf("a core package links %s", p)
		}
	}
}
