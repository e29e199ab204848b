package demobox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"
)

// Incoming is the demo mailbox's mail exchanger: an SMTP server that takes
// mail for Address from anyone, without a login, as a domain's MX does on
// port 25, and delivers it into the demo INBOX. A relay beside the demo
// node mails its confirmation code here (the README's walk-through through
// a relay). It refuses every other recipient, so it relays nothing, and
// it listens on loopback only.
type Incoming struct {
	Addr string
	srv  *smtp.Server
	ln   net.Listener // closed by Close too, as SMTPServer's
	left atomic.Int32 // messages it still takes
}

// maxIncoming bounds one message: code mail is a few KiB.
const maxIncoming = 256 << 10

// maxIncomingMessages bounds what one run takes in all: the demo INBOX
// lives in memory, and any process on this computer may send here (an
// outside attack grew the node by 200 MiB in 3 s). A relay mails a code
// per registration, a handful in a session.
const maxIncomingMessages = 100

// StartIncoming listens on addr, which must be a loopback address, and
// hands each message for Address to deliver.
func StartIncoming(logger *slog.Logger, addr string, deliver func(raw []byte) error) (*Incoming, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("demo mail exchanger: %w", err)
	}
	if ip, err := netip.ParseAddr(host); host != "localhost" && (err != nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("demo mail exchanger: %s is not a loopback address: it takes mail from anyone", addr)
	}
	in := &Incoming{}
	in.left.Store(maxIncomingMessages)
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &incomingSession{deliver: deliver, in: in}, nil
	}))
	srv.Domain = "demo-mail.example"
	srv.MaxMessageBytes = maxIncoming
	srv.MaxRecipients = 10
	srv.ReadTimeout, srv.WriteTimeout = time.Minute, time.Minute
	srv.ErrorLog = slogLogger{logger.With("component", "demobox-mx")}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("demo mail exchanger: %w", err)
	}
	go srv.Serve(ln)
	in.Addr, in.srv, in.ln = ln.Addr().String(), srv, ln
	return in, nil
}

// Close stops the server.
func (in *Incoming) Close() error {
	err := in.srv.Close()
	in.ln.Close()
	return err
}

type incomingSession struct {
	deliver func(raw []byte) error
	in      *Incoming
	rcpt    bool
}

func (s *incomingSession) Mail(string, *smtp.MailOptions) error { return nil }

func (s *incomingSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !strings.EqualFold(strings.TrimSpace(to), Address) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
			Message: "no such mailbox here: this server takes mail for " + Address + " only"}
	}
	s.rcpt = true
	return nil
}

func (s *incomingSession) Data(r io.Reader) error {
	if !s.rcpt {
		return errors.New("no recipient")
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(r); err != nil {
		return err
	}
	if s.in.left.Add(-1) < 0 {
		return &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 2, 2},
			Message: "the demo mailbox takes no more mail in this run"}
	}
	if err := s.deliver(b.Bytes()); err != nil {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "could not deliver: try again"}
	}
	return nil
}

func (s *incomingSession) Reset()        { s.rcpt = false }
func (s *incomingSession) Logout() error { return nil }
