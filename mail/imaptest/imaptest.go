// Package imaptest starts real IMAP servers on loopback for tests and
// benchmarks: go-imap's in-memory server, and a Dovecot run unprivileged
// with a throw-away Maildir. Both speak IMAP over TCP, so the code under
// test takes the same path it takes against a user's provider.
package imaptest

import (
	"net"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// Server is a running IMAP server with one user.
type Server struct {
	Kind     string // "memory" or "dovecot"
	Addr     string // 127.0.0.1:port
	Username string
	Password string
	// Log returns the server's own log, for failure messages.
	Log func() string
}

// NewMemory starts imapmemserver on loopback with one user whose INBOX
// exists. It advertises IMAP4rev2 (so IDLE and ESEARCH) but not CONDSTORE,
// which exercises the client's fallbacks. It stops when the test ends.
func NewMemory(t testing.TB) *Server {
	t.Helper()
	srv, _ := StartMemory(t.Logf)
	t.Cleanup(func() { srv.close() })
	return srv.Server
}

// MemoryServer is a started in-memory server; Close stops it.
type MemoryServer struct {
	*Server
	close func() error
}

// Close stops the server.
func (m *MemoryServer) Close() error { return m.close() }

// StartMemory starts imapmemserver outside a test (the demo uses it) and
// returns it with its user's handle, so the caller can seed mailboxes
// without a client.
func StartMemory(logf func(string, ...any)) (*MemoryServer, *imapmemserver.User) {
	mem := imapmemserver.New()
	user := imapmemserver.NewUser("demo", "demo-password")
	user.Create("INBOX", nil)
	mem.AddUser(user)
	s := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		InsecureAuth: true,
		Logger:       printfLogger(logf),
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err) // loopback listen cannot fail on a working machine
	}
	go s.Serve(ln)
	return &MemoryServer{
		Server: &Server{Kind: "memory", Addr: ln.Addr().String(), Username: "demo", Password: "demo-password",
			Log: func() string { return "" }},
		close: s.Close,
	}, user
}

type printfLogger func(string, ...any)

func (l printfLogger) Printf(format string, args ...any) {
	if l != nil {
		l(format, args...)
	}
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
