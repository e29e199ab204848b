package main

import (
	"context"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"mailnode/relay/relaycheck"
	"mailnode/relay/relayserver"
)

// serveOnly are serve's flags that check does not use but takes, so that a
// deployer can run check with the flags of their serve command (the
// systemd unit's ExecStart); true marks a boolean flag.
// TestCheckTakesServeFlags keeps this equal to serve's flags.
var serveOnly = map[string]bool{
	"data-dir": false, "db": false, "http-listen": false, "tunnel-addr": false,
	"tls-cert": false, "tls-key": false, "smtp-from": false,
	"rate-client": false, "burst-client": false, "rate-network": false, "burst-network": false, "rate-provider": false, "burst-provider": false, "rate-global": false, "burst-global": false,
	"agents-per-hour": false, "agents-per-network": false, "code-mails-per-network": false,
	"max-stalled": false, "queue-share": false, "max-pending-per-address": false, "max-spliced-per-address": false, "dns-rate": false,
	"dns-tcp-per-address": false, "dns-tcp-conns": false, "http-conns": false,
	"mesh-listen": false, "mesh-addr": false, "instance-id": false, "other-tunnel": false,
	"dev-ca-dir": false, "v": true, "acme": true, "acme-email": false, "acme-ca": false,
}

// ignored is a serve flag check takes and does nothing with.
type ignored bool

func (ignored) String() string     { return "" }
func (ignored) Set(string) error   { return nil }
func (b ignored) IsBoolFlag() bool { return bool(b) }

const checkUsage = `mailnode-relay check verifies a relay's deployment from the machine it runs on:
the zone's delegation at its parent, the relay's answer on its public address,
its TLS port (certificate and agent API), its DNS over UDP and TCP, the ACME
directory and the submission server (connect, TLS, AUTH; no mail is sent).
One line per check, ok or FAIL with a hint; exit status 0 when all pass, 1 if not.

Usage:
  mailnode-relay check --zone ZONE --public-ip IP [--api-name NAME] [--listen :443] [--dns-listen :53]
                       [--smtp-server HOST:PORT --smtp-user USER --smtp-password-file FILE] [flags]

It also takes serve's other flags and ignores them, so it can be run with the
relay's own serve flags.

Flags:
`

// checkFlags are check's flags, parsed.
type checkFlags struct {
	zone, apiName, listen, dnsListen                         *string
	ips                                                      ipList
	smtpServer, smtpSecurity, smtpUser, smtpPassFile, smtpCA *string
	allowInsecure, dev                                       *bool
	acmeDir, resolver                                        *string
	timeout                                                  *time.Duration
}

// newCheckFlags defines check's flags, serve's ignored ones included; its
// usage lists only those check uses.
func newCheckFlags(stderr io.Writer) (*flag.FlagSet, *checkFlags) {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, checkUsage)
		shown := flag.NewFlagSet("check", flag.ContinueOnError)
		shown.SetOutput(stderr)
		fs.VisitAll(func(f *flag.Flag) {
			if _, ok := f.Value.(ignored); !ok {
				shown.Var(f.Value, f.Name, f.Usage)
				shown.Lookup(f.Name).DefValue = f.DefValue
			}
		})
		shown.PrintDefaults()
	}
	c := &checkFlags{}
	c.zone = fs.String("zone", "", "DNS zone the relay serves (required)")
	c.apiName = fs.String("api-name", "", "the relay's own host name (default: the zone)")
	fs.Var(&c.ips, "public-ip", "the relay's public address, which the parent's glue must name (repeatable)")
	c.listen = fs.String("listen", ":443", "the relay's TLS port (no host: checked on loopback)")
	c.dnsListen = fs.String("dns-listen", "", "where the relay answers its zone, UDP and TCP (e.g. :53)")
	c.smtpServer = fs.String("smtp-server", "", "submission server for confirmation codes, host:port")
	c.smtpSecurity = fs.String("smtp-security", "starttls", "starttls, tls, or plain (plain: loopback only, unless --allow-insecure)")
	c.allowInsecure = fs.Bool("allow-insecure", false, "development: allow --smtp-security plain to a server that is not on loopback")
	c.smtpUser = fs.String("smtp-user", "", "submission login")
	c.smtpPassFile = fs.String("smtp-password-file", "", "file holding the submission password")
	c.smtpCA = fs.String("smtp-ca", "", "PEM file of the CA that signs the submission server's certificate, if not a public one")
	c.acmeDir = fs.String("acme-directory", relaycheck.DefaultACMEDirectory, "the ACME directory nodes get their certificates from, and with serve --acme the relay its own")
	c.resolver = fs.String("resolver", "", "recursive DNS resolver host:port to find the parent zone's servers (default: /etc/resolv.conf's first)")
	c.timeout = fs.Duration("timeout", 5*time.Second, "time each exchange may take")
	c.dev = fs.Bool("dev", false, "refused: a development relay has no delegation or public certificate to check")
	for name, isBool := range serveOnly {
		fs.Var(ignored(isBool), name, "a serve flag check does not use")
	}
	return fs, c
}

func check(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, c := newCheckFlags(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	if *c.dev {
		return usageError{errors.New("check verifies a public relay: a --dev relay has no delegation, public address or public certificate to check")}
	}
	if *c.zone == "" {
		return usageError{errors.New("--zone is required")}
	}
	cfg := relaycheck.Config{Zone: *c.zone, APIName: *c.apiName, PublicIPs: c.ips, Listen: *c.listen, DNSListen: *c.dnsListen,
		ACMEDirectory: *c.acmeDir, Resolver: *c.resolver, Timeout: *c.timeout}
	if *c.smtpServer != "" {
		// The same refusal as serve's, before anything is sent.
		probe := relayserver.SMTPMailer{Addr: *c.smtpServer, Security: *c.smtpSecurity, AllowInsecure: *c.allowInsecure}
		if err := probe.Validate(); err != nil {
			return usageError{err}
		}
		s := &relaycheck.SMTP{Addr: *c.smtpServer, Security: *c.smtpSecurity, Username: *c.smtpUser}
		if *c.smtpPassFile != "" {
			b, err := os.ReadFile(*c.smtpPassFile)
			if err != nil {
				return fmt.Errorf("smtp password: %w", err)
			}
			s.Password = strings.TrimSpace(string(b))
		}
		if *c.smtpCA != "" {
			pem, err := os.ReadFile(*c.smtpCA)
			if err != nil {
				return fmt.Errorf("smtp CA: %w", err)
			}
			s.Roots = x509.NewCertPool()
			if !s.Roots.AppendCertsFromPEM(pem) {
				return fmt.Errorf("smtp CA: no certificate in %s", *c.smtpCA)
			}
		}
		cfg.SMTP = s
	}
	results := relaycheck.Run(ctx, cfg)
	failed := 0
	for _, r := range results {
		fmt.Fprintln(stdout, r)
		if !r.OK {
			failed++
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d checks failed", failed, len(results))
	}
	return nil
}
