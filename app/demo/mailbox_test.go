package demo_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"mailnode/app"
	"mailnode/app/demo"
	"mailnode/assets"
	"mailnode/mail/demobox"
	"mailnode/mail/smtpsend"
)

// TestMailboxConfig: the configuration the sample mailbox hands the node
// is an ordinary one, and what the user's own settings say is kept.
func TestMailboxConfig(t *testing.T) {
	box, err := demo.StartMailbox(demo.MailboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close()
	if box.MX != nil {
		t.Error("a mail exchanger runs though none was asked for")
	}
	own := &smtpsend.Config{Address: "smtp.example.org:587"}
	for _, tc := range []struct {
		name              string
		in                app.Config
		from, smtp, relay string
		authServID        string
	}{
		{"empty", app.Config{}, demo.From, box.SMTP.Addr, demobox.Address, assets.DemoAuthServID},
		{"own sending", app.Config{Outgoing: app.Outgoing{From: "Me <me@example.org>", SMTP: own}},
			"Me <me@example.org>", own.Address, demobox.Address, assets.DemoAuthServID},
		{"own relay address and provider", app.Config{Relay: app.RelayConfig{Address: "me@example.org"},
			Facts: app.FactsConfig{AuthServIDs: []string{"mx.example.org"}}},
			demo.From, box.SMTP.Addr, "me@example.org", "mx.example.org"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.DataDir = t.TempDir()
			cfg, err := box.Config(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Accounts) != 1 || cfg.Accounts[0].Address != box.IMAP.Addr || cfg.Accounts[0].Validate() != nil {
				t.Errorf("accounts = %+v", cfg.Accounts)
			}
			if cfg.Outgoing.From != tc.from || cfg.Outgoing.SMTP == nil || cfg.Outgoing.SMTP.Address != tc.smtp {
				t.Errorf("outgoing = %+v", cfg.Outgoing)
			}
			if a, err := app.RelayAddress(cfg); a != tc.relay || err != nil {
				t.Errorf("relay address = %q, %v, want %q", a, err, tc.relay)
			}
			if len(cfg.Facts.AuthServIDs) != 1 || cfg.Facts.AuthServIDs[0] != tc.authServID {
				t.Errorf("authserv-ids = %v, want %s", cfg.Facts.AuthServIDs, tc.authServID)
			}
			if len(cfg.Facts.KnownSenders) == 0 {
				t.Error("no senders' history")
			}
		})
	}
}

// TestMailboxNode: a node on the sample mailbox's configuration syncs its
// 44 messages, and mail submitted for the demo address (as a relay's code
// mail is) reaches the INBOX it syncs.
func TestMailboxNode(t *testing.T) {
	ctx := context.Background()
	box, err := demo.StartMailbox(demo.MailboxOptions{MX: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer box.Close()
	if box.MX == nil {
		t.Fatal("no mail exchanger")
	}
	cfg, err := box.Config(app.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	n, err := app.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	if _, err := n.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := n.Stats(ctx); err != nil || st.Messages != 44 {
		t.Fatalf("stats = %+v, %v; want 44 messages", st, err)
	}
	addr, tlsc := box.Submission()
	c, err := smtp.DialStartTLS(addr, tlsc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", demobox.Username, demobox.Password)); err != nil {
		t.Fatal(err)
	}
	raw := "From: relay@relay.test\r\nTo: " + demobox.Address + "\r\nSubject: zqcode 123456\r\n\r\nYour code\r\n"
	if err := c.SendMail("relay@relay.test", []string{demobox.Address}, bytes.NewReader([]byte(raw))); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if hits, err := n.Search(ctx, "zqcode", 5); err != nil || len(hits) != 1 {
		t.Errorf("the submitted mail in the synced INBOX: %v, %v", hits, err)
	}
}
