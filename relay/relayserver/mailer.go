package relayserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"mailnode/relay"
)

// Mailer sends a registration's code to the address being registered.
type Mailer interface {
	SendCode(ctx context.Context, to string, m CodeMail) error
	// From is the code mail's sender address.
	From() string
}

// SMTPMailer submits code mail to a submission server (RFC 6409). The
// operator makes that server sign as From's domain (DKIM) and lists it in
// the domain's SPF record (docs/relay.md), or the code lands in spam.
type SMTPMailer struct {
	Addr string // host:port
	// Security is "starttls" (default), "tls", or "plain", which Validate
	// refuses off loopback unless AllowInsecure.
	Security string
	Username string // empty: no authentication
	Password string
	Sender   string // the From address
	// TLS is the client's TLS configuration; nil verifies the server's
	// name against the system roots.
	TLS *tls.Config
	// AllowInsecure permits "plain" to a server that is not on loopback:
	// the login and every code would cross the network in clear, and a
	// code is what proves an address, so only for development.
	AllowInsecure bool
}

// Validate reports a mailer that cannot work or is unsafe.
func (m *SMTPMailer) Validate() error {
	host, _, err := net.SplitHostPort(m.Addr)
	if err != nil {
		return fmt.Errorf("SMTP address %q: want host:port", m.Addr)
	}
	switch m.Security {
	case "", "starttls", "tls":
	case "plain":
		if ip := net.ParseIP(host); !m.AllowInsecure && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return fmt.Errorf("refusing plain SMTP to %s: the login and the codes would cross the network in clear "+
				"(use starttls or tls, or allow insecure explicitly)", host)
		}
	default:
		return fmt.Errorf("SMTP security %q: want starttls, tls or plain", m.Security)
	}
	return nil
}

func (m *SMTPMailer) From() string { return m.Sender }

// CodeMail is what a code mail says: the live code and its reference.
type CodeMail struct {
	ID      string // relay.RegisterPending's CodeID, at the end of the subject
	Code    string
	Expires time.Time
}

func (m *SMTPMailer) SendCode(ctx context.Context, to string, cm CodeMail) error {
	if err := m.Validate(); err != nil {
		return err
	}
	host, _, _ := net.SplitHostPort(m.Addr)
	cfg := m.TLS
	if cfg == nil {
		cfg = &tls.Config{ServerName: host}
	} else if cfg.ServerName == "" && !cfg.InsecureSkipVerify {
		cfg = cfg.Clone()
		cfg.ServerName = host
	}
	var c *smtp.Client
	d := net.Dialer{Timeout: 30 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", m.Addr)
	if err != nil {
		return fmt.Errorf("dial submission server: %w", err)
	}
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	} else {
		conn.SetDeadline(time.Now().Add(time.Minute))
	}
	switch m.Security {
	case "tls":
		tc := tls.Client(conn, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return fmt.Errorf("tls: %w", err)
		}
		c = smtp.NewClient(tc)
	case "plain":
		c = smtp.NewClient(conn)
	default:
		c, err = smtp.NewClientStartTLS(conn, cfg)
		if err == nil {
			// go-smtp shakes hands at the next command: this EHLO, so
			// that a certificate the relay does not trust is said to be
			// STARTTLS's failure, not the login's.
			if err = c.Hello("localhost"); err != nil {
				c.Close()
			}
		}
		if err != nil {
			conn.Close()
			return fmt.Errorf("starttls: %w", err)
		}
	}
	defer c.Close()
	if m.Username != "" {
		if err := c.Auth(sasl.NewPlainClient("", m.Username, m.Password)); err != nil {
			var serr *smtp.SMTPError
			if errors.As(err, &serr) && serr.Code == 535 { // RFC 4954 section 6: credentials invalid
				return fmt.Errorf("smtp login as %q: authentication failed, check the username and password: %w", m.Username, err)
			}
			return fmt.Errorf("smtp login as %q: %w", m.Username, err)
		}
	}
	// Each step says what the server refused: a sender the login may not
	// use, a recipient it will not take, or the mail.
	var opts *smtp.MailOptions
	if !isASCII(m.Sender) || !isASCII(to) {
		opts = &smtp.MailOptions{UTF8: true} // RFC 6531
	}
	if err := c.Mail(m.Sender, opts); err != nil {
		return stepError("the sender "+m.Sender, err)
	}
	if err := c.Rcpt(to, nil); err != nil {
		return stepError("the recipient "+to, err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("submit code mail: %w", err)
	}
	if _, err := w.Write(codeMessage(m.Sender, to, cm, time.Now())); err != nil {
		w.Close()
		return fmt.Errorf("submit code mail: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("submit code mail: %w", err)
	}
	// The server took the mail with its answer to DATA: a failed QUIT
	// does not unsend it, and calling it a failure would have the relay
	// mail another code.
	c.Quit()
	return nil
}

// stepError says what a step of the submission was about, and whether the
// server refused it or the client failed (a server without SMTPUTF8, a
// broken connection).
func stepError(what string, err error) error {
	var serr *smtp.SMTPError
	if errors.As(err, &serr) {
		return fmt.Errorf("the submission server refused %s: %w", what, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// codeMessage is the code mail. Its subject names the code (the node
// searches its mailbox for the reference); the code is in a header of its
// own and in the text. The node tells it from a forgery by the code's
// hash, which the relay told it over TLS, never by sender, subject or
// date, which anyone can write.
func codeMessage(from, to string, cm CodeMail, now time.Time) []byte {
	id := make([]byte, 12)
	rand.Read(id)
	domain := from[strings.LastIndexByte(from, '@')+1:]
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: mailnode relay <%s>\r\n", from)
	fmt.Fprintf(&b, "To: <%s>\r\n", to)
	fmt.Fprintf(&b, "Subject: %s%s\r\n", relay.CodeSubject, cm.ID)
	fmt.Fprintf(&b, "Date: %s\r\n", now.UTC().Format(time.RFC1123Z))
	fmt.Fprintf(&b, "Message-ID: <%s@%s>\r\n", hex.EncodeToString(id), domain)
	fmt.Fprintf(&b, "%s: %s\r\n", relay.HeaderRelayCode, cm.Code)
	b.WriteString("Auto-Submitted: auto-generated\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	fmt.Fprintf(&b, "Someone asked for a mailnode to be reachable through this relay at this address.\r\n\r\n"+
		"Code: %s\r\n\r\nThe node reads this mail and confirms by itself; you need not do anything.\r\n"+
		"The code is good until %s.\r\n"+
		"If you did not set up a mailnode, ignore this mail: without the code nothing happens,\r\n"+
		"and however often anyone asks, no other code is mailed before then.\r\n",
		cm.Code, cm.Expires.UTC().Format("2006-01-02 15:04 UTC"))
	return b.Bytes()
}
