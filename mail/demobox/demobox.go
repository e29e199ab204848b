// Package demobox runs an IMAP server inside the node process: go-imap's
// in-memory server on a loopback port, optionally seeded with a mailbox from
// files. `mailnode demo` syncs from it so a new user sees the whole node
// work without an account, and tests use the same server.
package demobox

import (
	"bytes"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-message/mail"
)

// Credentials of the one user. They guard nothing: the server listens on
// loopback only and holds sample mail.
const (
	Username = "demo"
	Password = "demo-password"
	// Address is the demo user's e-mail address: mail the demo SMTP
	// server accepts for it lands in the demo INBOX.
	Address = "alex.morgan@demo-mail.example"
)

// Server is a running in-memory IMAP server.
type Server struct {
	Addr string // 127.0.0.1:port
	user *imapmemserver.User
	srv  *imapserver.Server
	ln   net.Listener
}

// Start starts an empty server (INBOX only) on a free loopback port.
func Start(logger *slog.Logger) (*Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	user := imapmemserver.NewUser(Username, Password)
	if err := user.Create("INBOX", nil); err != nil {
		return nil, err
	}
	log := logger.With("component", "demobox")
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &idlePoller{user: user}, nil, nil
		},
		// IMAP4rev2 brings IDLE and ESEARCH; no CONDSTORE, so clients take
		// their fallback paths here.
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		InsecureAuth: true, // loopback only
		Logger:       logAdapter{log},
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("demo IMAP server: %w", err)
	}
	go srv.Serve(ln)
	return &Server{Addr: ln.Addr().String(), user: user, srv: srv, ln: ln}, nil
}

// Close stops the server. It closes the listener itself too: the
// server's Close closes only what Serve registered, and Serve's goroutine
// may not have run yet.
func (s *Server) Close() error {
	err := s.srv.Close()
	s.ln.Close()
	return err
}

// Deliver appends a message to the INBOX, unread, as a mail provider
// delivers incoming mail.
func (s *Server) Deliver(raw []byte) error {
	_, err := s.user.Append("INBOX", literal{bytes.NewReader(raw)}, &imap.AppendOptions{Time: time.Now()})
	if err != nil {
		return fmt.Errorf("demo mailbox: deliver: %w", err)
	}
	return nil
}

// Seed appends every *.eml file of mailbox, whose top-level directories are
// folder names, into the server. Messages dated more than a week before now
// are marked \Seen, as a user's older mail would be. It returns how many
// messages it added.
func (s *Server) Seed(mailbox fs.FS, now time.Time) (int, error) {
	folders, err := fs.ReadDir(mailbox, ".")
	if err != nil {
		return 0, fmt.Errorf("seed demo mailbox: %w", err)
	}
	n := 0
	for _, d := range folders {
		if !d.IsDir() {
			continue
		}
		if d.Name() != "INBOX" {
			if err := s.user.Create(d.Name(), nil); err != nil {
				return n, fmt.Errorf("seed demo mailbox: create %s: %w", d.Name(), err)
			}
		}
		files, err := fs.Glob(mailbox, path.Join(d.Name(), "*.eml"))
		if err != nil {
			return n, err
		}
		slices.Sort(files)
		for _, f := range files {
			raw, err := fs.ReadFile(mailbox, f)
			if err != nil {
				return n, err
			}
			date := messageDate(raw, now)
			var flags []imap.Flag
			if now.Sub(date) > 7*24*time.Hour || strings.EqualFold(d.Name(), "Sent") {
				flags = append(flags, imap.FlagSeen)
			}
			if _, err := s.user.Append(d.Name(), literal{bytes.NewReader(raw)}, &imap.AppendOptions{Flags: flags, Time: date}); err != nil {
				return n, fmt.Errorf("seed demo mailbox: append %s: %w", f, err)
			}
			n++
		}
	}
	return n, nil
}

func messageDate(raw []byte, fallback time.Time) time.Time {
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil && r == nil {
		return fallback
	}
	defer r.Close()
	if d, err := r.Header.Date(); err == nil && !d.IsZero() {
		return d
	}
	return fallback
}

type literal struct{ *bytes.Reader }

func (l literal) Size() int64 { return int64(l.Reader.Len()) }

type logAdapter struct{ log *slog.Logger }

func (l logAdapter) Printf(format string, args ...any) {
	l.log.Debug("IMAP server", "msg", fmt.Sprintf(format, args...))
}

// idlePoller reports, when IDLE starts, what changed since the last
// command, as Dovecot does: imapmemserver's tracker reports only changes
// made after IDLE began, so a message delivered between a client's last
// command and its IDLE went unreported until the next change. Polling
// once and then waiting on the tracker still left a gap: a message
// delivered between that poll and the tracker's IDLE taking its signal
// was reported to nobody, the likeliest reason a relay's code mail waited
// 40 s in CI. So IDLE here waits on the tracker a second at a time and
// polls between (idleRepoll). It logs in as imapmemserver's own session does, for the
// one user.
type idlePoller struct {
	*imapmemserver.UserSession // nil before login
	user                       *imapmemserver.User
}

func (s *idlePoller) Login(username, password string) error {
	if err := s.user.Login(username, password); err != nil {
		return err
	}
	s.UserSession = imapmemserver.NewUserSession(s.user)
	return nil
}

func (s *idlePoller) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		if err := s.UserSession.Poll(w, true); err != nil {
			return err
		}
		// The tracker's IDLE for a while, which reports at once what
		// happens while it waits; then poll again for what fell between.
		inner := make(chan struct{})
		var once sync.Once
		end := func() { once.Do(func() { close(inner) }) }
		t := time.AfterFunc(idleRepoll, end)
		go func() {
			select {
			case <-stop:
				end()
			case <-inner:
			}
		}()
		err := s.UserSession.Idle(w, inner)
		t.Stop()
		end()
		if err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		default:
		}
	}
}

// idleRepoll is how long the demo server's IDLE waits on the tracker
// before it polls again: the longest a delivery that fell between a poll
// and the tracker's wait goes unreported, well inside the node's
// two-second goal.
const idleRepoll = time.Second
