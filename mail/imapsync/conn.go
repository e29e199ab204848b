package imapsync

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"

	"mailnode/mail/oauthsasl"
)

// connect dials, secures and logs in. The returned client is closed when ctx
// is done, which is how a blocked command is abandoned.
func (s *Syncer) connect(ctx context.Context, handler *imapclient.UnilateralDataHandler) (*imapclient.Client, error) {
	cfg := &s.cfg
	if cfg.OAuth != nil && s.stuck.Load() >= maxStuck {
		// No dial and no greeting for a server that cannot be signed in to.
		return nil, fmt.Errorf("authenticate to %s: %w %d times; not signing in to it again until the node restarts", cfg.Address, errStuck, maxStuck)
	}
	dialed, err := cfg.Dial(ctx, "tcp", cfg.Address)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", cfg.Address, err)
	}
	raw := newDeadlineConn(dialed, cfg.CommandTimeout)
	opts := &imapclient.Options{UnilateralDataHandler: handler, TLSConfig: s.tlsConfig()}
	if cfg.Trace != nil {
		opts.DebugWriter = &redactingWriter{w: cfg.Trace}
	}
	var c *imapclient.Client
	switch cfg.Security {
	case TLS:
		tc := tls.Client(raw, opts.TLSConfig)
		if err := tc.HandshakeContext(ctx); err != nil {
			raw.Close()
			var rhe tls.RecordHeaderError
			if errors.As(err, &rhe) {
				return nil, fmt.Errorf("TLS handshake with %s: the server answered in plain text, not TLS; "+
					"it may want --imap-security starttls (usually port 143): %w", cfg.Address, err)
			}
			return nil, fmt.Errorf("TLS handshake with %s: %w", cfg.Address, err)
		}
		c = imapclient.New(tc, opts)
	case StartTLS:
		c, err = imapclient.NewStartTLS(raw, opts)
		if err != nil {
			raw.Close()
			return nil, fmt.Errorf("STARTTLS with %s: %w", cfg.Address, orNoAnswer(raw, err))
		}
	default:
		c = imapclient.New(raw, opts)
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	go func() {
		<-c.Closed()
		stop()
	}()
	if err := c.WaitGreeting(); err != nil {
		c.Close()
		return nil, fmt.Errorf("greeting from %s: %w", cfg.Address, orNoAnswer(raw, err))
	}
	if cfg.OAuth != nil {
		if err := s.authenticate(ctx, c, raw); err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}
	s.log.Debug("Logging in", "server", cfg.Address, "security", cfg.Security.String(), "passwordSource", cfg.PasswordSource)
	// The error from a failed LOGIN carries the server's text, never the
	// password: go-imap does not echo the command.
	if err := c.Login(cfg.Username, cfg.Password.Reveal()).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("login to %s as %s: %w", cfg.Address, cfg.Username, orNoAnswer(raw, err))
	}
	return c, nil
}

// authenticate signs in with an OAuth access token: OAUTHBEARER when the
// server advertises it, else XOAUTH2. A refusal (NO, with
// AUTHENTICATIONFAILED or no code) is tried once more with a renewed
// token: the provider may have revoked the last one before its expiry.
func (s *Syncer) authenticate(ctx context.Context, c *imapclient.Client, raw *deadlineConn) error {
	cfg := &s.cfg
	mech, ok := oauthsasl.Choose(c.Caps().AuthMechanisms())
	if !ok {
		return fmt.Errorf("%s offers neither AUTH=OAUTHBEARER nor AUTH=XOAUTH2: it cannot take a sign-in token", cfg.Address)
	}
	host, portStr, _ := net.SplitHostPort(cfg.Address)
	port, _ := strconv.Atoi(portStr)
	for attempt := 0; ; attempt++ {
		// A session ended because its token was lapsing asks for a new
		// one at once, whatever the token's own margin says.
		renew := attempt > 0 || attempt == 0 && s.renewNext.Swap(false)
		token, err := cfg.OAuth.AccessToken(ctx, renew)
		if err != nil {
			return fmt.Errorf("sign-in token for %s: %w", cfg.Username, err)
		}
		s.log.Debug("Authenticating", "server", cfg.Address, "security", cfg.Security.String(), "mechanism", mech, "attempt", attempt+1)
		sc := oauthsasl.NewClient(mech, cfg.Username, token, host, port)
		err = s.authenticateOnce(c, sc)
		if err == nil {
			return nil
		}
		// Refused: the server sent its error challenge (the command then
		// ends NO, or BAD where it does not take go-imap's "=" for the
		// empty answer XOAUTH2 asks for, as Dovecot does not), or said NO
		// [AUTHENTICATIONFAILED] or a bare NO.
		var ie *imap.Error
		refused := errors.As(err, &ie) && (sc.Failure() != nil ||
			ie.Type == imap.StatusResponseTypeNo && (ie.Code == imap.ResponseCodeAuthenticationFailed || ie.Code == ""))
		if refused && attempt == 0 {
			s.log.Info("Access token refused; renewing it once", "server", cfg.Address, "mechanism", mech)
			continue
		}
		if f := sc.Failure(); f != nil {
			err = fmt.Errorf("%w (%v)", err, f)
		}
		if !errors.Is(err, errStuck) {
			err = orNoAnswer(raw, err)
		}
		return fmt.Errorf("authenticate (%s) to %s as %s: %w", mech, cfg.Address, cfg.Username, err)
	}
}

// maxStuck is how many AUTHENTICATE exchanges a Syncer leaves waiting in
// go-imap (see authenticateOnce) before it stops signing in to that
// server: each holds a goroutine and a closed client.
const maxStuck = 4

// errStuck is the error of a sign-in that go-imap could not finish.
var errStuck = errors.New("the server broke off the AUTHENTICATE exchange (it ended the command while the client still answered its challenge)")

// authenticateOnce runs one AUTHENTICATE. go-imap v2.0.0-beta.8's
// Authenticate waits for a continuation request after every answer it
// sends, and a server that ends the command in the same write as its "+"
// leaves it waiting for good: the tagged completion has been handled, and
// closing the client does not cancel a continuation request registered
// after it. So it runs apart and the connection's end (ctx done, which
// closes the client; the server's deadline for an answer passing) ends the
// wait here; the goroutine left behind is counted and, at maxStuck, no
// more are started for this account until the node restarts. A server
// that does this refuses the sign-in anyway.
func (s *Syncer) authenticateOnce(c *imapclient.Client, sc sasl.Client) error {
	done := make(chan error, 1)
	go func() { done <- c.Authenticate(sc) }()
	select {
	case err := <-done:
		return err
	case <-c.Closed():
	}
	select {
	case err := <-done:
		return err
	case <-time.After(100 * time.Millisecond):
	}
	s.stuck.Add(1)
	s.log.Warn("The IMAP server broke off the AUTHENTICATE exchange", "server", s.cfg.Address)
	return errStuck
}

// orNoAnswer is err, or the deadline that passed on raw when there was
// one: the IMAP library's own words for it ("got error before greeting:
// in response: cannot read tag: …") say less and lose ErrNoAnswer.
func orNoAnswer(raw *deadlineConn, err error) error {
	if na := raw.noAnswer(); na != nil {
		return na
	}
	return err
}

func (s *Syncer) tlsConfig() *tls.Config {
	var tc *tls.Config
	if s.cfg.TLSConfig != nil {
		tc = s.cfg.TLSConfig.Clone()
	} else {
		tc = &tls.Config{}
	}
	if tc.ServerName == "" {
		host, _, _ := net.SplitHostPort(s.cfg.Address)
		tc.ServerName = host
	}
	if tc.MinVersion == 0 {
		tc.MinVersion = tls.VersionTLS12
	}
	return tc
}

// redactingWriter passes a protocol trace through, line by line, with the
// arguments of LOGIN and AUTHENTICATE replaced and every line the client
// sends after either until its next command: without SASL-IR a client
// sends AUTHENTICATE's initial response (XOAUTH2: the bearer token, in
// base64) on a line of its own after the server's "+", and a LOGIN
// literal's content is a line of its own too.
//
// go-imap gives one DebugWriter both directions: what it reads (through an
// io.TeeReader, in its reader goroutine) and what it writes (through an
// io.MultiWriter, in the command's goroutine). Which one called is told
// from the call stack (fromClient), and each direction has a line buffer
// of its own. Both matter against a hostile server: with one buffer, a
// server's partial line ("+ \r\n* ") had the client's token line appended
// to it and passed as an untagged answer; and a server's tagged completion
// sent with its "+" ended the redaction before the client answered that
// "+". So the state ends on the client's side only, when it sends its next
// command: go-imap numbers its tags (T1, T2, …), so that is the line that
// begins with the next tag; a literal's bytes in between are skipped by
// their announced length, so no line of a password is taken for it.
type redactingWriter struct {
	mu     sync.Mutex
	w      io.Writer
	client []byte // the client's unfinished line
	server []byte // the server's unfinished line
	// next is the tag of the command after a LOGIN or AUTHENTICATE under
	// way ("T4 " after T3's), "" for none.
	next string
	// literal is how many bytes of a literal in that command are still
	// to come: redacted whole, whatever lines they hold (a password goes
	// as a literal when it has CR, LF or, without UTF8=ACCEPT, non-ASCII
	// characters, and one of its lines may begin with the next tag).
	literal int
}

var (
	credLine   = regexp.MustCompile(`(?i)^(\S+) ((?:UID )?(?:LOGIN|AUTHENTICATE))\b.*`)
	tagNum     = regexp.MustCompile(`^([A-Za-z]*)([0-9]+)$`)
	literalEnd = regexp.MustCompile(`\{([0-9]{1,9})\+?\}$`)
)

func (r *redactingWriter) Write(p []byte) (int, error) {
	client := fromClient()
	r.mu.Lock()
	defer r.mu.Unlock()
	buf := &r.server
	if client {
		buf = &r.client
	}
	*buf = append(*buf, p...)
	for {
		if client && r.literal > 0 && len(*buf) > 0 {
			n := min(r.literal, len(*buf))
			*buf, r.literal = (*buf)[n:], r.literal-n
			continue
		}
		i := bytes.IndexByte(*buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := (*buf)[:i+1]
		if client {
			line = r.redact(line)
		}
		if _, err := r.w.Write(line); err != nil {
			return len(p), err
		}
		*buf = (*buf)[i+1:]
	}
}

// redact is one line the client sent, as the trace may show it.
func (r *redactingWriter) redact(line []byte) []byte {
	text := bytes.TrimRight(line, "\r\n")
	if r.next != "" {
		if !bytes.HasPrefix(text, []byte(r.next)) {
			r.startLiteral(text)
			return []byte("[redacted]\r\n")
		}
		r.next = ""
	}
	m := credLine.FindSubmatch(text)
	if m == nil {
		return line
	}
	r.startLiteral(text)
	// A tag of another shape than go-imap's never ends the state: every
	// later client line stays redacted, which loses trace, not secrets.
	r.next = "\x00"
	if t := tagNum.FindSubmatch(m[1]); t != nil {
		if n, err := strconv.Atoi(string(t[2])); err == nil {
			r.next = string(t[1]) + strconv.Itoa(n+1) + " "
		}
	}
	return append(credLine.ReplaceAll(text, []byte("$1 $2 [redacted]")), '\r', '\n')
}

// startLiteral notes a literal announced at the end of a line of the
// credential command ("{9}", or "{9+}" without waiting for "+").
func (r *redactingWriter) startLiteral(text []byte) {
	if m := literalEnd.FindSubmatch(text); m != nil {
		r.literal, _ = strconv.Atoi(string(m[1]))
	}
}

// fromClient reports whether the trace write under way is a copy of what
// go-imap writes to the server (io.MultiWriter) rather than what it read
// (io.TeeReader). go-imap v2's Options.wrapReadWriter builds those two;
// TestTraceDirections fails if that changes.
func fromClient() bool {
	var pcs [8]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		switch f.Function {
		case "io.(*multiWriter).Write":
			return true
		case "io.(*teeReader).Read":
			return false
		}
		if !more {
			return false
		}
	}
}
