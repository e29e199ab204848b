package app

import (
	"testing"
	"time"

	"mailnode/assets"
	"mailnode/mail/credential"
	"mailnode/mail/demobox"
	"mailnode/mail/imapsync"
	"mailnode/mail/smtpsend"
)

// demoConfig is a configuration that syncs the sample mailbox, served on
// loopback until the test ends. It is what app/demo's Mailbox.Config
// gives, for this package's own tests, which cannot import
// app/demo (it imports app).
func demoConfig(t *testing.T) Config {
	t.Helper()
	srv, err := demobox.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if _, err := srv.Seed(assets.DemoMailbox(), time.Now()); err != nil {
		t.Fatal(err)
	}
	sub, err := demobox.StartSMTP(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sub.Close() })
	sub.DeliverLocally(srv.Deliver)
	history, err := assets.DemoSenderHistory()
	if err != nil {
		t.Fatal(err)
	}
	return Config{DataDir: t.TempDir(),
		Accounts: []imapsync.Config{{Account: "demo", Address: srv.Addr, Security: imapsync.Plain,
			Username: demobox.Username, Password: credential.Secret(demobox.Password)}},
		Outgoing: Outgoing{From: "Alex Morgan <" + demobox.Address + ">", SMTP: &smtpsend.Config{Address: sub.Addr,
			Security: smtpsend.StartTLS, Username: demobox.Username, Password: credential.Secret(demobox.Password), TLSConfig: sub.ClientTLS()}},
		Relay: RelayConfig{Address: demobox.Address},
		Facts: FactsConfig{AuthServIDs: []string{assets.DemoAuthServID}, KnownSenders: history}}
}
