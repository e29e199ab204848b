package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"mailnode/app/config"
	"mailnode/mail/credential"
	"mailnode/mail/imapsync"
	"mailnode/mail/invisible"
	"mailnode/mail/signin"
)

// Accounts that sign in with OAuth 2.0 (Gmail, Microsoft; docs/accounts.md):
// the sign-in itself is mail/signin's; here it becomes an account, its
// refresh token kept where the settings say, its access token in memory.

// SignInConfig is how the node signs people in to their mail providers.
type SignInConfig struct {
	// Clients are the OAuth clients by provider ID; a provider missing
	// here takes the build's default (mail/signin).
	Clients signin.Clients
	// Providers add to or replace signin.Known by ID, each with its
	// client set: a company's own identity provider (signin.Discover),
	// the tests' oidc-provider.
	Providers []signin.Provider
	// HTTP talks to the providers; default a client with a timeout.
	HTTP *http.Client
}

// provider is the provider id with its client, or why there is none
// (signin.NoClientError: what to register). An id that is an https URL
// is an OpenID Connect issuer of the person's own (a company's identity
// provider), found by its discovery document, with the client the
// settings give for that URL.
func (sc SignInConfig) provider(id string) (signin.Provider, error) {
	for _, p := range sc.Providers {
		if p.ID == id {
			return p, nil
		}
	}
	if strings.HasPrefix(id, "https://") {
		c, ok := sc.Clients[id]
		if !ok || c.ID == "" {
			return signin.Provider{}, fmt.Errorf("signing in at %s needs the id of the OAuth client registered there for mailnode (settings signin, or --client-id)", id)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return signin.Discover(ctx, sc.HTTP, id, c, issuerScopes)
	}
	return signin.Lookup(id, sc.Clients)
}

// issuerScopes are what the node asks an issuer of the person's own for:
// the address (openid email) and a refresh token (offline_access). Its
// mail servers' own scope, if they want one, is the issuer's to grant.
var issuerScopes = []string{"openid", "email", "offline_access"}

// SignInProvider is a provider as a screen offers it.
type SignInProvider struct {
	ID, Name string
	// Device: it allows mail from its device sign-in (RFC 8628).
	Device bool
}

// SignInProviders are the providers a person can sign in with.
func (n *Node) SignInProviders() []SignInProvider {
	var out []SignInProvider
	seen := map[string]bool{}
	for _, p := range append(slices.Clone(n.cfg.SignIn.Providers), signin.Known()...) {
		if !seen[p.ID] {
			seen[p.ID] = true
			out = append(out, SignInProvider{ID: p.ID, Name: p.Name, Device: p.DeviceAuthURL != ""})
		}
	}
	return out
}

// DeviceCode is what a person enters on another device (RFC 8628).
type DeviceCode = signin.DeviceCode

// SignInFlow is how the person signs in: in a browser on this machine
// (Open), or with a code entered on another device (Show), which only
// providers that allow mail from their device sign-in take.
type SignInFlow struct {
	// Open opens the provider's page in a browser on this machine: the
	// desktop app opens the system browser; the CLI prints the address.
	Open func(url string) error
	// Show, when set, signs in with the device flow instead: it shows
	// the code and where to enter it.
	Show func(DeviceCode) error
	// Confirm shows the person the address the provider signed in
	// ("Signed in as X"; invisible characters removed, as the person
	// could not see them) and returns nil to add it, or an error
	// (ErrSignInCancelled) to keep nothing. again: the address is an
	// account already, whose sign-in this replaces. Someone who read the
	// sign-in's address may have signed the node in to his own account
	// first; the person sees that here. nil (tests): no question.
	Confirm func(ctx context.Context, address string, again bool) error
}

// ErrSignInCancelled is a sign-in the person did not confirm: nothing
// was kept.
var ErrSignInCancelled = errors.New("the sign-in was cancelled; nothing was kept")

// SignIn signs the person in at provider and keeps the refresh token
// (the OS keyring, else a 0600 file under dataDir/secrets). It returns
// the account to add: named and addressed as the provider says, with
// the provider's servers. Nothing is kept when the sign-in fails, when
// the address is one of existing that signs in elsewhere or as another
// person at the provider (another sub or tid than its first sign-in), or
// when the person does not confirm it (flow.Confirm).
func SignIn(ctx context.Context, sc SignInConfig, dataDir string, getenv func(string) string, providerID string, flow SignInFlow, existing []config.Account, logger *slog.Logger) (config.Account, error) {
	p, err := sc.provider(providerID)
	if err != nil {
		return config.Account{}, err
	}
	o := signin.Options{HTTPClient: sc.HTTP, Logger: logger}
	var g *signin.Grant
	if flow.Show != nil {
		g, err = signin.Device(ctx, p, flow.Show, o)
	} else if flow.Open != nil {
		g, err = signin.Browser(ctx, p, flow.Open, o)
	} else {
		err = errors.New("no way to sign in: neither a browser nor a device code")
	}
	if err != nil {
		return config.Account{}, err
	}
	var again bool
	for _, old := range existing {
		if old.Name == g.Address || old.Username == g.Address {
			if err := sameIdentity(old, g, p, providerID); err != nil {
				return config.Account{}, err
			}
			again = true
		}
	}
	if flow.Confirm != nil {
		if err := flow.Confirm(ctx, invisible.Strip(g.Address), again); err != nil {
			return config.Account{}, err
		}
	}
	where, err := keepRefresh(g.Provider, g.Address, g.Refresh, dataDir, getenv)
	if err != nil {
		return config.Account{}, err
	}
	imapSec, smtpSec := "tls", "tls"
	if p.SMTPStartTLS {
		smtpSec = "starttls"
	}
	if p.Plain {
		imapSec, smtpSec = "plain", "plain"
	}
	where.Subject, where.Tenant = g.Subject, g.Tenant
	return config.Account{Name: g.Address, Server: p.IMAP, Security: imapSec, Username: g.Address, OAuth: where,
		SMTP: config.SMTP{Server: p.SMTP, Security: smtpSec, From: g.Address}}, nil
}

// sameIdentity refuses a sign-in again for old that is not the same
// person at the same provider: another provider, or another sub or tid
// than old's first sign-in recorded (an account from before they were
// recorded takes this sign-in's). It runs before anything is kept: the
// refresh token's file is old's.
func sameIdentity(old config.Account, g *signin.Grant, p signin.Provider, providerID string) error {
	if old.OAuth.Provider != g.Provider {
		return fmt.Errorf("an account named %q exists and does not sign in with %s", old.Name, providerID)
	}
	if old.OAuth.Subject != "" && (old.OAuth.Subject != g.Subject || old.OAuth.Tenant != g.Tenant) {
		return fmt.Errorf("%s signed in a different person as %s than the one who added the account "+
			"(the provider's identifiers differ); nothing was changed", p.Name, g.Address)
	}
	return nil
}

// keepRefresh saves the refresh token of address at provider and says
// where, for the settings: the OS keyring, else a 0600 file under
// dataDir/secrets.
func keepRefresh(provider, address string, refresh credential.Secret, dataDir string, getenv func(string) string) (config.OAuth, error) {
	sum := sha256.Sum256([]byte(provider + ":" + address))
	file := filepath.Join(dataDir, "secrets", "oauth-"+hex.EncodeToString(sum[:8])+".token")
	service := signin.KeyringService
	if !keyringReachable(getenv) {
		service = "" // no bus: asking would start one that outlives the node
	}
	src, err := credential.Save(service, provider+":"+address, file, refresh)
	if err != nil {
		return config.OAuth{}, fmt.Errorf("keep the sign-in for %s: %w", address, err)
	}
	return config.OAuth{Provider: provider, File: src.File, Keyring: src.KeyringService != ""}, nil
}

// refreshSource is where an OAuth account's refresh token is.
func refreshSource(a config.Account) credential.Source {
	if a.OAuth.File != "" {
		return credential.Source{File: a.OAuth.File}
	}
	return credential.Source{KeyringService: signin.KeyringService, KeyringUser: a.OAuth.Provider + ":" + a.Username}
}

// resolveOAuth fills ic to sign in with the account's tokens: one Tokens
// per account, shared by its sync and its sends, that saves a refresh
// token the provider rotates where the old one was.
func resolveOAuth(ic *imapsync.Config, a config.Account, sc SignInConfig, getenv func(string) string, logger *slog.Logger) error {
	p, err := sc.provider(a.OAuth.Provider)
	if err != nil {
		return err
	}
	for _, s := range [][2]string{{a.Server, a.Security}, {a.SMTP.Server, a.SMTP.Security}} {
		if s[0] != "" {
			if err := p.CheckMailServer(s[0], s[1]); err != nil {
				return err
			}
		}
	}
	src := refreshSource(a)
	refresh, where, err := src.Lookup(getenv)
	if err != nil {
		return fmt.Errorf("the %s sign-in: %w", p.Name, err)
	}
	ic.OAuth = signin.NewTokens(p, refresh, signin.TokensOptions{
		Options: signin.Options{HTTPClient: sc.HTTP, Logger: logger},
		Save:    src.Replace,
	})
	ic.Password, ic.PasswordSource = "", p.Name+" sign-in ("+where+")"
	return nil
}

// SignInProblem is the sentence a person acts on when the provider
// refuses an account's grant ("Sign in to Microsoft again"), "" for any
// other error.
func SignInProblem(err error) string {
	if !imapsync.Permanent(err) {
		return ""
	}
	var pe *signin.ProviderError
	if errors.As(err, &pe) {
		return "Sign in to " + pe.Provider + " again"
	}
	return "Sign in again"
}

// SignInAccount signs the person in at provider and adds the account, or,
// when the address is already an account of this provider (its grant was
// revoked or expired), replaces its sign-in and syncs it again.
func (n *Node) SignInAccount(ctx context.Context, providerID string, flow SignInFlow) (config.Account, error) {
	if n.cfg.Settings == nil {
		return config.Account{}, ErrNoSettings
	}
	f, err := n.cfg.Settings.Load()
	if err != nil {
		return config.Account{}, err
	}
	a, err := SignIn(ctx, n.cfg.SignIn, n.cfg.DataDir, n.cfg.Getenv, providerID, flow, f.Accounts, n.log)
	if err != nil {
		return config.Account{}, err
	}
	a, _, _, err = n.keepAccount(ctx, a, n.cfg.SignIn)
	return a, err
}

// keepAccount adds a, or, when an account of a's name signs in with the
// same provider, gives that account a's sign-in and syncs it again from
// the start; it returns the account as kept, whether it existed, and
// whether its sync started. Anything else of that name is refused.
func (n *Node) keepAccount(ctx context.Context, a config.Account, sc SignInConfig) (_ config.Account, again, syncing bool, err error) {
	if n.cfg.Settings == nil {
		return config.Account{}, false, false, ErrNoSettings
	}
	f, err := n.cfg.Settings.Load()
	if err != nil {
		return config.Account{}, false, false, err
	}
	if old, ok := f.Account(a.Name); ok {
		if a.OAuth.Provider == "" || old.OAuth.Provider != a.OAuth.Provider {
			what := "does not sign in with " + a.OAuth.Provider
			if a.OAuth.Provider == "" {
				what = "exists"
			}
			return config.Account{}, false, false, fmt.Errorf("an account named %q %s", a.Name, what)
		}
		// Signing in again: the account keeps its settings, with the new
		// sign-in, and its sync starts over. The new sign-in is checked
		// before the old account goes.
		renewed := *old
		renewed.OAuth = a.OAuth
		if _, err := ResolveAccount(renewed, sc, n.cfg.Getenv); err != nil {
			return config.Account{}, false, false, err
		}
		if err := n.RemoveAccount(ctx, a.Name); err != nil {
			return config.Account{}, false, false, err
		}
		if old.OAuth.File != "" && old.OAuth.File != a.OAuth.File {
			refreshSource(*old).Delete()
		}
		a, again = renewed, true
	}
	syncing, err = n.addAccount(ctx, a, sc)
	return a, again, syncing, err
}
