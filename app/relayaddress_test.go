package app_test

import (
	"strings"
	"testing"

	"mailnode/app"
	"mailnode/mail/imapsync"
)

// TestRelayAddress: the address a node registers at its relay, and the
// reason when it has none, which mailnode serve refuses to start on.
func TestRelayAddress(t *testing.T) {
	acct := func(user string) []imapsync.Config { return []imapsync.Config{{Account: "a", Username: user}} }
	for _, tc := range []struct {
		name     string
		cfg      app.Config
		want     string
		wantErrs []string
	}{
		{"configured", app.Config{Relay: app.RelayConfig{Address: "ann@example.com"}, Accounts: acct("u")}, "ann@example.com", nil},
		{"IMAP username", app.Config{Accounts: acct("ann@example.com")}, "ann@example.com", nil},
		{"sending From", app.Config{Accounts: acct("u"), Outgoing: app.Outgoing{From: "Ann <ann@example.com>"}}, "ann@example.com", nil},
		{"username not an address", app.Config{Relay: app.RelayConfig{URL: "https://relay.example"}, Accounts: acct("u")}, "",
			[]string{`IMAP username ("u") is not an address`, "--relay-address", "https://relay.example"}},
		{"no account", app.Config{Relay: app.RelayConfig{URL: "https://relay.example"}}, "", []string{"there is no IMAP account", "--relay-address"}},
		{"configured, not an address", app.Config{Relay: app.RelayConfig{Address: "ann"}, Accounts: acct("ann@example.com")}, "",
			[]string{`--relay-address "ann" is not an e-mail address`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := app.RelayAddress(tc.cfg)
			if got != tc.want || (err != nil) != (tc.wantErrs != nil) {
				t.Fatalf("RelayAddress = %q, %v; want %q, error %v", got, err, tc.want, tc.wantErrs != nil)
			}
			for _, w := range tc.wantErrs {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("RelayAddress error = %q, want it to contain %q", err, w)
				}
			}
		})
	}
}
