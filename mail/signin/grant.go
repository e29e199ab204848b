package signin

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"unicode"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"mailnode/mail/credential"
	"mailnode/mail/invisible"
)

// Options are what every sign-in shares; the zero value is the default.
type Options struct {
	// HTTPClient talks to the provider (a private CA in tests). Default:
	// a client with a 30-second timeout.
	HTTPClient *http.Client
	// Logger receives the steps, never a code or token.
	Logger *slog.Logger
}

// client is HTTPClient, or the default, with each answer limited to
// maxAnswer bytes.
func (o Options) client() *http.Client { return limitClient(o.HTTPClient) }

func (o Options) logger() *slog.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// ctx carries the HTTP client to x/oauth2 and go-oidc.
func (o Options) ctx(ctx context.Context) context.Context {
	hc := o.client()
	return oidc.ClientContext(context.WithValue(ctx, oauth2.HTTPClient, hc), hc)
}

// Grant is a finished sign-in: who signed in, and the tokens.
type Grant struct {
	Provider string // the provider's ID
	// Address is the account's address, from the ID token.
	Address string
	// Subject and Tenant are the ID token's sub and tid claims (tid
	// empty but for Microsoft): a sign-in again for an account must
	// name the same ones, not only the same address.
	Subject, Tenant string
	// Refresh is the refresh token: the account's credential from now on.
	Refresh credential.Secret
	// access is the first access token, handed to Tokens.
	access *oauth2.Token
}

// KeyringService is the OS keyring service under which refresh tokens are
// kept, each under "provider:address".
const KeyringService = "mailnode-oauth"

// Save stores the refresh token with mail/credential: in the OS keyring,
// else in fallbackFile (0600). It returns where, for the account's
// settings.
func (g *Grant) Save(fallbackFile string) (credential.Source, error) {
	src, err := credential.Save(KeyringService, g.Provider+":"+g.Address, fallbackFile, g.Refresh)
	if err != nil {
		return credential.Source{}, fmt.Errorf("keep the sign-in for %s: %w", g.Address, err)
	}
	return src, nil
}

// ErrSignInAgain is what a provider's refusal of the account's grant
// (invalid_grant: revoked, expired, the password changed) unwraps to: no
// retry helps; the person must sign in again.
var ErrSignInAgain = errors.New("sign in again")

// ProviderError is the provider's answer to a token request, in words a
// person acts on.
type ProviderError struct {
	Provider string // its Name
	Code     string // RFC 6749 section 5.2 error code
	// Description is the provider's error_description, cut and cleaned.
	Description string
}

func (e *ProviderError) Error() string {
	var s string
	switch e.Code {
	case "invalid_grant":
		s = fmt.Sprintf("Sign in to %s again: it no longer accepts this sign-in (invalid_grant: revoked, expired or already used)", e.Provider)
	case "access_denied":
		s = fmt.Sprintf("%s: the sign-in was declined (access_denied)", e.Provider)
	case "expired_token":
		s = fmt.Sprintf("%s: the code was not entered in time (expired_token); start the sign-in again", e.Provider)
	case "invalid_client", "unauthorized_client":
		s = fmt.Sprintf("%s refused the node's OAuth client id (%s): check the client id setting", e.Provider, e.Code)
	default:
		s = fmt.Sprintf("%s refused the sign-in (%s)", e.Provider, e.Code)
	}
	if e.Description != "" {
		s += ": " + e.Description
	}
	return s
}

// Is makes an invalid_grant match ErrSignInAgain.
func (e *ProviderError) Is(target error) bool {
	return target == ErrSignInAgain && e.Code == "invalid_grant"
}

// Permanent reports that no retry can succeed (invalid_grant): a sync
// that meets it stops instead of backing off and trying again, without
// importing this package (mail/imapsync checks for the method).
func (e *ProviderError) Permanent() bool { return e.Code == "invalid_grant" }

// providerError turns x/oauth2's error for a token request into a
// ProviderError where the provider said why. An answer without an OAuth
// error code (a 5xx, a proxy's or captive portal's HTML page) is told by
// its status and content type only: RetrieveError's own message carries
// the whole body, up to 1 MB, escape sequences and all, and a page that
// echoes the request would carry the code verifier or refresh token.
func providerError(p Provider, err error) error {
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		return fmt.Errorf("%s token endpoint: %w", p.Name, err)
	}
	if re.ErrorCode != "" {
		return &ProviderError{Provider: p.Name, Code: clean(re.ErrorCode, 60), Description: clean(re.ErrorDescription, 200)}
	}
	status, ctype := "no answer", "no content type"
	if re.Response != nil {
		status = clean(re.Response.Status, 60)
		if ct := clean(re.Response.Header.Get("Content-Type"), 60); ct != "" {
			ctype = ct
		}
	}
	return fmt.Errorf("%s token endpoint answered %s (%s, %s) without an OAuth error code", p.Name, status, ctype, size(len(re.Body)))
}

// size is n bytes in words.
func size(n int) string {
	if n < 1<<10 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// clean keeps what a provider wrote printable, visible and short: it ends
// up in a message to the person, on a terminal or in a log. It drops C0
// and C1 controls (ESC, CSI U+009B: terminal escape sequences), newlines
// and tabs, and the invisible characters of mail/invisible (bidi
// controls such as U+202E, which reorder what the person reads).
func clean(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) || invisible.Is(r) {
			return -1
		}
		return r
	}, s)
	if r := []rune(s); len(r) > n {
		s = string(r[:n])
	}
	return s
}

// random is n bytes from crypto/rand, base64url: state and nonce.
func random(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// finish checks the ID token in a token response and makes the Grant.
func finish(ctx context.Context, p Provider, tok *oauth2.Token, nonce string) (*Grant, error) {
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return nil, fmt.Errorf("%s returned no ID token, so the account's address is unknown (is the openid scope allowed for this client?)", p.Name)
	}
	id, err := p.verifyIDToken(ctx, raw, nonce)
	if err != nil {
		return nil, err
	}
	if tok.RefreshToken == "" {
		return nil, fmt.Errorf("%s returned no refresh token: the node could not stay signed in (the client may lack offline access)", p.Name)
	}
	return &Grant{Provider: p.ID, Address: id.address, Subject: id.subject, Tenant: id.tenant, Refresh: credential.Secret(tok.RefreshToken), access: tok}, nil
}
