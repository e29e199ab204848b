// Package smtpsend hands one message to the account's SMTP submission
// server (RFC 6409) over TLS or STARTTLS with AUTH, and says precisely
// whether the server took it. The caller must never resend a message
// whose outcome is Unknown: the server may have delivered it.
package smtpsend

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"mailnode/mail/credential"
	"mailnode/mail/oauthsasl"
)

// Security is how the connection is protected.
type Security string

// Securities.
const (
	TLS      Security = "tls"      // implicit TLS, port 465
	StartTLS Security = "starttls" // port 587
	// Plain is refused unless the server is on loopback or AllowInsecure.
	Plain Security = "plain"
)

// Config is one account's submission server.
type Config struct {
	Address       string // host:port
	Security      Security
	AllowInsecure bool
	Username      string
	Password      credential.Secret
	// OAuth, when set, signs in with an OAuth 2.0 access token instead of
	// Password: SASL OAUTHBEARER or XOAUTH2, whichever the server
	// advertises.
	OAuth AccessTokens
	// TLSConfig overrides TLS settings (a private CA in tests).
	TLSConfig *tls.Config
	// Timeout bounds the whole exchange. Default 2 minutes.
	Timeout time.Duration
	// Dial opens the TCP connection; default net.Dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// AccessTokens hands out an account's OAuth access token (mail/signin's
// Tokens). renew asks for a new one: the server refused the last.
type AccessTokens interface {
	AccessToken(ctx context.Context, renew bool) (credential.Secret, error)
}

// Validate reports a configuration that cannot work or is unsafe.
func (c Config) Validate() error {
	host, _, err := net.SplitHostPort(c.Address)
	if err != nil {
		return fmt.Errorf("SMTP address %q: want host:port", c.Address)
	}
	switch c.Security {
	case TLS, StartTLS:
	case Plain:
		ip := net.ParseIP(host)
		if !c.AllowInsecure && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return fmt.Errorf("refusing plain SMTP to %s: the password would cross the network in clear (use tls or starttls, or allow insecure explicitly)", host)
		}
	default:
		return fmt.Errorf("SMTP security %q: want tls, starttls or plain", c.Security)
	}
	if c.Username == "" {
		return errors.New("SMTP username is empty")
	}
	return nil
}

// Outcome says what became of a message.
type Outcome string

// Outcomes.
const (
	// Accepted: the server answered 250 to the end of the message.
	Accepted Outcome = "accepted"
	// Refused: the server refused it, or the exchange failed before the
	// message was complete. Nothing was delivered; it may be sent again.
	Refused Outcome = "refused"
	// Unknown: the connection broke after the whole message was handed
	// over and before the server's answer. It may have been delivered.
	Unknown Outcome = "unknown"
)

// Result is the outcome of one Send and the server's words.
type Result struct {
	Outcome Outcome
	// Detail is the server's reply or what failed, without secrets.
	Detail string
}

// Send submits msg from the envelope sender to rcpts. It makes one
// attempt; the Result says whether the server took it.
func Send(ctx context.Context, cfg Config, logger *slog.Logger, from string, rcpts []string, msg []byte) Result {
	if err := cfg.Validate(); err != nil {
		return Result{Refused, err.Error()}
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	host, _, _ := net.SplitHostPort(cfg.Address)
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if cfg.TLSConfig != nil {
		tc = cfg.TLSConfig.Clone()
	}
	if tc.ServerName == "" {
		tc.ServerName = host
	}
	dial := cfg.Dial
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second}).DialContext
	}
	raw, err := dial(ctx, "tcp", cfg.Address)
	if err != nil {
		return Result{Refused, fmt.Sprintf("connect to %s: %v", cfg.Address, err)}
	}
	stop := context.AfterFunc(ctx, func() { raw.Close() })
	defer stop()
	deadline, _ := ctx.Deadline()
	raw.SetDeadline(deadline)

	var c *smtp.Client
	switch cfg.Security {
	case TLS:
		conn := tls.Client(raw, tc)
		if err := conn.HandshakeContext(ctx); err != nil {
			raw.Close()
			return Result{Refused, fmt.Sprintf("TLS with %s: %v", cfg.Address, err)}
		}
		c = smtp.NewClient(conn)
	case StartTLS:
		if c, err = smtp.NewClientStartTLS(raw, tc); err != nil {
			raw.Close()
			return Result{Refused, fmt.Sprintf("STARTTLS with %s: %v", cfg.Address, err)}
		}
	default:
		c = smtp.NewClient(raw)
	}
	defer c.Close()

	if err := c.Hello(ehloName); err != nil {
		return Result{Refused, fmt.Sprintf("EHLO: %v", err)}
	}
	ok, mechs := c.Extension("AUTH")
	if !ok {
		return Result{Refused, "the server offers no AUTH; refusing to send unauthenticated"}
	}
	if cfg.OAuth != nil {
		if err := authenticate(ctx, c, cfg, strings.Fields(mechs), logger); err != nil {
			return Result{Refused, err.Error()}
		}
	} else if err := c.Auth(sasl.NewPlainClient("", cfg.Username, cfg.Password.Reveal())); err != nil {
		// SASL PLAIN sends the password inside the protected connection;
		// the error from a refused AUTH carries the server's text, not ours.
		return Result{Refused, fmt.Sprintf("login as %s: %v", cfg.Username, err)}
	}
	if err := c.Mail(from, nil); err != nil {
		return Result{Refused, fmt.Sprintf("MAIL FROM: %v", err)}
	}
	// Every recipient or none: a message to part of its recipients is
	// not what the user approved.
	for _, r := range rcpts {
		if err := c.Rcpt(r, nil); err != nil {
			c.Reset()
			return Result{Refused, fmt.Sprintf("recipient %s: %v", r, err)}
		}
	}
	w, err := c.Data()
	if err != nil {
		return Result{Refused, fmt.Sprintf("DATA: %v", err)}
	}
	if _, err := w.Write(msg); err != nil {
		// The final dot was never sent: the server cannot have taken an
		// unterminated message.
		return Result{Refused, fmt.Sprintf("write message: %v", err)}
	}
	resp, err := w.CloseWithResponse()
	var serr *smtp.SMTPError
	switch {
	case errors.As(err, &serr):
		return Result{Refused, fmt.Sprintf("the server refused the message: %d %s", serr.Code, serr.Message)}
	case err != nil:
		logger.Warn("Connection lost after the message was handed over", "server", cfg.Address, "err", err)
		return Result{Unknown, fmt.Sprintf("no answer after the message was handed over: %v", err)}
	}
	if err := c.Quit(); err != nil && !errors.Is(err, io.EOF) {
		logger.Debug("QUIT after an accepted message failed", "err", err)
	}
	detail := "250 " + resp.StatusText
	return Result{Accepted, strings.TrimSpace(detail)}
}

// authenticate signs in with an OAuth access token: OAUTHBEARER when the
// server offers it, else XOAUTH2. A 535 (credentials refused) is tried
// once more, on the same connection (RFC 4954 allows another AUTH after a
// failed one), with a renewed token.
func authenticate(ctx context.Context, c *smtp.Client, cfg Config, mechs []string, logger *slog.Logger) error {
	mech, ok := oauthsasl.Choose(mechs)
	if !ok {
		return fmt.Errorf("%s offers neither OAUTHBEARER nor XOAUTH2 (AUTH %s): it cannot take a sign-in token", cfg.Address, strings.Join(mechs, " "))
	}
	host, portStr, _ := net.SplitHostPort(cfg.Address)
	port, _ := strconv.Atoi(portStr)
	for attempt := 0; ; attempt++ {
		token, err := cfg.OAuth.AccessToken(ctx, attempt > 0)
		if err != nil {
			return fmt.Errorf("sign-in token for %s: %w", cfg.Username, err)
		}
		sc := oauthsasl.NewClient(mech, cfg.Username, token, host, port)
		err = c.Auth(sc)
		if err == nil {
			return nil
		}
		var serr *smtp.SMTPError
		if attempt == 0 && errors.As(err, &serr) && serr.Code == 535 {
			logger.Info("Access token refused; renewing it once", "server", cfg.Address, "mechanism", mech)
			continue
		}
		if f := sc.Failure(); f != nil {
			err = fmt.Errorf("%w (%v)", err, f)
		}
		return fmt.Errorf("authenticate (%s) as %s: %w", mech, cfg.Username, err)
	}
}

// ehloName is a fixed, neutral EHLO name rather than the machine's,
// which would tell the server and every Received field where the node
// runs.
const ehloName = "localhost"
