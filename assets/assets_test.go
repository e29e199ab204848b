package assets

import (
	"strings"
	"testing"
)

// TestDemoSenderHistory: the demo's sender history parses, and names none
// of the demo mailbox's hostile senders, which stay as new as their mail.
func TestDemoSenderHistory(t *testing.T) {
	h, err := DemoSenderHistory()
	if err != nil {
		t.Fatal(err)
	}
	if len(h) < 20 {
		t.Fatalf("%d domains", len(h))
	}
	for d := range h {
		for _, hostile := range []string{"account-verify", "billing-secure", "amaz0n"} {
			if strings.Contains(d, hostile) {
				t.Errorf("the hostile sender %s is in the history", d)
			}
		}
	}
}
