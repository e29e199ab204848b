// Package config is the node's settings file: versioned, migrated on
// load, written atomically. It holds where each account's password is,
// never a password.
//
// Version 1 is the file of the first releases (no "version" field; each
// account's password source and SMTP settings as flat fields). Version 2
// groups them ("password", "smtp") and adds the relay. Load migrates an
// older file in memory; the next Save writes the current version.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Version is the version Save writes.
const Version = 2

// RelayPlaceholder is the example a relay field shows. There is no
// default relay: nobody runs a public one for this project yet, and a
// first run must not point at a host that does not answer (or that
// someone else could take); a person names the relay they use.
const RelayPlaceholder = "https://relay.example.net"

// File is the settings file.
type File struct {
	Version  int       `json:"version"`
	DataDir  string    `json:"data_dir,omitempty"`
	Accounts []Account `json:"accounts"`
	Gateway  Gateway   `json:"gateway,omitzero"`
	Facts    Facts     `json:"facts,omitzero"`
	Relay    Relay     `json:"relay,omitzero"`
	// SignIn is the OAuth client the node signs in as, per provider
	// ("google", "microsoft"), for a build that has none of its own
	// (docs/accounts.md, "Client ids").
	SignIn map[string]OAuthClient `json:"signin,omitempty"`
}

// OAuthClient is a client registered with a provider: its id, and for
// Google's "Desktop app" clients the secret that comes with it, which
// ships in every copy of a program and so is no secret.
type OAuthClient struct {
	ID     string `json:"id"`
	Secret string `json:"secret,omitempty"`
}

// Account is one mailbox.
type Account struct {
	Name          string   `json:"name"`
	Server        string   `json:"server"`             // IMAP host:port
	Security      string   `json:"security,omitempty"` // tls (default), starttls, plain
	AllowInsecure bool     `json:"allow_insecure,omitempty"`
	Username      string   `json:"username"`
	Password      Password `json:"password,omitzero"`
	Folders       []string `json:"folders,omitempty"`
	Exclude       []string `json:"exclude,omitempty"`
	TrashAndJunk  bool     `json:"include_trash_and_junk,omitempty"`
	SMTP          SMTP     `json:"smtp,omitzero"`
	// OAuth, when set, signs in to both servers with OAuth 2.0 (Gmail,
	// Microsoft) instead of a password; Username is then the address the
	// provider named.
	OAuth OAuth `json:"oauth,omitzero"`
}

// OAuth is an account that signs in with OAuth 2.0: the provider, and
// where its refresh token is, the first that is set of File and Keyring.
// The access token is never saved.
type OAuth struct {
	Provider string `json:"provider"`
	File     string `json:"file,omitempty"`    // mode 0600
	Keyring  bool   `json:"keyring,omitempty"` // the OS keyring, service "mailnode-oauth", user "provider:username"
	// Subject and Tenant are the provider's identifiers of the person
	// who signed in first (the ID token's sub and tid): signing in again
	// for this account must name the same ones, since an address is not
	// a stable identity (Microsoft's preferred_username, email).
	Subject string `json:"subject,omitempty"`
	Tenant  string `json:"tenant,omitempty"`
}

// Password says where an account's password is: the first that is set
// of File, Env and Keyring.
type Password struct {
	File    string `json:"file,omitempty"`    // mode 0600
	Env     string `json:"env,omitempty"`     // an environment variable's name
	Keyring bool   `json:"keyring,omitempty"` // the OS keyring, service "mailnode", user = the username
}

// SMTP is how approved drafts leave: the submission server, logged in to
// with the account's username and password, and the From identity.
type SMTP struct {
	Server   string `json:"server,omitempty"`   // host:port, e.g. smtp.example.com:587
	Security string `json:"security,omitempty"` // starttls (default; tls on port 465), tls, plain
	From     string `json:"from,omitempty"`     // "Name <address>"; default the username
}

// Gateway is how agents reach the node.
type Gateway struct {
	Listen   string `json:"listen,omitempty"`   // e.g. ":443"
	Hostname string `json:"hostname,omitempty"` // public name, host or host:port
	// AgentHostingSuffixes are domains under which each name is another
	// party's agent, as the relay's agents zone is (which the node knows
	// by itself): every name directly under one is a site of its own for
	// the node's per-site limits and blocks (docs/gateway.md, "Sites").
	AgentHostingSuffixes []string `json:"agent_hosting_suffixes,omitempty"`
}

// Facts is whose word the extractors take that a sender is genuine.
type Facts struct {
	// AuthServIDs are the mail provider's authserv-ids, the first token
	// of its Authentication-Results fields (e.g. "mx.google.com").
	AuthServIDs []string `json:"authserv_ids,omitempty"`
	// VerifyDKIM checks DKIM signatures over DNS for mail the provider
	// did not vouch for.
	VerifyDKIM bool `json:"verify_dkim,omitempty"`
}

// Relay is the control plane the node registers its address with.
type Relay struct {
	URL string `json:"url,omitempty"` // none: no relay
	// ACME is the CA directory that certifies the node's relay name;
	// default Let's Encrypt, "off" for none (agents then need the
	// node's local CA).
	ACME string `json:"acme,omitempty"`
}

// Account returns the account named name.
func (f *File) Account(name string) (*Account, bool) {
	for i := range f.Accounts {
		if f.Accounts[i].Name == name {
			return &f.Accounts[i], true
		}
	}
	return nil, false
}

// Validate checks what a file must hold to be used.
func (f File) Validate() error {
	seen := map[string]bool{}
	for _, a := range f.Accounts {
		switch {
		case a.Name == "":
			return errors.New("an account has no name")
		case seen[a.Name]:
			return fmt.Errorf("two accounts are named %q", a.Name)
		case a.Server == "":
			return fmt.Errorf("account %q has no server", a.Name)
		case a.OAuth != (OAuth{}) && (a.OAuth.Provider == "" || a.OAuth.File == "" && !a.OAuth.Keyring):
			return fmt.Errorf("account %q signs in with OAuth but names no provider or no refresh token", a.Name)
		}
		seen[a.Name] = true
	}
	return nil
}

// Parse reads a settings file of any known version and returns it at the
// current version.
func Parse(b []byte) (File, error) {
	var probe struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return File{}, fmt.Errorf("not a settings file: %w", err)
	}
	var f File
	switch probe.Version {
	case 0, 1: // version 1 had no version field
		var v1 fileV1
		if err := decodeStrict(b, &v1); err != nil {
			return File{}, err
		}
		f = v1.migrate()
	case 2:
		if err := decodeStrict(b, &f); err != nil {
			return File{}, err
		}
	default:
		return File{}, fmt.Errorf("settings file version %d is newer than this mailnode (%d): upgrade mailnode", probe.Version, Version)
	}
	f.Version = Version
	return f, f.Validate()
}

// decodeStrict refuses fields the version does not have: a typo in a
// hand-edited file is an error, not a silently ignored setting.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Load reads the file at path. A missing file is fs.ErrNotExist.
func Load(path string) (File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return File{}, err
	}
	f, err := Parse(b)
	if err != nil {
		return File{}, fmt.Errorf("settings %s: %w", path, err)
	}
	return f, nil
}

// Save writes f to path atomically: a reader sees the old file or the
// new one, never a part, and a crash leaves one of them whole. The file
// is the owner's alone (0600).
func Save(path string, f File) error {
	f.Version = Version
	if err := f.Validate(); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "Name <address>" stays readable for a person editing the file
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return err
	}
	b := buf.Bytes()
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".config-*.json")
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename this finds nothing
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("save settings: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save settings: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("save settings: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	if d, err := os.Open(dir); err == nil { // make the rename itself durable
		d.Sync()
		d.Close()
	}
	return nil
}

// Store is the settings file of one node, changed by one process at a
// time: Modify holds a lock from its read to its write, so two changes
// from the tray and the local API cannot lose one another.
type Store struct {
	path string
	mu   sync.Mutex
}

// NewStore returns the store of the file at path. It does no I/O.
func NewStore(path string) *Store { return &Store{path: path} }

// Path is the file's path.
func (s *Store) Path() string { return s.path }

// Load reads the file; a missing file is an empty one.
func (s *Store) Load() (File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.load()
}

func (s *Store) load() (File, error) {
	f, err := Load(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return File{Version: Version}, nil
	}
	return f, err
}

// Modify applies change to the file and saves it, unless change fails.
// It returns the file as saved.
func (s *Store) Modify(change func(*File) error) (File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	if err != nil {
		return File{}, err
	}
	if err := change(&f); err != nil {
		return File{}, err
	}
	if err := Save(s.path, f); err != nil {
		return File{}, err
	}
	return f, nil
}
