// Package imaptest starts real IMAP servers on loopback for tests and
// benchmarks: go-imap's in-memory server, and a Dovecot run unprivileged
// with a throw-away Maildir. Both speak IMAP over TCP, so the code under
// test takes the same path it takes against a user's provider.
package imaptest

import (
	"testing"

	"github.com/emersion/go-imap/v2/imapclient"

	"mailnode/mail/demobox"
)

// Server is a running IMAP server with one user.
type Server struct {
	Kind     string // "memory" or "dovecot"
	Addr     string // 127.0.0.1:port
	Username string
	Password string
}

// NewMemory starts the in-memory server the demo uses (see package
// demobox) with an empty INBOX. It advertises IMAP4rev2 (so IDLE and
// ESEARCH) but not CONDSTORE, which exercises the client's fallbacks. It
// stops when the test ends.
func NewMemory(t testing.TB) *Server {
	t.Helper()
	srv, err := demobox.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return &Server{Kind: "memory", Addr: srv.Addr, Username: demobox.Username, Password: demobox.Password}
}

// Dial logs in to the server with a plain client, for the test's own
// operations on the mailbox.
func (s *Server) Dial(t testing.TB) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(s.Addr, nil)
	if err != nil {
		t.Fatalf("dial %s server: %v", s.Kind, err)
	}
	if err := c.Login(s.Username, s.Password).Wait(); err != nil {
		t.Fatalf("login to %s server: %v", s.Kind, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
