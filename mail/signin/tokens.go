package signin

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"mailnode/mail/credential"
)

// Tokens hands out an account's access token, kept in memory only, and
// renews it with the refresh token before it expires, so a connection
// never starts with a token about to lapse. A server refusing the token
// asks for a renewal (AccessToken with renew): the provider may have
// revoked it early. Safe for concurrent use (the IMAP sync and a send).
type Tokens struct {
	p    Provider
	o    Options
	save func(credential.Secret) error
	now  func() time.Time

	mu sync.Mutex
	// mu guards the fields below.
	refresh  credential.Secret
	access   *oauth2.Token
	obtained time.Time
}

// TokensOptions configure Tokens; the zero value is the default.
type TokensOptions struct {
	Options
	// Save keeps a new refresh token when the provider rotates it
	// (Microsoft does on every renewal); nil keeps none.
	Save func(credential.Secret) error
	// Now is the clock (a test's); default time.Now.
	Now func() time.Time
}

// NewTokens keeps the account signed in from its refresh token.
func NewTokens(p Provider, refresh credential.Secret, o TokensOptions) *Tokens {
	t := &Tokens{p: p, o: o.Options, save: o.Save, now: o.Now, refresh: refresh}
	if t.now == nil {
		t.now = time.Now
	}
	return t
}

// Tokens starts from a fresh grant, using its first access token.
func (g *Grant) Tokens(p Provider, o TokensOptions) *Tokens {
	t := NewTokens(p, g.Refresh, o)
	t.access, t.obtained = g.access, t.now()
	return t
}

// AccessToken returns a token to sign in to the mail server with. It
// renews the token when a tenth of its lifetime (at most 5 minutes)
// remains, or at once when renew is set (the server refused the last
// one). An error wrapping ErrSignInAgain means the provider refuses the
// account's grant: stop, and tell the person to sign in again.
func (t *Tokens) AccessToken(ctx context.Context, renew bool) (credential.Secret, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if renew || t.staleLocked() {
		if err := t.renewLocked(ctx); err != nil {
			return "", err
		}
	}
	return credential.Secret(t.access.AccessToken), nil
}

// Expiry is when the current access token lapses (zero before the first
// one), for a session that must reconnect before its server ends it.
func (t *Tokens) Expiry() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.access == nil {
		return time.Time{}
	}
	return t.access.Expiry
}

func (t *Tokens) staleLocked() bool {
	if t.access == nil || t.access.AccessToken == "" {
		return true
	}
	if t.access.Expiry.IsZero() {
		return false
	}
	early := min(t.access.Expiry.Sub(t.obtained)/10, 5*time.Minute)
	return !t.now().Add(early).Before(t.access.Expiry)
}

func (t *Tokens) renewLocked(ctx context.Context) error {
	cfg := t.p.oauth2Config("")
	tok, err := cfg.TokenSource(t.o.ctx(ctx), &oauth2.Token{RefreshToken: t.refresh.Reveal()}).Token()
	if err != nil {
		return providerError(t.p, err)
	}
	t.access, t.obtained = tok, t.now()
	if tok.RefreshToken != "" && tok.RefreshToken != t.refresh.Reveal() {
		t.refresh = credential.Secret(tok.RefreshToken)
		if t.save != nil {
			if err := t.save(t.refresh); err != nil {
				// The old one may stop working; say so now, not at the
				// next start.
				return fmt.Errorf("keep %s's new refresh token: %w", t.p.Name, err)
			}
		}
	}
	t.o.logger().Debug("Access token renewed", "component", "signin", "provider", t.p.ID,
		"expires", slog.TimeValue(tok.Expiry))
	return nil
}
