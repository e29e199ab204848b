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
	"strconv"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"mailnode/mail/oauthsasl"
)

// connect dials, secures and logs in. The returned client is closed when ctx
// is done, which is how a blocked command is abandoned.
func (s *Syncer) connect(ctx context.Context, handler *imapclient.UnilateralDataHandler) (*imapclient.Client, error) {
	cfg := &s.cfg
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
		err = c.Authenticate(sc)
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
		return fmt.Errorf("authenticate (%s) to %s as %s: %w", mech, cfg.Address, cfg.Username, orNoAnswer(raw, err))
	}
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
// arguments of LOGIN and AUTHENTICATE replaced, and every line after
// either until the command's tagged completion, but for the server's
// continuation requests ("+ ...", whose error challenge helps) and
// untagged answers. Without SASL-IR a client sends AUTHENTICATE's
// initial response (XOAUTH2: the bearer token, in base64) on a line of
// its own after the server's "+", and a LOGIN literal's content is a line
// of its own too. The trace holds both directions in one stream; client
// lines in that exchange are base64 or literal content, so anything that
// is not a server line is redacted.
type redactingWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
	// tag is the LOGIN or AUTHENTICATE command under way, "" for none.
	tag string
}

var credLine = regexp.MustCompile(`(?i)^(\S+) ((?:UID )?(?:LOGIN|AUTHENTICATE))\b.*`)

func (r *redactingWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	for {
		i := bytes.IndexByte(r.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := r.buf[:i+1]
		text := bytes.TrimRight(line, "\r\n")
		switch {
		case r.tag != "":
			switch {
			case bytes.HasPrefix(text, []byte(r.tag+" ")):
				r.tag = "" // the tagged completion: the exchange is over
			case bytes.Equal(text, []byte("+")) || bytes.HasPrefix(text, []byte("+ ")) || bytes.HasPrefix(text, []byte("* ")):
				// the server's continuation request or an untagged answer
			default:
				line = []byte("[redacted]\r\n")
			}
		case credLine.Match(text):
			r.tag = string(credLine.FindSubmatch(text)[1])
			line = append(credLine.ReplaceAll(text, []byte("$1 $2 [redacted]")), '\r', '\n')
		}
		if _, err := r.w.Write(line); err != nil {
			return len(p), err
		}
		r.buf = r.buf[i+1:]
	}
}
