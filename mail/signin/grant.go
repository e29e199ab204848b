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
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"mailnode/mail/credential"
)

// Options are what every sign-in shares; the zero value is the default.
type Options struct {
	// HTTPClient talks to the provider (a private CA in tests). Default:
	// a client with a 30-second timeout.
	HTTPClient *http.Client
	// Logger receives the steps, never a code or token.
	Logger *slog.Logger
}

func (o Options) client() *http.Client {
	if o.HTTPClient != nil {
		return o.HTTPClient
	}
	return &http.Client{Timeout: 30 * time.Second}
}

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
// ProviderError where the provider said why.
func providerError(p Provider, err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.ErrorCode != "" {
		return &ProviderError{Provider: p.Name, Code: clean(re.ErrorCode, 60), Description: clean(re.ErrorDescription, 200)}
	}
	return fmt.Errorf("%s token endpoint: %w", p.Name, err)
}

// clean keeps what a provider wrote printable and short: it ends up in a
// message to the person.
func clean(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
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
	addr, err := p.verifyIDToken(ctx, raw, nonce)
	if err != nil {
		return nil, err
	}
	if tok.RefreshToken == "" {
		return nil, fmt.Errorf("%s returned no refresh token: the node could not stay signed in (the client may lack offline access)", p.Name)
	}
	return &Grant{Provider: p.ID, Address: addr, Refresh: credential.Secret(tok.RefreshToken), access: tok}, nil
}
