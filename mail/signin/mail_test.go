package signin_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"mailnode/mail/credential"
	"mailnode/mail/imapsync"
	"mailnode/mail/imaptest"
	"mailnode/mail/oauthsasl"
	"mailnode/mail/oidctest"
	"mailnode/mail/signin"
	"mailnode/mail/smtpsend"
	"mailnode/mail/store"
)

// counting passes tokens through and counts the renewals asked for.
type counting struct {
	*signin.Tokens
	mu     sync.Mutex
	renews int
}

func (c *counting) AccessToken(ctx context.Context, renew bool) (credential.Secret, error) {
	if renew {
		c.mu.Lock()
		c.renews++
		c.mu.Unlock()
	}
	return c.Tokens.AccessToken(ctx, renew)
}

// dovecot starts Dovecot whose oauth2 passdb checks tokens against op's
// introspection endpoint, with the token mechanisms mechs only.
func dovecot(t *testing.T, op *oidctest.Provider, mechs string) *imaptest.Dovecot {
	t.Helper()
	return op.Dovecot(t, user, mechs)
}

// TestMailWithTokens: the node signs in at the provider, then syncs a
// Dovecot mailbox over OAUTHBEARER and over XOAUTH2 (Dovecot's own oauth2
// passdb checking each token at the provider's introspection endpoint),
// renews a token the provider revoked once Dovecot refuses it, and sends
// a draft through an SMTP server checking tokens at the same endpoint.
func TestMailWithTokens(t *testing.T) {
	// Access tokens live 6 seconds: a token the node holds lapses at the
	// provider while the node's clock (frozen below) still calls it fresh,
	// as when a provider ends a token early, and the servers refuse it.
	// Not shorter: Dovecot holds the next attempt after a failed one 2
	// seconds (its auth penalty), and the renewed token must outlive that.
	const ttl = 6 * time.Second
	op := oidctest.Start(t, oidctest.Options{AccessTokenTTL: ttl})
	p := provider(t, op, oidctest.ClientID)
	o := signin.Options{HTTPClient: op.HTTPClient()}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	open, wait := browse(t, op, user, nil)
	g, err := signin.Browser(ctx, p, open, o)
	wait()
	if err != nil {
		t.Fatal(err)
	}
	// One account, one Tokens: the provider rotates the refresh token on
	// every renewal (as Microsoft does) and refuses a used one.
	var rotated []credential.Secret
	frozen := time.Now()
	tokens := &counting{Tokens: g.Tokens(p, signin.TokensOptions{Options: o, Now: func() time.Time { return frozen },
		Save: func(s credential.Secret) error { rotated = append(rotated, s); return nil }})}
	// lapse waits until the token the node holds has expired at the provider.
	lapse := func(t *testing.T) credential.Secret {
		held, err := tokens.AccessToken(ctx, false)
		if err != nil {
			t.Fatal(err)
		}
		for {
			in, err := op.Introspect(ctx, held.Reveal())
			if err != nil {
				t.Fatal(err)
			}
			if !in.Active {
				return held
			}
			time.Sleep(250 * time.Millisecond)
		}
	}

	for _, tt := range []struct{ mechs, want string }{
		{"xoauth2 oauthbearer", "OAUTHBEARER"},
		{"xoauth2", "XOAUTH2"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			d := dovecot(t, op, tt.mechs)
			admin := d.Dial(t)
			for i := range 3 {
				msg := fmt.Sprintf("From: a@example.test\r\nTo: %s\r\nSubject: message %d\r\nMessage-ID: <%d.%s@test>\r\n\r\nBody %d.\r\n", user, i, i, tt.want, i)
				cmd := admin.Append("INBOX", int64(len(msg)), nil)
				cmd.Write([]byte(msg))
				cmd.Close()
				if _, err := cmd.Wait(); err != nil {
					t.Fatal(err)
				}
			}
			// What Dovecot advertises before login.
			fresh, err := imapclient.DialInsecure(d.Addr, nil)
			if err != nil {
				t.Fatal(err)
			}
			caps := fresh.Caps()
			fresh.Close()
			if got, _ := oauthsasl.Choose(caps.AuthMechanisms()); got != tt.want {
				t.Fatalf("Dovecot advertises %v; the node would choose %q, want %q", caps.AuthMechanisms(), got, tt.want)
			}

			tokens.renews = 0
			// The token the node holds has lapsed at the provider: Dovecot
			// refuses it, and the node renews it once and gets in.
			held := lapse(t)
			st, err := store.Open(ctx, filepath.Join(t.TempDir(), "node.db"), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var trace strings.Builder
			s, err := imapsync.New(imapsync.Config{Account: "oauth", Address: d.Addr, Security: imapsync.Plain,
				Username: g.Address, OAuth: tokens, Trace: &trace}, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Sync(ctx)
			if err != nil {
				t.Fatalf("Sync() = %v\n%s\n%s", err, trace.String(), d.Log())
			}
			if res.Added != 3 {
				t.Errorf("Sync() added %d messages, want 3", res.Added)
			}
			if tokens.renews != 1 {
				t.Errorf("%d renewals, want 1 (after the revoked token)", tokens.renews)
			}
			if n := strings.Count(trace.String(), "AUTHENTICATE [redacted]"); n != 2 {
				t.Errorf("%d AUTHENTICATE commands, want 2:\n%s", n, trace.String())
			}
			for _, secret := range []string{held.Reveal()} {
				if strings.Contains(trace.String(), secret) {
					t.Error("the trace carries a token")
				}
			}
		})
	}

	t.Run("refused", func(t *testing.T) {
		// A grant the provider revoked: a clear error, naming what to do.
		d := dovecot(t, op, "xoauth2 oauthbearer")
		open, wait := browse(t, op, user, nil)
		g2, err := signin.Browser(ctx, p, open, o)
		wait()
		if err != nil {
			t.Fatal(err)
		}
		tokens := g2.Tokens(p, signin.TokensOptions{Options: o})
		held, _ := tokens.AccessToken(ctx, false)
		op.Revoke(ctx, held.Reveal())
		op.Revoke(ctx, g2.Refresh.Reveal())
		st, err := store.Open(ctx, filepath.Join(t.TempDir(), "node.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		s, _ := imapsync.New(imapsync.Config{Account: "oauth", Address: d.Addr, Security: imapsync.Plain,
			Username: g2.Address, OAuth: tokens}, st, nil)
		_, err = s.Sync(ctx)
		if !errors.Is(err, signin.ErrSignInAgain) || !strings.Contains(err.Error(), "Sign in to "+p.Name+" again") {
			t.Errorf("Sync(revoked grant) = %v, want ErrSignInAgain", err)
		}
	})

	t.Run("smtp", func(t *testing.T) {
		// The IMAP subtests renew too, or skip where Dovecot is missing
		// outside CI: count this subtest's renewals alone.
		before := len(rotated)
		for _, mech := range []string{oauthsasl.OAuthBearer, oauthsasl.XOAuth2} {
			srv := newSubmission(t, op, mech)
			tokens.renews = 0
			lapse(t)
			draft := "From: " + user + "\r\nTo: b@example.test\r\nSubject: draft via " + mech + "\r\n\r\nHello.\r\n"
			res := smtpsend.Send(ctx, smtpsend.Config{Address: srv.addr, Security: smtpsend.Plain, Username: g.Address, OAuth: tokens},
				nil, user, []string{"b@example.test"}, []byte(draft))
			if res.Outcome != smtpsend.Accepted {
				t.Fatalf("Send(%s) = %+v", mech, res)
			}
			if got := srv.received(); len(got) != 1 || !strings.Contains(got[0], "draft via "+mech) {
				t.Errorf("the server received %q", got)
			}
			if tokens.renews != 1 {
				t.Errorf("Send(%s): %d renewals, want 1", mech, tokens.renews)
			}
		}
		if got := len(rotated) - before; got != 2 {
			t.Errorf("%d rotated refresh tokens saved for two sends, want 2 (one per renewal)", got)
		}
	})
}

// submission is go-smtp's server checking OAUTHBEARER or XOAUTH2 tokens
// at the provider's introspection endpoint, as a provider's submission
// server does.
type submission struct {
	op   *oidctest.Provider
	mech string
	addr string
	mu   sync.Mutex
	msgs []string
}

func newSubmission(t *testing.T, op *oidctest.Provider, mech string) *submission {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sub := &submission{op: op, mech: mech, addr: ln.Addr().String()}
	s := smtp.NewServer(sub)
	s.AllowInsecureAuth = true
	s.Domain = "localhost"
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return sub
}

func (s *submission) received() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.msgs...)
}

func (s *submission) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }

type session struct {
	s    *submission
	user string
}

// check asks the provider whether token is active and names user.
func (ss *session) check(user, token string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	in, err := ss.s.op.Introspect(ctx, token)
	if err != nil || !in.Active || in.Subject != user {
		return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Authentication credentials invalid"}
	}
	ss.user = user
	return nil
}

func (ss *session) AuthMechanisms() []string { return []string{ss.s.mech} }

func (ss *session) Auth(mech string) (sasl.Server, error) {
	switch mech {
	case oauthsasl.XOAuth2:
		return oauthsasl.NewXOAuth2Server(ss.check), nil
	case oauthsasl.OAuthBearer:
		return refusal{sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			if ss.check(o.Username, o.Token) != nil {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			return nil
		})}, nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

// refusal makes go-sasl's OAUTHBEARER failure the 535 that submission
// servers answer (go-smtp would say 454, a temporary failure).
type refusal struct{ sasl.Server }

func (r refusal) Next(resp []byte) ([]byte, bool, error) {
	ch, done, err := r.Server.Next(resp)
	var se *smtp.SMTPError
	if err != nil && !errors.As(err, &se) {
		err = &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Authentication credentials invalid"}
	}
	return ch, done, err
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.user == "" {
		return smtp.ErrAuthRequired
	}
	return nil
}
func (ss *session) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (ss *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.s.mu.Lock()
	ss.s.msgs = append(ss.s.msgs, string(b))
	ss.s.mu.Unlock()
	return nil
}
func (ss *session) Reset()        {}
func (ss *session) Logout() error { return nil }
