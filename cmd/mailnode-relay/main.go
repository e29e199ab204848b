// Command mailnode-relay runs a relay (docs/relay.md): the agent API
// (resolve, health, transparency), nodes' registration and tunnels on one
// TLS port, and the relay's DNS zone. It links nothing of the node: only
// the relay's wire types, its server and its store.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"mailnode/relay"
	"mailnode/relay/connlimit"
	"mailnode/relay/relayacme"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := relayMain(ctx, args, stdout, stderr, nil)
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "mailnode-relay:", err)
		return 2
	default:
		fmt.Fprintln(stderr, "mailnode-relay:", err)
		return 1
	}
}

type usageError struct{ error }

const usage = `mailnode-relay runs a relay: resolve, node registration and tunnels, and its DNS zone.

Usage:
  mailnode-relay serve (--data-dir DIR | --db postgres://...) --zone ZONE --listen :443 [--http-listen 127.0.0.1:PORT]
                       [--dns-listen :53] [--public-ip IP ...] [--mesh-listen :7443 --other-tunnel HOST:PORT ...] [flags]
  mailnode-relay serve ... --acme [--acme-email ADDR] [--acme-directory URL]
                       the relay's certificate (API name and *.agents.ZONE) from Let's Encrypt by DNS-01
                       through its own DNS, renewed while it runs (docs/relay-deploy.md)
  mailnode-relay serve --dev --data-dir DIR [--smtp-server 127.0.0.1:PORT --smtp-security plain]
                       a development relay on this machine: zone relay.test on 127.0.0.1:4443, DNS on
                       127.0.0.1:4053, its own CA in DIR/dev-ca (it prints how to trust it)
  mailnode-relay check --zone ZONE --public-ip IP [serve's flags]
                       verifies the deployment: delegation, certificate, DNS, ACME, SMTP (docs/relay-deploy.md)

Run mailnode-relay serve --help or mailnode-relay check --help for every flag.
`

// The --dev listening addresses: fixed ports that the README can name,
// on loopback (4053, not 5353: that is mDNS).
const (
	devListen    = "127.0.0.1:4443"
	devDNSListen = "127.0.0.1:4053"
)

// listening reports the addresses actually bound (tests listen on :0).
type listening func(name, addr string)

func relayMain(ctx context.Context, args []string, stdout, stderr io.Writer, ready listening) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return usageError{errors.New("give a subcommand")}
		}
		return nil
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], stderr, ready)
	case "check":
		return check(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprint(stderr, usage)
	return usageError{fmt.Errorf("unknown subcommand %q", args[0])}
}

type ipList []net.IP

func (l *ipList) String() string { return fmt.Sprint([]net.IP(*l)) }
func (l *ipList) Set(s string) error {
	for _, part := range strings.Split(s, ",") {
		ip := net.ParseIP(strings.TrimSpace(part))
		if ip == nil {
			return fmt.Errorf("%q is not an IP address", part)
		}
		*l = append(*l, ip)
	}
	return nil
}

// addrList is a repeatable host:port flag.
type addrList []string

func (l *addrList) String() string { return strings.Join(*l, ",") }
func (l *addrList) Set(s string) error {
	for _, part := range strings.Split(s, ",") {
		if _, _, err := net.SplitHostPort(strings.TrimSpace(part)); err != nil {
			return fmt.Errorf("%q is not host:port", part)
		}
		*l = append(*l, strings.TrimSpace(part))
	}
	return nil
}

func serve(ctx context.Context, args []string, stderr io.Writer, ready listening) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", "", "directory of the relay's SQLite database (one instance)")
	db := fs.String("db", "", "postgres://... : the PostgreSQL database several relay instances share, instead of --data-dir")
	zone := fs.String("zone", "", "DNS zone the relay serves; nodes are <label>.ZONE (required)")
	apiName := fs.String("api-name", "", "the relay's own host name (default: the zone)")
	listen := fs.String("listen", ":443", "the TLS port: agent API, node tunnels, SNI passthrough")
	httpListen := fs.String("http-listen", "", "also serve the agent API in plain HTTP here (local testing, or behind a TLS-terminating proxy)")
	dnsListen := fs.String("dns-listen", "", "answer the zone on this address, UDP and TCP (e.g. :53)")
	var ips ipList
	fs.Var(&ips, "public-ip", "the relay's public address, answered for every name in the zone (repeatable)")
	tunnelAddr := fs.String("tunnel-addr", "", "host:port nodes dial for their tunnel (default API-NAME:443)")
	certFile := fs.String("tls-cert", "", "PEM certificate chain for the API name and *.agents.ZONE")
	keyFile := fs.String("tls-key", "", "PEM private key of --tls-cert")
	useACME := fs.Bool("acme", false, "obtain the certificate for the API name and *.agents.ZONE from an ACME CA by DNS-01, "+
		"answered by this relay's own DNS (--dns-listen); kept in the database, renewed 30 days before expiry without a restart; "+
		"TLS handshakes on the relay's names fail until the first is obtained")
	acmeDir := fs.String("acme-directory", relayacme.LetsEncrypt, "with --acme: the CA's ACME directory")
	acmeEmail := fs.String("acme-email", "", "with --acme: the account's contact address, for the CA's expiry warnings")
	acmeCA := fs.String("acme-ca", "", "with --acme: PEM file of the roots that the ACME directory's own HTTPS certificate chains to (a test CA; default the system's)")
	smtpServer := fs.String("smtp-server", "", "submission server for confirmation codes, host:port")
	smtpSecurity := fs.String("smtp-security", "starttls", "starttls, tls, or plain (plain: loopback only, unless --allow-insecure)")
	allowInsecure := fs.Bool("allow-insecure", false, "development: allow --smtp-security plain to a server that is not on loopback (the login and codes cross the network in clear)")
	smtpUser := fs.String("smtp-user", "", "submission login")
	smtpPassFile := fs.String("smtp-password-file", "", "file holding the submission password (mode 0600)")
	smtpFrom := fs.String("smtp-from", "", "sender of code mail: an address in a domain outside the zone that publishes SPF, DKIM and DMARC (default relay@ZONE, which has none)")
	smtpCA := fs.String("smtp-ca", "", "PEM file of the CA that signs the submission server's certificate, if not a public one")
	var lim relayserver.Limits
	fs.Float64Var(&lim.ClientRate, "rate-client", 10, "requests per second per client address")
	fs.IntVar(&lim.ClientBurst, "burst-client", 100, "burst per client address")
	fs.Float64Var(&lim.NetworkRate, "rate-network", 0, "requests per second per client network, an IPv4 /24 or IPv6 /48, all its addresses together (default 4 × --rate-client)")
	fs.IntVar(&lim.NetworkBurst, "burst-network", 0, "burst per client network (default 4 × --burst-client)")
	fs.Float64Var(&lim.ProviderRate, "rate-provider", 0, "requests per second per IPv6 provider, a /32 (an ISP's or a tunnel broker's allocation), all its networks together; "+
		"IPv4 clients, and IPv6 addresses that carry an IPv4 one (6to4, Teredo), have none (default a tenth of --rate-global, or --rate-network if more)")
	fs.IntVar(&lim.ProviderBurst, "burst-provider", 0, "burst per IPv6 provider (default a tenth of --burst-global, or --burst-network if more)")
	fs.Float64Var(&lim.GlobalRate, "rate-global", 2000, "requests per second, all clients together")
	fs.IntVar(&lim.GlobalBurst, "burst-global", 4000, "burst, all clients together")
	fs.IntVar(&lim.AgentsPerHour, "agents-per-hour", 1000, "new hosted agent key documents per hour")
	fs.IntVar(&lim.AgentsPerNetwork, "agents-per-network", 50, "new hosted agent key documents per hour one client network, an IPv4 /24 or IPv6 /56, may register (behind a proxy: --agents-per-hour)")
	fs.IntVar(&lim.CodeMailsPerNetwork, "code-mails-per-network", 20, "confirmation code mails per 24 hours one client network, an IPv4 /24 or IPv6 /56, may have sent, whatever the addresses (raise it behind a proxy)")
	fs.IntVar(&lim.MaxStalled, "max-stalled", 10000, "connections held for names with no live tunnel")
	fs.IntVar(&lim.QueueShare, "queue-share", relay.QueueShare, "places of a name's offline queue (of 32) one client network, an IPv4 /24 or IPv6 /56, may hold (behind a proxy every client is the proxy's: 32)")
	fs.IntVar(&lim.MaxPendingPerAddress, "max-pending-per-address", connlimit.DefaultPerAddress,
		"connections one client address (IPv4, IPv6 /64) may hold on the TLS port before they are established, stalled ones included; raise it behind a TCP proxy")
	fs.IntVar(&lim.MaxSplicedPerAddress, "max-spliced-per-address", connlimit.DefaultPerAddressName,
		"connections one client address (IPv4, IPv6 /64) may hold to one node's name through its tunnel; raise it behind a TCP proxy")
	fs.Float64Var(&lim.DNSRate, "dns-rate", 20, "DNS responses over UDP per second one client network, an IPv4 /24 or IPv6 /56, gets (bursts of twice that); "+
		"past it one in two is truncated, to retry over TCP, and the rest dropped, so forged sources cannot use the relay as a flood reflector; -1: no limit (the default with --dev)")
	fs.IntVar(&lim.DNSTCPPerAddress, "dns-tcp-per-address", 16, "connections one client address (IPv4, IPv6 /64) may hold open to the DNS over TCP; one past it is closed at once")
	fs.IntVar(&lim.DNSTCPConns, "dns-tcp-conns", 1024, "connections open to the DNS over TCP, all clients together")
	fs.IntVar(&lim.HTTPConns, "http-conns", 4096, "connections open on --http-listen, all clients together (no cap per address: behind a proxy every client is the proxy)")
	meshListen := fs.String("mesh-listen", "", "with --db: join the other instances on the database; listen for them here (e.g. :7443)")
	meshAddr := fs.String("mesh-addr", "", "host:port where the other instances reach --mesh-listen (default: --mesh-listen)")
	instanceID := fs.String("instance-id", "", "this instance's name in the tunnel directory (default: random)")
	var otherTunnels addrList
	fs.Var(&otherTunnels, "other-tunnel", "another instance's tunnel address, given to nodes to fall back to (repeatable)")
	dev := fs.Bool("dev", false, "a development relay on this machine, no certificate to make: unless given, --zone "+relaylocal.Zone+
		", --public-ip 127.0.0.1, --listen "+devListen+", --dns-listen "+devDNSListen+"; every listen address must be on loopback; "+
		"without --tls-cert a CA of its own, kept in --dev-ca-dir, issues the relay's certificate; prints the flags nodes and agents reach it with")
	devCADir := fs.String("dev-ca-dir", "", "with --dev: the directory of the development CA, "+relaylocal.CAFile+" and "+relaylocal.CAKeyFile+
		" (default DATA-DIR/dev-ca; required with --db)")
	verbose := fs.Bool("v", false, "log debug messages")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if *devCADir != "" && !*dev {
		return usageError{errors.New("--dev-ca-dir goes with --dev")}
	}
	if *dev {
		if !given["zone"] {
			*zone = relaylocal.Zone
		}
		if !given["public-ip"] {
			ips = ipList{net.IPv4(127, 0, 0, 1)}
		}
		if !given["listen"] {
			*listen = devListen
		}
		if !given["dns-listen"] {
			*dnsListen = devDNSListen
		}
		if !given["dns-rate"] {
			lim.DNSRate = -1 // on loopback it reflects nothing to the Internet
		}
		for _, l := range []struct{ flag, addr string }{
			{"--listen", *listen}, {"--http-listen", *httpListen}, {"--dns-listen", *dnsListen}, {"--mesh-listen", *meshListen},
		} {
			if l.addr != "" && !isLoopback(l.addr) {
				return usageError{fmt.Errorf("--dev is a relay for this machine only (its CA is made for development and its key kept beside it): "+
					"%s %s is not a loopback address (127.0.0.1:PORT or [::1]:PORT); a relay others reach runs without --dev, with a real certificate",
					l.flag, l.addr)}
			}
		}
	}
	if (*dataDir == "") == (*db == "") || *zone == "" {
		return usageError{errors.New("--zone and one of --data-dir (SQLite) or --db postgres://... are required")}
	}
	if *dev && *certFile == "" && *devCADir == "" {
		if *dataDir == "" {
			return usageError{errors.New("--dev with --db needs --dev-ca-dir: the development CA is kept in a directory")}
		}
		*devCADir = filepath.Join(*dataDir, "dev-ca")
	}
	if *db != "" && !strings.HasPrefix(*db, "postgres://") && !strings.HasPrefix(*db, "postgresql://") {
		return usageError{errors.New("--db must be a postgres:// URL")}
	}
	if *meshListen != "" && *db == "" {
		return usageError{errors.New("--mesh-listen needs --db: the instances share their tunnel directory there")}
	}
	if (*certFile == "") != (*keyFile == "") {
		return usageError{errors.New("--tls-cert and --tls-key go together")}
	}
	if *useACME && (*certFile != "" || *dev) {
		return usageError{errors.New("--acme obtains the relay's certificate: not with --tls-cert or --dev")}
	}
	for _, f := range []string{"acme-directory", "acme-email", "acme-ca"} {
		if given[f] && !*useACME {
			return usageError{fmt.Errorf("--%s goes with --acme", f)}
		}
	}
	var acmeHTTP *http.Client
	if *acmeCA != "" {
		pem, err := os.ReadFile(*acmeCA)
		if err != nil {
			return fmt.Errorf("acme CA: %w", err)
		}
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return fmt.Errorf("acme CA: no certificate in %s", *acmeCA)
		}
		acmeHTTP = &http.Client{Timeout: time.Minute, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}}}
	}
	if *smtpServer != "" {
		// Checked before the store opens: a refused flag changes nothing.
		probe := relayserver.SMTPMailer{Addr: *smtpServer, Security: *smtpSecurity, AllowInsecure: *allowInsecure}
		if err := probe.Validate(); err != nil {
			return usageError{err}
		}
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	var store relaystore.Store
	var err error
	if *db != "" {
		var pg *relaystore.Postgres
		if pg, err = relaystore.OpenPostgres(ctx, *db); err == nil {
			pg.SetLogger(log)
			store = pg
		}
	} else {
		var sq *relaystore.SQLite
		if sq, err = relaystore.OpenSQLite(ctx, *dataDir); err == nil {
			sq.SayUnfit(log)
			store = sq
		}
	}
	if err != nil {
		return err
	}
	defer store.Close()
	cfg := relayserver.Config{Zone: *zone, APIName: *apiName, PublicIPs: ips, TunnelAddr: *tunnelAddr, Store: store, Limits: lim,
		OtherTunnelAddrs: otherTunnels}
	var meshLn net.Listener
	if *meshListen != "" {
		if meshLn, err = net.Listen("tcp", *meshListen); err != nil {
			return fmt.Errorf("mesh listen: %w", err)
		}
		defer meshLn.Close()
		addr := *meshAddr
		if addr == "" {
			addr = meshLn.Addr().String()
		}
		cfg.Mesh = &relayserver.MeshConfig{ID: *instanceID, Addr: addr}
	}
	var devCA string // the development CA's file, for the lines telling how to trust it
	var certs *relayacme.Manager
	if *useACME {
		// The lease names the instance, --instance-id or at random.
		if certs, err = relayacme.New(relayacme.Config{Zone: *zone, APIName: *apiName, DirectoryURL: *acmeDir, Email: *acmeEmail,
			HTTP: acmeHTTP, Store: store, Holder: *instanceID}, log); err != nil {
			return usageError{err}
		}
		if *dnsListen == "" {
			log.Warn("--acme without --dns-listen: the CA asks the zone's DNS for the challenge, which another instance on this database must answer")
		}
		cfg.Certificate = certs.GetCertificate
	} else if *certFile != "" {
		cert, err := tls.LoadX509KeyPair(*certFile, *keyFile)
		if err != nil {
			return fmt.Errorf("load certificate: %w", err)
		}
		cfg.Certificate = func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return &cert, nil }
	} else if *dev {
		ca, created, err := relaylocal.OpenCA(*devCADir)
		if err != nil {
			return err
		}
		if devCA, err = filepath.Abs(filepath.Join(*devCADir, relaylocal.CAFile)); err != nil {
			return fmt.Errorf("development CA: %w", err)
		}
		if created {
			log.Info("Created the development CA", "file", devCA)
		}
		z := strings.TrimSuffix(strings.ToLower(*zone), ".")
		names := []string{z, "*.agents." + z}
		if n := strings.ToLower(*apiName); n != "" && n != z {
			names = append([]string{n}, names...)
		}
		cert, err := ca.Issue(names...)
		if err != nil {
			return err
		}
		cfg.Certificate = func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return cert, nil }
	} else {
		log.Warn("No certificate (--tls-cert): the agent API is on --http-listen only, and nodes cannot open tunnels")
	}
	if *smtpServer != "" {
		m := &relayserver.SMTPMailer{Addr: *smtpServer, Security: *smtpSecurity, Username: *smtpUser, Sender: *smtpFrom,
			AllowInsecure: *allowInsecure}
		if m.Sender == "" {
			m.Sender = "relay@" + strings.TrimSuffix(*zone, ".")
		}
		if !*dev && senderInZone(m.Sender, *zone) {
			log.Warn("The code mail's sender is inside the relay's own zone, whose DNS publishes no SPF, DKIM or DMARC: "+
				"many providers reject that mail or file it as spam; give --smtp-from an address in a domain outside the zone "+
				"that publishes them (docs/relay.md \"Mail the relay sends\")", "smtpFrom", m.Sender, "defaulted", *smtpFrom == "")
		}
		if *smtpCA != "" {
			pem, err := os.ReadFile(*smtpCA)
			if err != nil {
				return fmt.Errorf("smtp CA: %w", err)
			}
			roots := x509.NewCertPool()
			if !roots.AppendCertsFromPEM(pem) {
				return fmt.Errorf("smtp CA: no certificate in %s", *smtpCA)
			}
			host, _, _ := net.SplitHostPort(*smtpServer)
			m.TLS = &tls.Config{RootCAs: roots, ServerName: host, MinVersion: tls.VersionTLS12}
		}
		if *smtpPassFile != "" {
			b, err := os.ReadFile(*smtpPassFile)
			if err != nil {
				return fmt.Errorf("smtp password: %w", err)
			}
			m.Password = strings.TrimSpace(string(b))
		}
		cfg.Mailer = m
	} else {
		log.Warn("No submission server (--smtp-server): registrations are refused")
	}
	srv, err := relayserver.New(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer srv.Close()

	var l relayserver.Listeners
	ok := false
	defer func() {
		if !ok {
			l.Close()
		}
	}()
	l.Mesh = meshLn
	if l.TLS, err = net.Listen("tcp", *listen); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	announce(ready, log, "tls", l.TLS.Addr().String())
	if *httpListen != "" {
		if l.HTTP, err = net.Listen("tcp", *httpListen); err != nil {
			return fmt.Errorf("http listen: %w", err)
		}
		announce(ready, log, "http", l.HTTP.Addr().String())
	}
	if *dnsListen != "" {
		if l.DNSPacket, l.DNSStream, err = relayserver.ListenDNS(*dnsListen); err != nil {
			return err
		}
		announce(ready, log, "dns", l.DNSPacket.LocalAddr().String())
	}
	if meshLn != nil {
		announce(ready, log, "mesh", meshLn.Addr().String())
	}
	if *dev {
		name := *apiName
		if name == "" {
			name = *zone
		}
		log.Warn("This is a development relay: for this machine only, with a CA of its own", "caDir", *devCADir)
		printDevHelp(stderr, strings.TrimSuffix(strings.ToLower(name), "."), l, devCA)
	}
	ok = true
	if certs == nil {
		return srv.Run(ctx, l)
	}
	// The certificate is ordered while the relay serves: its DNS must
	// answer the CA. A failed order never stops the relay.
	cctx, cancel := context.WithCancel(ctx)
	acmeDone := make(chan struct{})
	go func() { defer close(acmeDone); certs.Run(cctx) }()
	err = srv.Run(ctx, l)
	cancel()
	<-acmeDone
	return err
}

// printDevHelp tells how to reach a development relay: the flags of
// `mailnode serve` and of `mailnode-agent` that trust its CA, look its
// names up in its DNS and dial its port where the protocol says 443, and
// of `mailnode-phone`, which reaches a node by its name here and trusts
// the node's own CA, not the relay's.
func printDevHelp(w io.Writer, name string, l relayserver.Listeners, caFile string) {
	_, port, _ := net.SplitHostPort(l.TLS.Addr().String())
	var node, agents, phones, dns, ca string
	if caFile != "" {
		node += " --dev-relay-ca " + caFile
		agents += " --ca " + caFile
		ca = ", CA " + caFile
	}
	if l.DNSPacket != nil {
		a := l.DNSPacket.LocalAddr().String()
		node += " --dev-relay-dns " + a
		agents += " --dev-dns " + a
		phones += " --dev-dns " + a
		dns = " (DNS " + a + ")"
	}
	node += " --dev-relay-port " + port
	agents += " --dev-port " + port
	phones += " --dev-port " + port
	fmt.Fprintf(w, "Development relay %s on %s%s%s\n", name, l.TLS.Addr(), dns, ca)
	fmt.Fprintf(w, "Node (mailnode serve):   --relay https://%s%s\n", name, node)
	fmt.Fprintf(w, "Agents (mailnode-agent):%s\n", agents)
	fmt.Fprintf(w, "Phones (mailnode-phone): --ca NODE_DATA_DIR/ca/ca.pem%s\n", phones)
}

// isLoopback reports whether addr (host:port) listens on loopback only.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func announce(ready listening, log *slog.Logger, name, addr string) {
	log.Info("Listening", "service", name, "addr", addr)
	if ready != nil {
		ready(name, addr)
	}
}

// senderInZone reports whether the address sender is in zone or under it.
// The relay answers its zone's DNS itself, with addresses only (and ACME
// challenges): no SPF or DMARC record, no DKIM key, no MX. Code mail from
// such an address fails SPF and DMARC at the providers that check them,
// and those are where the codes must arrive.
func senderInZone(sender, zone string) bool {
	at := strings.LastIndexByte(sender, '@')
	domain := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(sender[at+1:])), ">")
	domain = strings.TrimSuffix(domain, ".")
	zone = strings.TrimSuffix(strings.ToLower(zone), ".")
	return zone != "" && (domain == zone || strings.HasSuffix(domain, "."+zone))
}
