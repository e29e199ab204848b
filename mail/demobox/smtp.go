package demobox

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mailnode/internal/selfsigned"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SMTPServer is a submission server inside the node process, go-smtp's
// server on two loopback ports, one for STARTTLS (as 587) and one for
// implicit TLS (as 465), with a certificate made at start, AUTH PLAIN
// with the demo credentials, and delivery into memory. The
// demo sends its drafts to it, and tests read back what was delivered.
type SMTPServer struct {
	Addr    string // STARTTLS
	TLSAddr string // implicit TLS
	// CA is the certificate clients must trust for STARTTLS.
	CA *x509.Certificate

	srv *smtp.Server
	// lns are closed by Close too: go-smtp's Close closes only the
	// listeners Serve has registered, and a Close right after the start
	// can come before the Serve goroutines run.
	lns []net.Listener

	mu        sync.Mutex
	delivered []Delivery
	// refuse, when set, makes the server refuse the next message with
	// this error; breakAfterData makes it close the connection instead
	// of answering. Tests use them to check what the sender concludes.
	refuse         *smtp.SMTPError
	breakAfterData bool
	// local, if set, delivers messages for Address into a mailbox, as
	// the user's provider would: mail to oneself arrives.
	local func(raw []byte) error
}

// DeliverLocally makes messages accepted for Address arrive through
// deliver (the demo IMAP server's Deliver).
func (s *SMTPServer) DeliverLocally(deliver func(raw []byte) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.local = deliver
}

// Delivery is one message the server accepted.
type Delivery struct {
	From string
	To   []string
	Data []byte
}

// StartSMTP starts the server on a free loopback port.
func StartSMTP(logger *slog.Logger) (*SMTPServer, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cert, err := selfsigned.New("mailnode demo SMTP", "localhost", "127.0.0.1")
	if err != nil {
		return nil, fmt.Errorf("demo SMTP server: %w", err)
	}
	s := &SMTPServer{CA: cert.Leaf}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &smtpSession{s: s, conn: c}, nil }))
	srv.Domain = "localhost"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert.TLS}, MinVersion: tls.VersionTLS12}
	srv.MaxMessageBytes = 10 << 20
	srv.MaxRecipients = 100
	srv.ReadTimeout, srv.WriteTimeout = time.Minute, time.Minute
	srv.ErrorLog = slogLogger{logger.With("component", "demobox-smtp")}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("demo SMTP server: %w", err)
	}
	tlsLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("demo SMTP server: %w", err)
	}
	go srv.Serve(ln)
	go srv.Serve(tls.NewListener(tlsLn, srv.TLSConfig))
	s.Addr, s.TLSAddr, s.srv, s.lns = ln.Addr().String(), tlsLn.Addr().String(), srv, []net.Listener{ln, tlsLn}
	return s, nil
}

// Close stops the server.
func (s *SMTPServer) Close() error {
	err := s.srv.Close()
	for _, ln := range s.lns {
		ln.Close()
	}
	return err
}

// Delivered returns the messages accepted so far.
func (s *SMTPServer) Delivered() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.delivered...)
}

// RefuseNext makes the server refuse the next message with code and text.
func (s *SMTPServer) RefuseNext(code int, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = &smtp.SMTPError{Code: code, Message: text}
}

// BreakAfterNextData makes the server read the next whole message and
// then drop the connection without answering.
func (s *SMTPServer) BreakAfterNextData() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.breakAfterData = true
}

// ClientTLS is the TLS configuration a client needs for this server.
func (s *SMTPServer) ClientTLS() *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(s.CA)
	return &tls.Config{RootCAs: pool, ServerName: "localhost", MinVersion: tls.VersionTLS12}
}

type smtpSession struct {
	s      *SMTPServer
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (ss *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (ss *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != Username || password != Password {
			return errors.New("invalid credentials")
		}
		ss.authed = true
		return nil
	}), nil
}

func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if !ss.authed {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !ss.authed {
		return smtp.ErrAuthRequired
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s := ss.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refuse != nil {
		e := s.refuse
		s.refuse = nil
		return e
	}
	if s.breakAfterData {
		s.breakAfterData = false
		// Delivered, but the client never hears so.
		s.delivered = append(s.delivered, Delivery{From: ss.from, To: ss.to, Data: bytes.Clone(b)})
		ss.conn.Conn().Close()
		return errors.New("connection dropped")
	}
	s.delivered = append(s.delivered, Delivery{From: ss.from, To: ss.to, Data: bytes.Clone(b)})
	if s.local != nil && slices.ContainsFunc(ss.to, func(a string) bool { return strings.EqualFold(a, Address) }) {
		return s.local(bytes.Clone(b))
	}
	return nil
}

func (ss *smtpSession) Reset()        { ss.from, ss.to = "", nil }
func (ss *smtpSession) Logout() error { return nil }

type slogLogger struct{ l *slog.Logger }

func (l slogLogger) Printf(format string, v ...any) { l.l.Debug(fmt.Sprintf(format, v...)) }
func (l slogLogger) Println(v ...any)               { l.l.Debug(fmt.Sprint(v...)) }
