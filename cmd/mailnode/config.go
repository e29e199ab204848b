package main

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"mailnode/app"
	"mailnode/mail/credential"
	"mailnode/mail/imapsync"
	"mailnode/mail/smtpsend"
)

// fileConfig is the JSON config file. Passwords are never in it: each
// account names where its password comes from.
type fileConfig struct {
	DataDir  string          `json:"data_dir,omitempty"`
	Accounts []accountConfig `json:"accounts"`
	Gateway  gatewayConfig   `json:"gateway,omitempty"`
	Facts    factsConfig     `json:"facts,omitempty"`
}

// factsConfig is whose word the extractors take that a sender is genuine.
type factsConfig struct {
	// AuthServIDs are the mail provider's authserv-ids, the first token of
	// its Authentication-Results fields (e.g. "mx.google.com").
	AuthServIDs []string `json:"authserv_ids,omitempty"`
	// VerifyDKIM checks DKIM signatures over DNS for mail the provider
	// did not vouch for.
	VerifyDKIM bool `json:"verify_dkim,omitempty"`
}

// gatewayConfig is how agents reach the node.
type gatewayConfig struct {
	Listen   string `json:"listen,omitempty"`   // e.g. ":443"
	Hostname string `json:"hostname,omitempty"` // public name, host or host:port
}

type accountConfig struct {
	Name          string   `json:"name"`
	Server        string   `json:"server"`             // host:port
	Security      string   `json:"security,omitempty"` // tls (default), starttls, plain
	AllowInsecure bool     `json:"allow_insecure,omitempty"`
	Username      string   `json:"username"`
	PasswordFile  string   `json:"password_file,omitempty"`
	PasswordEnv   string   `json:"password_env,omitempty"`
	Keyring       bool     `json:"keyring,omitempty"` // OS keyring, service "mailnode", user = username
	Folders       []string `json:"folders,omitempty"`
	Exclude       []string `json:"exclude,omitempty"`
	TrashAndJunk  bool     `json:"include_trash_and_junk,omitempty"`
	// Sending approved drafts: the submission server (same username and
	// password as IMAP) and the From identity.
	SMTPServer   string `json:"smtp_server,omitempty"`   // host:port, e.g. smtp.example.com:587
	SMTPSecurity string `json:"smtp_security,omitempty"` // starttls (default), tls, plain
	From         string `json:"from,omitempty"`          // "Name <address>"; default the username

	// passwordUnset: no source was named, and the environment, tried
	// by default, is empty too.
	passwordUnset bool
}

// options are the flags shared by the commands that touch an account.
type options struct {
	configPath string
	dataDir    string
	acct       accountConfig
	gateway    gatewayConfig
	traceIMAP  bool
	logLevel   string
	// devAgents and devAgentCAs are the development overrides for
	// testing one's own agent against a local node (--dev-agent,
	// --dev-agent-ca); off unless given.
	devAgents   devAgentFlag
	devAgentCAs stringsFlag
}

// devAgentFlag collects --dev-agent DOMAIN=HOST:PORT.
type devAgentFlag map[string]string

func (d devAgentFlag) String() string { return "" }

func (d *devAgentFlag) Set(v string) error {
	domain, addr, ok := strings.Cut(v, "=")
	domain = strings.ToLower(strings.TrimSpace(domain))
	host, port, err := net.SplitHostPort(strings.TrimSpace(addr))
	if !ok || domain == "" || !strings.Contains(domain, ".") || err != nil || port == "" {
		return errors.New("want DOMAIN=HOST:PORT, e.g. my-agent.test=127.0.0.1:9443")
	}
	if ip, err := netip.ParseAddr(host); host != "localhost" && (err != nil || !ip.IsLoopback()) {
		return errors.New("the key document server must be on loopback (127.0.0.1, ::1 or localhost)")
	}
	if *d == nil {
		*d = devAgentFlag{}
	}
	(*d)[domain] = net.JoinHostPort(host, port)
	return nil
}

// stringsFlag collects a repeatable string flag.
type stringsFlag []string

func (s stringsFlag) String() string      { return strings.Join(s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

func (o *options) register(fs *flag.FlagSet, withAccount bool) {
	fs.StringVar(&o.configPath, "config", "", "config file (JSON; default DATA_DIR/config.json if present)")
	fs.StringVar(&o.dataDir, "data-dir", "", "data directory (env MAILNODE_DATA_DIR; default "+defaultDataDir()+")")
	fs.StringVar(&o.logLevel, "log-level", "", "debug, info, warn or error (env MAILNODE_LOG_LEVEL; default info)")
	if !withAccount {
		return
	}
	fs.StringVar(&o.acct.Server, "imap-server", "", "IMAP server host:port (env MAILNODE_IMAP_SERVER)")
	fs.StringVar(&o.acct.Security, "imap-security", "", "tls, starttls or plain (env MAILNODE_IMAP_SECURITY; default tls)")
	fs.StringVar(&o.acct.Username, "imap-user", "", "IMAP username (env MAILNODE_IMAP_USER)")
	fs.StringVar(&o.acct.PasswordFile, "imap-password-file", "", "file holding the IMAP password, mode 0600 (env MAILNODE_IMAP_PASSWORD_FILE)")
	fs.BoolVar(&o.acct.Keyring, "imap-keyring", false, "read the IMAP password from the OS keyring (service \"mailnode\")")
	fs.BoolVar(&o.acct.AllowInsecure, "allow-insecure", false, "allow plain IMAP to a server that is not on loopback (the password crosses the network in clear)")
	fs.BoolVar(&o.traceIMAP, "dev-trace-imap", false, "development: print the IMAP exchange to stderr (login redacted)")
	fs.StringVar(&o.acct.SMTPServer, "smtp-server", "", "SMTP submission server host:port for approved drafts (env MAILNODE_SMTP_SERVER)")
	fs.StringVar(&o.acct.SMTPSecurity, "smtp-security", "", "starttls, tls or plain (env MAILNODE_SMTP_SECURITY; default starttls, tls on port 465)")
	fs.StringVar(&o.acct.From, "from", "", "the From of drafts, \"Name <address>\" (env MAILNODE_FROM; default the IMAP username)")
	fs.StringVar(&o.gateway.Listen, "listen", "", "serve agents on this address, e.g. :443 (env MAILNODE_LISTEN; default: no agents)")
	fs.StringVar(&o.gateway.Hostname, "hostname", "", "the node's public hostname[:port] as agents reach it (env MAILNODE_HOSTNAME)")
	fs.Var(&o.devAgents, "dev-agent", "development: fetch DOMAIN's key document from a loopback HOST:PORT (DOMAIN=HOST:PORT, repeatable)")
	fs.Var(&o.devAgentCAs, "dev-agent-ca", "development: trust this PEM CA file for agents' key documents (repeatable)")
}

// devCAs reads the --dev-agent-ca files.
func (o *options) devCAs() ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for _, f := range o.devAgentCAs {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("--dev-agent-ca: %w", err)
		}
		n := len(out)
		for {
			var blk *pem.Block
			blk, b = pem.Decode(b)
			if blk == nil {
				break
			}
			if blk.Type != "CERTIFICATE" {
				continue
			}
			c, err := x509.ParseCertificate(blk.Bytes)
			if err != nil {
				return nil, fmt.Errorf("--dev-agent-ca %s: %w", f, err)
			}
			out = append(out, c)
		}
		if len(out) == n {
			return nil, fmt.Errorf("--dev-agent-ca %s: no PEM certificate in it", f)
		}
	}
	return out, nil
}

func defaultDataDir() string {
	if runtime.GOOS == "linux" {
		if x := os.Getenv("XDG_DATA_HOME"); x != "" {
			return filepath.Join(x, "mailnode")
		}
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, ".local", "share", "mailnode")
		}
	}
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "mailnode")
	}
	return "mailnode-data"
}

// load builds the app config: file, then environment, then flags.
func (o *options) load(getenv func(string) string) (app.Config, error) {
	var fc fileConfig
	dataDir := firstNonEmpty(o.dataDir, getenv("MAILNODE_DATA_DIR"))
	path := o.configPath
	if path == "" {
		path = filepath.Join(firstNonEmpty(dataDir, defaultDataDir()), "config.json")
		if _, err := os.Stat(path); err != nil {
			path = ""
		}
	}
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return app.Config{}, fmt.Errorf("read config: %w", err)
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&fc); err != nil {
			return app.Config{}, fmt.Errorf("config %s: %w", path, err)
		}
	}
	cfg := app.Config{DataDir: firstNonEmpty(dataDir, fc.DataDir, defaultDataDir())}
	cfg.Gateway.Listen = firstNonEmpty(o.gateway.Listen, getenv("MAILNODE_LISTEN"), fc.Gateway.Listen)
	cfg.Gateway.Hostname = firstNonEmpty(o.gateway.Hostname, getenv("MAILNODE_HOSTNAME"), fc.Gateway.Hostname)
	// Development overrides come from flags only, never from the
	// environment or the config file, so they cannot be left on by
	// accident; the node logs a warning when they are set.
	cfg.Gateway.DevAgentAddrs = o.devAgents
	cas, err := o.devCAs()
	if err != nil {
		return app.Config{}, err
	}
	cfg.Gateway.DevAgentCAs = cas
	cfg.Facts.AuthServIDs = fc.Facts.AuthServIDs
	if ids := getenv("MAILNODE_AUTHSERV_IDS"); ids != "" {
		cfg.Facts.AuthServIDs = strings.FieldsFunc(ids, func(r rune) bool { return r == ',' || r == ' ' })
	}
	cfg.Facts.VerifyDKIM = fc.Facts.VerifyDKIM || getenv("MAILNODE_VERIFY_DKIM") == "1"

	// One account may come from env and flags; it is added to (or, with
	// the same server and user, replaces) the file's accounts.
	a := o.acct
	a.Server = firstNonEmpty(a.Server, getenv("MAILNODE_IMAP_SERVER"))
	a.Security = firstNonEmpty(a.Security, getenv("MAILNODE_IMAP_SECURITY"))
	a.Username = firstNonEmpty(a.Username, getenv("MAILNODE_IMAP_USER"))
	a.PasswordFile = firstNonEmpty(a.PasswordFile, getenv("MAILNODE_IMAP_PASSWORD_FILE"))
	a.SMTPServer = firstNonEmpty(a.SMTPServer, getenv("MAILNODE_SMTP_SERVER"))
	a.SMTPSecurity = firstNonEmpty(a.SMTPSecurity, getenv("MAILNODE_SMTP_SECURITY"))
	a.From = firstNonEmpty(a.From, getenv("MAILNODE_FROM"))
	accounts := fc.Accounts
	if a.Server != "" || a.Username != "" {
		a.Name = firstNonEmpty(a.Name, "default")
		if a.PasswordFile == "" && !a.Keyring {
			a.PasswordEnv = "MAILNODE_IMAP_PASSWORD"
			a.passwordUnset = getenv(a.PasswordEnv) == ""
		}
		accounts = append(accounts, a)
	}
	for _, ac := range accounts {
		ic, err := ac.resolve(getenv)
		if err != nil {
			return app.Config{}, err
		}
		if o.traceIMAP {
			ic.Trace = os.Stderr
		}
		cfg.Accounts = append(cfg.Accounts, ic)
		if ac.SMTPServer != "" && cfg.Outgoing.SMTP == nil {
			sc, err := ac.smtp(ic)
			if err != nil {
				return app.Config{}, err
			}
			cfg.Outgoing = app.Outgoing{From: ac.From, SMTP: &sc}
		}
	}
	return cfg, nil
}

func (a accountConfig) resolve(getenv func(string) string) (imapsync.Config, error) {
	if a.Name == "" {
		return imapsync.Config{}, errors.New("config: an account has no name")
	}
	sec, err := imapsync.ParseSecurity(a.Security)
	if err != nil {
		return imapsync.Config{}, fmt.Errorf("account %q: %w", a.Name, err)
	}
	src := credential.Source{File: a.PasswordFile, Env: a.PasswordEnv}
	if a.Keyring {
		src = credential.Source{KeyringService: "mailnode", KeyringUser: a.Username}
	}
	if a.passwordUnset {
		return imapsync.Config{}, fmt.Errorf("account %q: no IMAP password: give --imap-password-file FILE (a file of mode 0600), "+
			"set MAILNODE_IMAP_PASSWORD, or use --imap-keyring (the OS keyring, service \"mailnode\")", a.Name)
	}
	pw, where, err := src.Lookup(getenv)
	if err != nil {
		return imapsync.Config{}, fmt.Errorf("account %q password: %w", a.Name, err)
	}
	return imapsync.Config{
		Account: a.Name, Address: a.Server, Security: sec, AllowInsecure: a.AllowInsecure,
		Username: a.Username, Password: pw, PasswordSource: where, Folders: a.Folders, Exclude: a.Exclude,
		IncludeTrashJunk: a.TrashAndJunk,
	}, nil
}

// smtp is the account's submission server, logged in to with the IMAP
// account's username and password.
func (a accountConfig) smtp(ic imapsync.Config) (smtpsend.Config, error) {
	sec := smtpsend.Security(strings.ToLower(a.SMTPSecurity))
	if sec == "" {
		sec = smtpsend.StartTLS
		if strings.HasSuffix(a.SMTPServer, ":465") {
			sec = smtpsend.TLS
		}
	}
	sc := smtpsend.Config{Address: a.SMTPServer, Security: sec, AllowInsecure: a.AllowInsecure,
		Username: ic.Username, Password: ic.Password}
	if err := sc.Validate(); err != nil {
		return sc, fmt.Errorf("account %q: %w", a.Name, err)
	}
	return sc, nil
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
