package relaycheck

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// smtp checks the submission server the relay mails codes through, step
// by step as the relay's mailer goes (relayserver.SMTPMailer): connect,
// TLS at once or EHLO then STARTTLS, AUTH PLAIN. It sends no mail.
func (c *checker) smtp(ctx context.Context) []Result {
	const name = "SMTP"
	s := c.SMTP
	if s == nil || s.Addr == "" {
		return []Result{fail(name, "serve with --smtp-server host:587 --smtp-user ... --smtp-password-file ...",
			"no --smtp-server: the relay refuses every registration, as it cannot mail the code")}
	}
	host, _, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return []Result{fail(name, "", "--smtp-server %q is not host:port", s.Addr)}
	}
	security := s.Security
	if security == "" {
		security = "starttls"
	}
	tlsConfig := &tls.Config{ServerName: host, RootCAs: s.Roots, MinVersion: tls.VersionTLS12}
	var steps []string
	stepFail := func(step, hint string, err error) []Result {
		done := ""
		if len(steps) > 0 {
			done = " (" + strings.Join(steps, ", ") + " passed)"
		}
		return []Result{fail(name, hint, "%s: %s failed: %s%s", s.Addr, step, err, done)}
	}

	open := func() (*smtp.Client, error) {
		conn, err := c.dialSMTP(ctx, s.Addr)
		if err != nil {
			return nil, err
		}
		if security == "tls" {
			tc := tls.Client(conn, tlsConfig)
			if err := tc.HandshakeContext(ctx); err != nil {
				conn.Close()
				return nil, fmt.Errorf("TLS: %s", tlsProblem(err))
			}
			conn = tc
		}
		return smtp.NewClient(conn), nil
	}
	client, err := open()
	if err != nil {
		hint := "check --smtp-server and that this machine may connect out to it (port 587 or 465)"
		if strings.HasPrefix(err.Error(), "TLS") {
			hint = "port 465 speaks TLS at once (--smtp-security tls), 587 STARTTLS (--smtp-security starttls); --smtp-ca if its CA is not a public one"
		}
		return stepFail("connect", hint, err)
	}
	defer func() {
		if client != nil {
			client.Close()
		}
	}()
	steps = append(steps, "connect")
	if err := client.Hello(helloName(c.APIName)); err != nil {
		return stepFail("EHLO", "is "+s.Addr+" an SMTP server? (--smtp-security tls for port 465)", err)
	}
	steps = append(steps, "EHLO")

	if security == "starttls" {
		if ok, _ := client.Extension("STARTTLS"); !ok {
			return stepFail("STARTTLS", "this server offers no STARTTLS here; port 465 speaks TLS at once (--smtp-security tls)",
				errors.New("the server does not offer it"))
		}
		// go-smtp starts TLS only on a new client: connect again.
		client.Close()
		conn, err := c.dialSMTP(ctx, s.Addr)
		if err != nil {
			return stepFail("STARTTLS", "", err)
		}
		if client, err = smtp.NewClientStartTLS(conn, tlsConfig); err != nil {
			return stepFail("STARTTLS", "--smtp-ca if the server's CA is not a public one", errors.New(tlsProblem(err)))
		}
		steps = append(steps, "STARTTLS")
	}
	if s.Username == "" {
		client.Quit()
		return []Result{pass(name, "%s: %s passed; no --smtp-user, so no AUTH (no mail sent)", s.Addr, strings.Join(steps, ", "))}
	}
	if !client.SupportsAuth(sasl.Plain) {
		return stepFail("AUTH", "the relay logs in with AUTH PLAIN, which this server does not offer here", errors.New("the server does not offer AUTH PLAIN"))
	}
	if err := client.Auth(sasl.NewPlainClient("", s.Username, s.Password)); err != nil {
		return stepFail("AUTH", "check --smtp-user and the password in --smtp-password-file",
			fmt.Errorf("the server refused the login of %s: %s", s.Username, authProblem(err)))
	}
	steps = append(steps, "AUTH PLAIN as "+s.Username)
	client.Quit()
	return []Result{pass(name, "%s: %s passed (no mail sent)", s.Addr, strings.Join(steps, ", "))}
}

// authProblem is the server's answer, which never holds the password the
// client sent.
func authProblem(err error) string {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return fmt.Sprintf("%d %s", se.Code, se.Message)
	}
	return plainErr(err)
}

// helloName is the name the check introduces itself with: the relay's.
func helloName(apiName string) string {
	if apiName == "" {
		return "localhost"
	}
	return apiName
}

// cappedConn keeps every deadline go-smtp sets (5 minutes a command, or
// none) within the check's own, so a server that accepts and then says
// nothing fails the check in seconds.
type cappedConn struct {
	net.Conn
	limit time.Time
}

func (c cappedConn) cap(t time.Time) time.Time {
	if t.IsZero() || t.After(c.limit) {
		return c.limit
	}
	return t
}
func (c cappedConn) SetDeadline(t time.Time) error      { return c.Conn.SetDeadline(c.cap(t)) }
func (c cappedConn) SetReadDeadline(t time.Time) error  { return c.Conn.SetReadDeadline(c.cap(t)) }
func (c cappedConn) SetWriteDeadline(t time.Time) error { return c.Conn.SetWriteDeadline(c.cap(t)) }

// dial connects to the submission server; the whole conversation on the
// connection has a few timeouts' time.
func (c *checker) dialSMTP(ctx context.Context, addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	conn, err := c.Dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, errors.New(plainErr(err))
	}
	cc := cappedConn{Conn: conn, limit: time.Now().Add(3 * c.Timeout)}
	cc.SetDeadline(time.Time{})
	return cc, nil
}
