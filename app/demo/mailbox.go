package demo

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"mailnode/app"
	"mailnode/assets"
	"mailnode/mail/credential"
	"mailnode/mail/demobox"
	"mailnode/mail/imapsync"
	"mailnode/mail/smtpsend"
)

// From is the demo user's identity on drafts, as the sample mailbox
// addresses her; the address is the one her node registers at a relay.
const From = "Alex Morgan <" + demobox.Address + ">"

// Mailbox is the sample mailbox's mail servers, on loopback in this
// process: an IMAP server seeded with assets.DemoMailbox, a submission
// server that delivers what the demo sends to the demo address into the
// same INBOX (so that drafts approved in the demo never reach the
// Internet), and, if asked for, a mail exchanger that takes mail for the
// demo address from anyone (a relay's code mail).
//
// They run beside the node, not inside it: Config hands the node an
// ordinary configuration naming them, an account and a submission
// server as a user's would, so no production code of app knows a demo
// exists. The caller closes the Mailbox after the node has stopped.
type Mailbox struct {
	IMAP *demobox.Server
	SMTP *demobox.SMTPServer
	// MX is nil unless MailboxOptions.MX was set.
	MX *demobox.Incoming
}

// MailboxOptions are the sample mailbox's settings.
type MailboxOptions struct {
	Logger *slog.Logger // nil: discard
	// MX, if set, is a loopback address where the mailbox also takes
	// mail for the demo address from anyone, as a domain's mail
	// exchanger does: a relay beside the demo node mails its code there
	// (mailnode serve --demo --demo-mx).
	MX string
}

// StartMailbox starts the sample mailbox's servers, its INBOX seeded with
// the sample mail dated relative to now.
func StartMailbox(o MailboxOptions) (_ *Mailbox, err error) {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &Mailbox{}
	defer func() {
		if err != nil {
			m.Close()
		}
	}()
	if m.IMAP, err = demobox.Start(log); err != nil {
		return nil, fmt.Errorf("demo IMAP server: %w", err)
	}
	count, err := m.IMAP.Seed(assets.DemoMailbox(), time.Now())
	if err != nil {
		return nil, fmt.Errorf("demo mailbox: %w", err)
	}
	log.Info("Demo IMAP server started", "addr", m.IMAP.Addr, "messages", count)
	if m.SMTP, err = demobox.StartSMTP(log); err != nil {
		return nil, fmt.Errorf("demo submission server: %w", err)
	}
	m.SMTP.DeliverLocally(m.IMAP.Deliver)
	if o.MX != "" {
		if m.MX, err = demobox.StartIncoming(log, o.MX, m.IMAP.Deliver); err != nil {
			return nil, fmt.Errorf("demo mail exchanger: %w", err)
		}
		log.Info("Demo mail exchanger started: mail for the demo address is delivered into its INBOX", "addr", m.MX.Addr)
	}
	return m, nil
}

// Config returns cfg set to run on the sample mailbox, as a user's
// settings would name a mail account: its one account in place of cfg's;
// the submission server and the user's From, unless cfg sends through a
// server of its own; the demo address as the one to register at a relay,
// unless cfg names one; the authserv-id the sample mail's
// Authentication-Results carry, unless cfg names the provider's; and the
// senders' history the sample's three weeks stand for (the store cannot
// learn it from so little mail).
func (m *Mailbox) Config(cfg app.Config) (app.Config, error) {
	history, err := assets.DemoSenderHistory()
	if err != nil {
		return app.Config{}, err
	}
	cfg.Accounts = []imapsync.Config{{
		Account: "demo", Address: m.IMAP.Addr, Security: imapsync.Plain,
		Username: demobox.Username, Password: credential.Secret(demobox.Password),
		PasswordSource: "the demo server's built-in account",
	}}
	if cfg.Outgoing.SMTP == nil {
		addr, tlsc := m.Submission()
		cfg.Outgoing = app.Outgoing{From: From, SMTP: &smtpsend.Config{Address: addr, Security: smtpsend.StartTLS,
			Username: demobox.Username, Password: credential.Secret(demobox.Password), TLSConfig: tlsc}}
	}
	if cfg.Relay.Address == "" {
		cfg.Relay.Address = demobox.Address
	}
	if len(cfg.Facts.AuthServIDs) == 0 {
		cfg.Facts.AuthServIDs = []string{assets.DemoAuthServID}
	}
	cfg.Facts.KnownSenders = history
	return cfg, nil
}

// Submission is the sample mailbox's submission server and the TLS
// configuration that trusts it: a relay beside the demo node (the demo's,
// tests') sends its code mail there, and it lands in the demo INBOX.
func (m *Mailbox) Submission() (addr string, tlsc *tls.Config) {
	return m.SMTP.Addr, m.SMTP.ClientTLS()
}

// Close stops the servers, last started first.
func (m *Mailbox) Close() error {
	var errs []error
	if m.MX != nil {
		errs = append(errs, m.MX.Close())
	}
	if m.SMTP != nil {
		errs = append(errs, m.SMTP.Close())
	}
	if m.IMAP != nil {
		errs = append(errs, m.IMAP.Close())
	}
	return errors.Join(errs...)
}
