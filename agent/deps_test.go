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

// TestRelayLinksNothingOfTheNode: the relay runs on a server that holds
// no mail; its binary must not contain the code that reads mail, the
// node's gateway or approvals, the node's core, nor the desktop UI.
func TestRelayLinksNothingOfTheNode(t *testing.T) {
	for _, p := range linked(t, "mailnode/cmd/mailnode-relay") {
		for _, banned := range []string{"mailnode/app", "mailnode/mail/", "mailnode/extract", "mailnode/gateway", "mailnode/approvals", "mailnode/agent", "fyne.io/", "github.com/emersion/go-imap"} {
			if p == strings.TrimSuffix(banned, "/") || strings.HasPrefix(p, banned) {
				t.Errorf("the relay links %s", p)
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

// TestCommandsUseApp: the command line (and later the tray) reach mail
// through app's methods and view types only, never the store, the syncer,
// the drafts or the credentials directly.
func TestCommandsUseApp(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, "mailnode/cmd/mailnode").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		for _, banned := range []string{"mailnode/mail/store", "mailnode/mail/imapsync", "mailnode/mail/drafts", "mailnode/mail/smtpsend", "mailnode/mail/credential"} {
			if p == banned {
				t.Errorf("cmd/mailnode imports %s: add what it needs to app", p)
			}
		}
	}
}

// TestWirePackagesLinkNothing: the packages of wire types that two
// programs share import nothing of either side, and the reference phone
// reaches the node through them alone (and relay/devnet, the development
// DNS and port overrides it shares with mailnode-agent, which links
// nothing either).
func TestWirePackagesLinkNothing(t *testing.T) {
	for _, wire := range []string{"mailnode/agent/agentproto", "mailnode/approvals/phoneapi", "mailnode/approvals/pairing", "mailnode/app/config", "mailnode/relay/devnet"} {
		for _, p := range linked(t, wire) {
			if strings.HasPrefix(p, "mailnode/") && p != wire {
				t.Errorf("%s links %s", wire, p)
			}
		}
	}
	for _, p := range linked(t, "mailnode/gateway/phone/phoneclient", "mailnode/cmd/mailnode-phone") {
		if strings.HasPrefix(p, "mailnode/") && !strings.HasPrefix(p, "mailnode/approvals/pairing") &&
			!strings.HasPrefix(p, "mailnode/approvals/phoneapi") && p != "mailnode/gateway/phone/phoneclient" && p != "mailnode/cmd/mailnode-phone" &&
			p != "mailnode/relay/devnet" {
			t.Errorf("the reference phone links %s", p)
		}
	}
}

// TestBinariesLinkNoTestCA: Pebble, the ACME test CA, is for tests only;
// no program may contain it.
func TestBinariesLinkNoTestCA(t *testing.T) {
	for _, p := range linked(t, "mailnode/cmd/...") {
		if strings.HasPrefix(p, "github.com/letsencrypt/") || p == "mailnode/relay/acmetest" {
			t.Errorf("a program links %s", p)
		}
	}
}
