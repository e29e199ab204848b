package autoconfig

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"
)

// ErrNotFound means no source knew the address's servers: the person types
// them in.
var ErrNotFound = errors.New("no settings found for this address")

// Resolver is the part of *net.Resolver the MX and SRV steps use.
type Resolver interface {
	LookupMX(ctx context.Context, name string) ([]*net.MX, error)
	LookupSRV(ctx context.Context, service, proto, name string) (string, []*net.SRV, error)
}

// Config says how a Finder reaches the network. The zero value uses the
// system's resolver and HTTPS.
type Config struct {
	// Client fetches providers' documents. Default: 10 s time-out, at most
	// 3 redirects, HTTPS only.
	Client *http.Client
	// Resolver looks up MX and SRV records. Default net.DefaultResolver.
	Resolver Resolver
	// Probe checks that a guessed server answers. Default: a verified TLS
	// handshake for tls, a TCP connection for starttls, 5 s each.
	Probe func(ctx context.Context, s Server) error
	// Logger is told which sources failed and why. Default: discard.
	Logger *slog.Logger
}

// Finder discovers settings. It is safe for concurrent use.
type Finder struct {
	cfg Config
	db  ispdb
}

// New returns a Finder; it does no I/O.
func New(cfg Config) *Finder {
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 10 * time.Second, CheckRedirect: httpsOnly}
	}
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	if cfg.Probe == nil {
		cfg.Probe = probe
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Finder{cfg: cfg}
}

func httpsOnly(req *http.Request, via []*http.Request) error {
	if len(via) >= 3 {
		return errors.New("too many redirects")
	}
	if req.URL.Scheme != "https" {
		return errors.New("redirect away from HTTPS")
	}
	return nil
}

// Discover finds the IMAP and SMTP settings of address, asking the sources
// in the order the package documentation gives.
func (f *Finder) Discover(ctx context.Context, address string) (Settings, error) {
	a, err := mail.ParseAddress(address)
	if err != nil || a.Name != "" || strings.Count(a.Address, "@") != 1 {
		return Settings{}, fmt.Errorf("%q is not an e-mail address", address)
	}
	address = a.Address
	_, domain, _ := strings.Cut(address, "@")
	domain = strings.ToLower(domain)
	if _, ok := hostName(domain, address); !ok {
		return Settings{}, fmt.Errorf("%q is not a mail domain", domain)
	}
	log := f.cfg.Logger.With("domain", domain)

	if s, ok := f.fromProvider(ctx, domain, address, log); ok {
		return withNote(s), nil
	}
	if s, ok, err := f.db.lookup(domain, address); ok && err == nil {
		s.Source = "ISP database"
		return withNote(s), nil
	} else if err != nil {
		log.Warn("ISP database entry unusable", "err", err)
	}
	if s, ok := f.fromMX(ctx, domain, address, log); ok {
		return withNote(s), nil
	}
	if s, ok := f.fromSRV(ctx, domain, address, log); ok {
		return withNote(s), nil
	}
	if s, ok := f.guess(ctx, domain, address); ok {
		return withNote(s), nil
	}
	if err := ctx.Err(); err != nil {
		return Settings{}, err
	}
	return Settings{}, ErrNotFound
}

// fromProvider fetches the domain's own documents, both at once; the
// autoconfig host wins when both answer.
func (f *Finder) fromProvider(ctx context.Context, domain, address string, log *slog.Logger) (Settings, bool) {
	q := "?emailaddress=" + url.QueryEscape(address)
	urls := []struct{ source, url string }{
		{"autoconfig." + domain, "https://autoconfig." + domain + "/mail/config-v1.1.xml" + q},
		{domain + "/.well-known", "https://" + domain + "/.well-known/autoconfig/mail/config-v1.1.xml" + q},
	}
	type result struct {
		s   Settings
		err error
	}
	results := make([]chan result, len(urls))
	for i, u := range urls {
		results[i] = make(chan result, 1)
		go func() {
			s, err := f.fetch(ctx, u.url, address)
			s.Source = u.source
			results[i] <- result{s, err}
		}()
	}
	var found *Settings
	for i := range urls {
		r := <-results[i]
		if r.err != nil {
			log.Debug("Autoconfig document not used", "source", urls[i].source, "err", r.err)
			continue
		}
		if found == nil {
			found = &r.s
		}
	}
	if found == nil {
		return Settings{}, false
	}
	return *found, true
}

func (f *Finder) fetch(ctx context.Context, u, address string) (Settings, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return Settings{}, err
	}
	resp, err := f.cfg.Client.Do(req)
	if err != nil {
		return Settings{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Settings{}, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	doc, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return Settings{}, err
	}
	s, _, err := parseDocument(doc, address)
	return s, err
}

// fromMX looks the domain of the address's first mail exchanger up in the
// ISP database: a company's own domain whose mail Google handles has MX
// hosts under google.com.
func (f *Finder) fromMX(ctx context.Context, domain, address string, log *slog.Logger) (Settings, bool) {
	mxs, err := f.cfg.Resolver.LookupMX(ctx, domain)
	if err != nil || len(mxs) == 0 {
		log.Debug("No MX records", "err", err)
		return Settings{}, false
	}
	host := strings.TrimSuffix(strings.ToLower(mxs[0].Host), ".")
	mxDomain, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil || mxDomain == domain {
		return Settings{}, false
	}
	s, ok, err := f.db.lookup(mxDomain, address)
	if !ok || err != nil {
		return Settings{}, false
	}
	s.Source = "ISP database (mail handled by " + mxDomain + ")"
	return s, true
}

// fromSRV reads RFC 6186 records, with RFC 8314's _submissions for SMTP
// over TLS. A target of "." says the service is not offered.
func (f *Finder) fromSRV(ctx context.Context, domain, address string, log *slog.Logger) (Settings, bool) {
	pick := func(choices []struct{ service, security string }) (Server, bool) {
		for _, c := range choices {
			_, recs, err := f.cfg.Resolver.LookupSRV(ctx, c.service, "tcp", domain)
			if err != nil {
				log.Debug("No SRV record", "service", c.service, "err", err)
				continue
			}
			for _, r := range recs {
				host, ok := hostName(r.Target, address)
				if !ok || r.Port == 0 {
					continue
				}
				return Server{Host: host, Port: int(r.Port), Security: c.security, Username: address}, true
			}
		}
		return Server{}, false
	}
	imap, ok := pick([]struct{ service, security string }{{"imaps", "tls"}, {"imap", "starttls"}})
	if !ok {
		return Settings{}, false
	}
	smtp, ok := pick([]struct{ service, security string }{{"submissions", "tls"}, {"submission", "starttls"}})
	if !ok {
		return Settings{}, false
	}
	return Settings{Provider: domain, IMAP: imap, SMTP: smtp, Source: "SRV records"}, true
}

// guess tries the host names most providers use, keeping the first that
// answers for each protocol.
func (f *Finder) guess(ctx context.Context, domain, address string) (Settings, bool) {
	try := func(cands []Server) (Server, bool) {
		for _, c := range cands {
			c.Username = address
			if err := f.cfg.Probe(ctx, c); err == nil {
				return c, true
			}
			if ctx.Err() != nil {
				return Server{}, false
			}
		}
		return Server{}, false
	}
	imap, ok := try([]Server{
		{Host: "imap." + domain, Port: 993, Security: "tls"},
		{Host: "mail." + domain, Port: 993, Security: "tls"},
		{Host: "imap." + domain, Port: 143, Security: "starttls"},
	})
	if !ok {
		return Settings{}, false
	}
	smtp, ok := try([]Server{
		{Host: "smtp." + domain, Port: 465, Security: "tls"},
		{Host: "smtp." + domain, Port: 587, Security: "starttls"},
		{Host: "mail." + domain, Port: 465, Security: "tls"},
		{Host: "mail." + domain, Port: 587, Security: "starttls"},
	})
	if !ok {
		return Settings{}, false
	}
	return Settings{Provider: domain, IMAP: imap, SMTP: smtp, Source: "guessed host names"}, true
}

func probe(ctx context.Context, s Server) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if s.Security == "tls" {
		d := tls.Dialer{Config: &tls.Config{ServerName: s.Host, MinVersion: tls.VersionTLS12}}
		c, err := d.DialContext(ctx, "tcp", s.Addr())
		if err != nil {
			return err
		}
		return c.Close()
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", s.Addr())
	if err != nil {
		return err
	}
	return c.Close()
}

// withNote adds what a person must know before typing a password.
func withNote(s Settings) Settings {
	switch {
	case strings.HasSuffix(s.IMAP.Host, ".gmail.com") || strings.HasSuffix(s.IMAP.Host, ".googlemail.com"):
		s.Note = "Google accounts need an app password today: turn on 2-Step Verification, create an " +
			"app password at myaccount.google.com/apppasswords and type it here instead of your usual password."
	case strings.HasSuffix(s.IMAP.Host, ".office365.com") || strings.HasSuffix(s.IMAP.Host, ".outlook.com"):
		s.Note = "Outlook and Microsoft 365 accounts need an app password today (account.microsoft.com, " +
			"Security, App passwords); mailnode cannot sign in with your usual password there."
	case s.IMAP.OAuthOnly || s.SMTP.OAuthOnly:
		s.Note = s.Provider + " offers only its own sign-in (OAuth) to mail programs; you need an app " +
			"password from its account settings."
	}
	return s
}
