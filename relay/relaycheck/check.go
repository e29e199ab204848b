package relaycheck

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/miekg/dns"
)

// DefaultACMEDirectory is Let's Encrypt's, which nodes use unless told
// otherwise (docs/relay.md "Certificates").
const DefaultACMEDirectory = "https://acme-v02.api.letsencrypt.org/directory"

// Dialer opens connections; *net.Dialer is one.
type Dialer interface {
	DialContext(ctx context.Context, network, addr string) (net.Conn, error)
}

// Config is the deployment to check: the values of the relay's serve
// flags, and where to ask. Zero values mean the defaults given.
type Config struct {
	// Zone is the relay's zone (--zone, required).
	Zone string
	// APIName is the relay's own name (--api-name); default Zone.
	APIName string
	// PublicIPs are the relay's public addresses (--public-ip): the
	// addresses the parent's glue must name and that must answer the zone.
	PublicIPs []net.IP
	// Listen is the relay's TLS port (--listen); default ":443". An
	// address without a host is checked on loopback.
	Listen string
	// DNSListen is where the relay answers its zone (--dns-listen); empty
	// fails the DNS checks, as a relay without it answers nothing.
	DNSListen string
	// SMTP is the submission server; nil fails the check, as the relay
	// then refuses every registration.
	SMTP *SMTP
	// ACMEDirectory is the CA nodes use; default DefaultACMEDirectory.
	ACMEDirectory string
	// Resolver is a recursive DNS resolver, host:port, that the checks
	// start from to find the parent zone's servers; default the first
	// nameserver of /etc/resolv.conf.
	Resolver string
	// Roots verify the relay's certificate and the ACME server's; nil
	// means the system's.
	Roots *x509.CertPool
	// Dialer opens every connection; default a net.Dialer.
	Dialer Dialer
	// Timeout bounds each exchange; default 5 s.
	Timeout time.Duration
}

// SMTP is the submission server the relay mails codes through.
type SMTP struct {
	Addr     string // host:port (--smtp-server)
	Security string // starttls (default), tls or plain (--smtp-security)
	Username string // empty: no AUTH (--smtp-user)
	Password string
	// Roots verify the server's certificate (--smtp-ca); nil means the
	// system's.
	Roots *x509.CertPool
}

// Result is one check's outcome.
type Result struct {
	Name   string // what was checked, e.g. "delegation"
	OK     bool
	Detail string // what was found, in plain words
	Hint   string // on failure: what to change
}

func (r Result) String() string {
	status := "ok  "
	if !r.OK {
		status = "FAIL"
	}
	s := fmt.Sprintf("%s  %s: %s", status, r.Name, r.Detail)
	if !r.OK && r.Hint != "" {
		s += "\n      hint: " + r.Hint
	}
	return s
}

func pass(name, format string, a ...any) Result {
	return Result{Name: name, OK: true, Detail: printable(fmt.Sprintf(format, a...))}
}

func fail(name, hint, format string, a ...any) Result {
	return Result{Name: name, Detail: printable(fmt.Sprintf(format, a...)), Hint: hint}
}

// maxDetail bounds what one line says: a server's reply can be long.
const maxDetail = 600

// printable makes a detail safe for the operator's terminal: what a
// server answered (an SMTP reply, a status text, an error) reaches it
// here, and its escape sequences could clear the screen or print a fake
// "ok" line over a FAIL. Control characters and invalid UTF-8 are shown
// escaped; a long detail is cut.
func printable(s string) string {
	var b strings.Builder
	for i, r := range s {
		if b.Len() >= maxDetail {
			b.WriteString("...")
			break
		}
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r):
			fmt.Fprintf(&b, "%+q", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checker holds a Config with its defaults filled in.
type checker struct {
	Config
	zone string // lower case, no final dot
}

// Run runs every check and returns their results in order; it stops early
// only when ctx ends. A failed check does not stop the others: a deployer
// sees everything that is wrong at once.
func Run(ctx context.Context, cfg Config) []Result {
	c := &checker{Config: cfg, zone: strings.TrimSuffix(strings.ToLower(cfg.Zone), ".")}
	if c.APIName == "" {
		c.APIName = c.zone
	}
	c.APIName = strings.TrimSuffix(strings.ToLower(c.APIName), ".")
	if c.Listen == "" {
		c.Listen = ":443"
	}
	if c.ACMEDirectory == "" {
		c.ACMEDirectory = DefaultACMEDirectory
	}
	if c.Timeout == 0 {
		c.Timeout = 5 * time.Second
	}
	if c.Dialer == nil {
		c.Dialer = &net.Dialer{Timeout: c.Timeout}
	}
	var results []Result
	for _, check := range []func(context.Context) []Result{
		c.delegation,
		c.publicDNS,
		c.localDNS,
		c.tlsPort,
		c.acme,
		c.smtp,
	} {
		if ctx.Err() != nil {
			break
		}
		results = append(results, check(ctx)...)
	}
	return results
}

// local turns a listen address into one to connect to: no host, or an
// unspecified one, is loopback.
func local(listen string) (string, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("%q is not host:port", listen)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return net.JoinHostPort(host, port), nil
}

// exchange sends m to addr over network ("udp" or "tcp") through the
// dialer; a truncated UDP answer is asked again over TCP.
func (c *checker) exchange(ctx context.Context, network, addr string, m *dns.Msg) (*dns.Msg, error) {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	conn, err := c.Dialer.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	client := &dns.Client{Net: network, Timeout: c.Timeout}
	r, _, err := client.ExchangeWithConnContext(ctx, m, &dns.Conn{Conn: conn})
	if err != nil {
		return nil, err
	}
	if r.Truncated && network == "udp" {
		return c.exchange(ctx, "tcp", addr, m)
	}
	return r, nil
}

func query(name string, qtype uint16, recursive bool) *dns.Msg {
	m := new(dns.Msg)
	m.SetQuestion(dns.Fqdn(name), qtype)
	m.RecursionDesired = recursive
	m.SetEdns0(1232, false)
	return m
}

// plainErr says a network error without Go's operation prefixes where it
// can: "connection refused", "i/o timeout".
func plainErr(err error) string {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		s := oe.Err.Error()
		if i := strings.LastIndex(s, ": "); i >= 0 {
			s = s[i+2:]
		}
		return s
	}
	return err.Error()
}
