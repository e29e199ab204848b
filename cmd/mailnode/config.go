package main

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"mailnode/app"
	"mailnode/app/config"
	"mailnode/relay/devnet"
	"mailnode/relay/relayclient"
)

// options are the flags shared by the commands that touch an account.
type options struct {
	configPath string
	dataDir    string
	acct       config.Account
	gateway    config.Gateway
	traceIMAP  bool
	logLevel   string
	// devAgents and devAgentCAs are the development overrides for
	// testing one's own agent against a local node (--dev-agent,
	// --dev-agent-ca); off unless given.
	devAgents   devAgentFlag
	devAgentCAs stringsFlag
	// relayURL, relayAddress: the relay to register at (opt-in) and the
	// address agents will resolve.
	relayURL, relayAddress string
	// relayACME is the CA directory for the relay name's certificate.
	relayACME string
	// devRelay reaches a relay on loopback (--dev-relay-ca, -dns,
	// -port); off unless given.
	devRelay    devnet.Overrides
	devRelayCAs stringsFlag
	// hostingSuffixes are --agent-hosting-suffix, in place of the
	// settings' gateway.agent_hosting_suffixes when given.
	hostingSuffixes stringsFlag
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
	fs.StringVar(&o.acct.Password.File, "imap-password-file", "", "file holding the IMAP password, mode 0600 (env MAILNODE_IMAP_PASSWORD_FILE)")
	fs.BoolVar(&o.acct.Password.Keyring, "imap-keyring", false, "read the IMAP password from the OS keyring (service \"mailnode\")")
	fs.BoolVar(&o.acct.AllowInsecure, "allow-insecure", false, "development: allow --imap-security and --smtp-security plain to a server that is not on loopback (the password crosses the network in clear)")
	fs.BoolVar(&o.traceIMAP, "dev-trace-imap", false, "development: print the IMAP exchange to stderr (login redacted)")
	fs.StringVar(&o.acct.SMTP.Server, "smtp-server", "", "SMTP submission server host:port for approved drafts (env MAILNODE_SMTP_SERVER)")
	fs.StringVar(&o.acct.SMTP.Security, "smtp-security", "", "starttls, tls or plain (env MAILNODE_SMTP_SECURITY; default starttls, tls on port 465)")
	fs.StringVar(&o.acct.SMTP.From, "from", "", "the From of drafts, \"Name <address>\" (env MAILNODE_FROM; default the IMAP username)")
	fs.StringVar(&o.gateway.Listen, "listen", "", "serve agents on this address, e.g. :443 (env MAILNODE_LISTEN; default: no agents)")
	fs.StringVar(&o.gateway.Hostname, "hostname", "", "the node's public hostname[:port] as agents reach it (env MAILNODE_HOSTNAME)")
	fs.Var(&o.hostingSuffixes, "agent-hosting-suffix", "a domain that hosts other parties' agents one name each, like a relay's agents zone: each name under it is a site of its own for the per-site limits and blocks (repeatable; env MAILNODE_AGENT_HOSTING_SUFFIXES, comma-separated; settings gateway.agent_hosting_suffixes; the relay's own zone is known without it)")
	fs.Var(&o.devAgents, "dev-agent", "development: fetch DOMAIN's key document from a loopback HOST:PORT (DOMAIN=HOST:PORT, repeatable)")
	fs.Var(&o.devAgentCAs, "dev-agent-ca", "development: trust this PEM CA file for agents' key documents (repeatable)")
	fs.StringVar(&o.relayURL, "relay", "", "register at this relay and take agents through it, e.g. https://relay.example.net (env MAILNODE_RELAY; settings relay.url)")
	fs.StringVar(&o.relayAddress, "relay-address", "", "the e-mail address agents resolve at the relay (env MAILNODE_RELAY_ADDRESS; default the IMAP username)")
	fs.StringVar(&o.relayACME, "relay-acme", "", "ACME directory that certifies the relay name, or off (env MAILNODE_RELAY_ACME; settings relay.acme; default Let's Encrypt, off with --dev-relay-*)")
	fs.Var(&o.devRelayCAs, "dev-relay-ca", "development: trust this PEM CA file for the relay and the ACME directory (repeatable)")
	fs.StringVar(&o.devRelay.DNS, "dev-relay-dns", "", "development: look relay names up at this DNS server (HOST:PORT, a local relay's --dns-listen)")
	fs.IntVar(&o.devRelay.Port, "dev-relay-port", 0, "development: connect to this port where the relay protocol says 443 (a local relay's --listen)")
}

// devCAs reads the --dev-agent-ca files.
func (o *options) devCAs() ([]*x509.Certificate, error) {
	return readCAs("--dev-agent-ca", o.devAgentCAs)
}

// readCAs reads the certificates of PEM files given to flag.
func readCAs(flag string, files []string) ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
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
				return nil, fmt.Errorf("%s %s: %w", flag, f, err)
			}
			out = append(out, c)
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s %s: no PEM certificate in it", flag, f)
		}
	}
	return out, nil
}

// defaultDataDir is the platform's place for the node's files
// (config.DefaultDataDir).
func defaultDataDir() string { return config.DefaultDataDir(os.Getenv) }

// load builds the app config: the settings file, then the environment,
// then flags. The environment and flags change this run only; the file
// changes through the node (Node.AddAccount and the like).
func (o *options) load(getenv func(string) string) (app.Config, error) {
	dataDir := firstNonEmpty(o.dataDir, getenv("MAILNODE_DATA_DIR"))
	path := o.configPath
	if path == "" {
		path = filepath.Join(firstNonEmpty(dataDir, defaultDataDir()), "config.json")
	}
	f, err := config.Load(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && o.configPath == "":
		f = config.File{Version: config.Version} // no file yet: flags and environment only
	case err != nil:
		return app.Config{}, fmt.Errorf("read config: %w", err)
	}
	f.Gateway.Listen = firstNonEmpty(o.gateway.Listen, getenv("MAILNODE_LISTEN"), f.Gateway.Listen)
	f.Gateway.Hostname = firstNonEmpty(o.gateway.Hostname, getenv("MAILNODE_HOSTNAME"), f.Gateway.Hostname)
	if ids := getenv("MAILNODE_AUTHSERV_IDS"); ids != "" {
		f.Facts.AuthServIDs = strings.FieldsFunc(ids, func(r rune) bool { return r == ',' || r == ' ' })
	}
	f.Facts.VerifyDKIM = f.Facts.VerifyDKIM || getenv("MAILNODE_VERIFY_DKIM") == "1"
	if env := getenv("MAILNODE_AGENT_HOSTING_SUFFIXES"); env != "" {
		f.Gateway.AgentHostingSuffixes = strings.FieldsFunc(env, func(r rune) bool { return r == ',' || r == ' ' })
	}
	if len(o.hostingSuffixes) > 0 {
		f.Gateway.AgentHostingSuffixes = o.hostingSuffixes
	}

	// One account may come from the environment and flags; it is added
	// to the file's accounts for this run.
	a := o.acct
	a.Server = firstNonEmpty(a.Server, getenv("MAILNODE_IMAP_SERVER"))
	a.Security = firstNonEmpty(a.Security, getenv("MAILNODE_IMAP_SECURITY"))
	a.Username = firstNonEmpty(a.Username, getenv("MAILNODE_IMAP_USER"))
	a.Password.File = firstNonEmpty(a.Password.File, getenv("MAILNODE_IMAP_PASSWORD_FILE"))
	a.SMTP.Server = firstNonEmpty(a.SMTP.Server, getenv("MAILNODE_SMTP_SERVER"))
	a.SMTP.Security = firstNonEmpty(a.SMTP.Security, getenv("MAILNODE_SMTP_SECURITY"))
	a.SMTP.From = firstNonEmpty(a.SMTP.From, getenv("MAILNODE_FROM"))
	if a.Server != "" || a.Username != "" {
		a.Name = firstNonEmpty(a.Name, "default")
		f.Accounts = append(f.Accounts, a)
	}

	cfg := app.Config{DataDir: firstNonEmpty(dataDir, f.DataDir, defaultDataDir()), Settings: config.NewStore(path), Getenv: getenv}
	var trace io.Writer
	if o.traceIMAP {
		trace = os.Stderr
	}
	if err := app.Apply(&cfg, f, getenv, trace); err != nil {
		return app.Config{}, err
	}
	// Development overrides come from flags only, never from the
	// environment or the config file, so they cannot be left on by
	// accident; the node logs a warning when they are set.
	cfg.Gateway.DevAgentAddrs = o.devAgents
	cas, err := o.devCAs()
	if err != nil {
		return app.Config{}, err
	}
	cfg.Gateway.DevAgentCAs = cas
	// The relay is opt-in: a flag, the environment or a URL written in
	// the settings, never the built-in default alone.
	cfg.Relay.URL = firstNonEmpty(o.relayURL, getenv("MAILNODE_RELAY"), f.Relay.URL)
	cfg.Relay.Address = firstNonEmpty(o.relayAddress, getenv("MAILNODE_RELAY_ADDRESS"))
	o.devRelay.CAFiles = o.devRelayCAs
	// A relay reached through development overrides is on loopback,
	// where Let's Encrypt cannot check its DNS: no certificate unless an
	// ACME directory (a local test CA) is named.
	defaultACME := relayclient.LetsEncrypt
	if o.devRelay.Any() {
		defaultACME = "off"
	}
	cfg.Relay.ACME = firstNonEmpty(o.relayACME, getenv("MAILNODE_RELAY_ACME"), f.Relay.ACME, defaultACME)
	if cfg.Relay.ACME == "off" {
		cfg.Relay.ACME = ""
	}
	if err := o.devRelay.Check(); err != nil {
		return app.Config{}, err
	}
	if o.devRelay.Any() {
		hc, err := o.devRelay.HTTPClient()
		if err != nil {
			return app.Config{}, err
		}
		tlsConfig, _ := o.devRelay.TLS()
		cfg.Relay.HTTP, cfg.Relay.ACMEHTTP, cfg.Relay.TLS, cfg.Relay.Dial, cfg.Relay.Dev = hc, hc, tlsConfig, o.devRelay.Dial(), true
		cfg.Relay.DevDNS, cfg.Relay.DevPort = o.devRelay.DNS, o.devRelay.Port
		// The agents a development relay hosts are under its zone, which
		// public DNS does not answer: their key documents are fetched
		// through the relay's development DNS, port and CA, as the relay
		// itself is. The zone is the relay URL's host, as the node assumes
		// for its hosting suffix (app addRelayZone).
		if u, err := url.Parse(cfg.Relay.URL); err == nil && u.Hostname() != "" && net.ParseIP(u.Hostname()) == nil {
			cas, err := readCAs("--dev-relay-ca", o.devRelayCAs)
			if err != nil {
				return app.Config{}, err
			}
			cfg.Gateway.DevAgentZones = []string{"agents." + strings.ToLower(u.Hostname())}
			cfg.Gateway.DevAgentDial = cfg.Relay.Dial
			cfg.Gateway.DevAgentCAs = append(cfg.Gateway.DevAgentCAs, cas...)
		}
	}
	if cfg.Relay.URL != "" && cfg.Gateway.Listen == "" {
		// The tunnel's streams are served by the gateway; with no
		// listener asked for, it listens on loopback only.
		cfg.Gateway.Listen = "127.0.0.1:0"
	}
	return cfg, nil
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// namesAccount reports whether flags or the environment give an account
// for this run, as load reads them.
func (o *options) namesAccount(getenv func(string) string) bool {
	return firstNonEmpty(o.acct.Server, getenv("MAILNODE_IMAP_SERVER"), o.acct.Username, getenv("MAILNODE_IMAP_USER")) != ""
}
