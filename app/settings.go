package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"mailnode/app/config"
	"mailnode/mail/credential"
	"mailnode/mail/imapsync"
	"mailnode/mail/signin"
	"mailnode/mail/smtpsend"
)

// The settings file (package config) says where things are; Config is
// what the node runs with: passwords looked up, addresses checked. This
// file turns one into the other, so that no command resolves a password.

// ErrNoPassword: an account names no password source and the default
// one, the environment variable MAILNODE_IMAP_PASSWORD, is empty.
var ErrNoPassword = errors.New("no IMAP password: give --imap-password-file FILE (a file of mode 0600), " +
	"set MAILNODE_IMAP_PASSWORD, or use --imap-keyring (the OS keyring, service \"mailnode\")")

// DefaultPasswordEnv is where an account without a named password source
// finds its password.
const DefaultPasswordEnv = "MAILNODE_IMAP_PASSWORD"

// Apply fills cfg's accounts, sending and fact settings from the
// settings file f, looking passwords up with getenv. trace, if not nil,
// receives every account's IMAP exchange (login redacted).
func Apply(cfg *Config, f config.File, getenv func(string) string, trace io.Writer) error {
	cfg.Facts = FactsConfig{AuthServIDs: f.Facts.AuthServIDs, VerifyDKIM: f.Facts.VerifyDKIM}
	cfg.Gateway.Listen, cfg.Gateway.Hostname = f.Gateway.Listen, f.Gateway.Hostname
	cfg.Gateway.HostingSuffixes = f.Gateway.AgentHostingSuffixes
	cfg.Accounts, cfg.Outgoing = nil, Outgoing{}
	for id, c := range f.SignIn {
		if _, set := cfg.SignIn.Clients[id]; !set {
			if cfg.SignIn.Clients == nil {
				cfg.SignIn.Clients = signin.Clients{}
			}
			cfg.SignIn.Clients[id] = signin.Client{ID: c.ID, Secret: c.Secret}
		}
	}
	for _, a := range f.Accounts {
		ic, err := ResolveAccount(a, cfg.SignIn, getenv)
		if err != nil {
			return err
		}
		ic.Trace = trace
		cfg.Accounts = append(cfg.Accounts, ic)
		if a.SMTP.Server != "" && cfg.Outgoing.SMTP == nil {
			sc, err := smtpConfig(a, ic)
			if err != nil {
				return err
			}
			cfg.Outgoing = Outgoing{From: a.SMTP.From, SMTP: &sc}
		}
	}
	return nil
}

// ResolveAccount looks up an account's password, or for an OAuth account
// its refresh token, and checks its settings.
func ResolveAccount(a config.Account, sc SignInConfig, getenv func(string) string) (imapsync.Config, error) {
	if a.Name == "" {
		return imapsync.Config{}, errors.New("config: an account has no name")
	}
	sec, err := imapsync.ParseSecurity(a.Security)
	if err != nil {
		return imapsync.Config{}, fmt.Errorf("account %q: %w", a.Name, err)
	}
	if a.OAuth != (config.OAuth{}) {
		ic := imapsync.Config{
			Account: a.Name, Address: a.Server, Security: sec, AllowInsecure: a.AllowInsecure,
			Username: a.Username, Folders: a.Folders, Exclude: a.Exclude, IncludeTrashJunk: a.TrashAndJunk,
		}
		if err := resolveOAuth(&ic, a, sc, getenv, nil); err != nil {
			return imapsync.Config{}, fmt.Errorf("account %q: %w", a.Name, err)
		}
		if err := ic.Validate(); err != nil {
			return imapsync.Config{}, fmt.Errorf("account %q: %w", a.Name, err)
		}
		return ic, nil
	}
	src := credential.Source{File: a.Password.File, Env: a.Password.Env}
	if a.Password.Keyring {
		src = credential.Source{KeyringService: "mailnode", KeyringUser: a.Username}
	}
	if src == (credential.Source{}) {
		src.Env = DefaultPasswordEnv
		if getenv(DefaultPasswordEnv) == "" {
			return imapsync.Config{}, fmt.Errorf("account %q: %w", a.Name, ErrNoPassword)
		}
	}
	pw, where, err := src.Lookup(getenv)
	if err != nil {
		return imapsync.Config{}, fmt.Errorf("account %q password: %w", a.Name, err)
	}
	ic := imapsync.Config{
		Account: a.Name, Address: a.Server, Security: sec, AllowInsecure: a.AllowInsecure,
		Username: a.Username, Password: pw, PasswordSource: where, Folders: a.Folders, Exclude: a.Exclude,
		IncludeTrashJunk: a.TrashAndJunk,
	}
	if err := ic.Validate(); err != nil {
		return imapsync.Config{}, fmt.Errorf("account %q: %w", a.Name, err)
	}
	return ic, nil
}

// smtpConfig is the account's submission server, logged in to with the
// IMAP account's username and password.
func smtpConfig(a config.Account, ic imapsync.Config) (smtpsend.Config, error) {
	sec := smtpsend.Security(strings.ToLower(a.SMTP.Security))
	if sec == "" {
		sec = smtpsend.StartTLS
		if strings.HasSuffix(a.SMTP.Server, ":465") {
			sec = smtpsend.TLS
		}
	}
	sc := smtpsend.Config{Address: a.SMTP.Server, Security: sec, AllowInsecure: a.AllowInsecure,
		Username: ic.Username, Password: ic.Password}
	if ic.OAuth != nil {
		sc.OAuth = ic.OAuth // the same Tokens: one renewal serves both
	}
	if err := sc.Validate(); err != nil {
		return sc, fmt.Errorf("account %q: %w", a.Name, err)
	}
	return sc, nil
}

// ErrNoSettings: the node was started without a settings file to save
// changes to.
var ErrNoSettings = errors.New("this node has no settings file to save changes to")

// Settings returns the settings file as saved.
func (n *Node) Settings() (config.File, error) {
	if n.cfg.Settings == nil {
		return config.File{}, ErrNoSettings
	}
	return n.cfg.Settings.Load()
}

// CheckAccount logs in to a's server and out again, without saving
// anything: the first-run wizard's "test login".
func (n *Node) CheckAccount(ctx context.Context, a config.Account) error {
	ic, err := ResolveAccount(a, n.cfg.SignIn, n.cfg.Getenv)
	if err != nil {
		return err
	}
	return imapsync.Check(ctx, ic, n.log)
}

// AddAccount saves a new account and, when the node keeps its accounts
// current, starts syncing it. The password must be where a says.
func (n *Node) AddAccount(ctx context.Context, a config.Account) error {
	_, err := n.addAccount(ctx, a, n.cfg.SignIn)
	return err
}

// addAccount is AddAccount with sc to sign in with; it says whether the
// account's sync started.
func (n *Node) addAccount(ctx context.Context, a config.Account, sc SignInConfig) (syncing bool, err error) {
	if n.cfg.Settings == nil {
		return false, ErrNoSettings
	}
	ic, err := ResolveAccount(a, sc, n.cfg.Getenv)
	if err != nil {
		return false, err
	}
	c, err := n.comp()
	if err != nil {
		return false, err
	}
	if _, err := n.cfg.Settings.Modify(func(f *config.File) error {
		if _, ok := f.Account(a.Name); ok {
			return fmt.Errorf("an account named %q exists", a.Name)
		}
		f.Accounts = append(f.Accounts, a)
		return nil
	}); err != nil {
		return false, err
	}
	c.mu.Lock()
	c.accounts = append(c.accounts, ic)
	c.mu.Unlock()
	n.update(func(s *Status) { s.Accounts = accountStatus(c.accountsCopy(), s.Accounts) })
	n.mu.Lock()
	paused := n.paused
	n.mu.Unlock()
	syncing = n.cfg.Services.Sync && !paused
	if syncing {
		n.addSync(c, ic)
	}
	n.log.Info("Account added", "account", a.Name, "server", a.Server, "syncing", syncing)
	return syncing, nil
}

// RemoveAccount stops syncing an account and removes it from the
// settings. The mail already copied stays in the store.
func (n *Node) RemoveAccount(ctx context.Context, name string) error {
	if n.cfg.Settings == nil {
		return ErrNoSettings
	}
	c, err := n.comp()
	if err != nil {
		return err
	}
	if _, err := n.cfg.Settings.Modify(func(f *config.File) error {
		before := len(f.Accounts)
		f.Accounts = slices.DeleteFunc(f.Accounts, func(a config.Account) bool { return a.Name == name })
		if len(f.Accounts) == before {
			return fmt.Errorf("no account named %q", name)
		}
		return nil
	}); err != nil {
		return err
	}
	if err := n.removeService("sync/" + name); err != nil {
		return err
	}
	c.mu.Lock()
	c.accounts = slices.DeleteFunc(c.accounts, func(a imapsync.Config) bool { return a.Account == name })
	c.mu.Unlock()
	n.update(func(s *Status) {
		s.Accounts = accountStatus(c.accountsCopy(), s.Accounts)
		s.Folders = slices.DeleteFunc(s.Folders, func(f FolderStatus) bool { return f.Account == name })
	})
	n.log.Info("Account removed", "account", name)
	return nil
}

// SetGateway saves how agents reach the node. The gateway listens on
// the new address from the node's next start.
func (n *Node) SetGateway(ctx context.Context, g config.Gateway) error {
	if n.cfg.Settings == nil {
		return ErrNoSettings
	}
	_, err := n.cfg.Settings.Modify(func(f *config.File) error { f.Gateway = g; return nil })
	if err == nil {
		n.update(func(s *Status) { s.Settings++ })
	}
	return err
}

// SetRelay saves the relay the node registers with.
func (n *Node) SetRelay(ctx context.Context, url string) error {
	if n.cfg.Settings == nil {
		return ErrNoSettings
	}
	_, err := n.cfg.Settings.Modify(func(f *config.File) error { f.Relay.URL = url; return nil })
	if err == nil {
		n.update(func(s *Status) { s.Settings++ })
	}
	return err
}

// accountsCopy reads the accounts: AddAccount and RemoveAccount change
// them while services run.
func (c *components) accountsCopy() []imapsync.Config {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.accounts)
}

// accountStatus is the status of the accounts as, keeping what prev said
// of an account's sign-in (a stopped sync stays stopped while others are
// added or removed).
func accountStatus(as []imapsync.Config, prev []AccountStatus) []AccountStatus {
	out := make([]AccountStatus, len(as))
	for i, a := range as {
		out[i] = AccountStatus{Name: a.Account, Server: a.Address, Username: a.Username, PasswordSource: a.PasswordSource,
			OAuth: a.OAuth != nil}
		for _, p := range prev {
			if p.Name == a.Account && p.Username == a.Username {
				out[i].Problem = p.Problem
			}
		}
	}
	return out
}

// ErrNotSyncing: the node runs no sync service to pause or resume.
var ErrNotSyncing = errors.New("this node does not sync mail, so there is nothing to pause")

// PauseSync stops every account's sync (paused) or starts them again.
// Agents and phones are still served from the mail already stored. The
// pause is not saved: a node started again syncs.
func (n *Node) PauseSync(ctx context.Context, paused bool) error {
	c, err := n.comp()
	if err != nil {
		return err
	}
	if !n.cfg.Services.Sync {
		return ErrNotSyncing
	}
	n.mu.Lock()
	if n.paused == paused {
		n.mu.Unlock()
		return nil
	}
	n.paused = paused
	n.mu.Unlock()
	for _, acct := range c.accountsCopy() {
		if paused {
			if err := n.removeService("sync/" + acct.Account); err != nil {
				return fmt.Errorf("pause account %q: %w", acct.Account, err)
			}
		} else {
			n.addSync(c, acct)
		}
	}
	n.update(func(s *Status) {
		s.SyncPaused = paused
		if paused {
			s.State = StatePaused
		} else {
			s.State = StateSyncing
		}
	})
	n.log.Info("Sync paused", "paused", paused)
	return nil
}

// Show asks the node's screen to come to the front: a second launch of the
// desktop app calls it through the local API, then exits. The node itself
// shows nothing; its screen follows Status.ShowRequests.
func (n *Node) Show(ctx context.Context) error {
	n.update(func(s *Status) { s.ShowRequests++ })
	return nil
}
