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
	"sync"

	"github.com/emersion/go-imap/v2/imapclient"
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
	s.log.Debug("Logging in", "server", cfg.Address, "security", cfg.Security.String(), "passwordSource", cfg.PasswordSource)
	// The error from a failed LOGIN carries the server's text, never the
	// password: go-imap does not echo the command.
	if err := c.Login(cfg.Username, cfg.Password.Reveal()).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("login to %s as %s: %w", cfg.Address, cfg.Username, orNoAnswer(raw, err))
	}
	return c, nil
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
// arguments of LOGIN and AUTHENTICATE (and a literal that follows them)
// replaced.
type redactingWriter struct {
	mu         sync.Mutex
	w          io.Writer
	buf        []byte
	redactNext bool
}

var credLine = regexp.MustCompile(`(?i)^(\S+ (?:UID )?(?:LOGIN|AUTHENTICATE))\b.*`)

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
		switch {
		case r.redactNext:
			line = []byte("[redacted]\r\n")
			r.redactNext = bytes.HasSuffix(bytes.TrimRight(r.buf[:i+1], "\r\n"), []byte("}"))
		case credLine.Match(line):
			r.redactNext = bytes.HasSuffix(bytes.TrimRight(line, "\r\n"), []byte("}"))
			line = append(credLine.ReplaceAll(bytes.TrimRight(line, "\r\n"), []byte("$1 [redacted]")), '\r', '\n')
		}
		if _, err := r.w.Write(line); err != nil {
			return len(p), err
		}
		r.buf = r.buf[i+1:]
	}
}
