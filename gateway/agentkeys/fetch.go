// Package agentkeys fetches and caches agents' key documents from
// https://<agent-domain>/.well-known/svc-agent.
//
// The domain comes from a request signature, so the fetch is an SSRF risk:
// anyone can make the node connect to a name of their choosing. Names are
// therefore resolved here and every address is checked before dialing
// (no loopback, private, link-local, CGNAT, unique-local, multicast or
// unspecified addresses, which also covers cloud metadata endpoints), the
// port is 443, TLS is verified, redirects are not followed, no proxy is
// used, and time and size are capped. Development overrides exist only as
// explicit Config fields, and the node logs loudly when they are set.
package agentkeys

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Path is where an agent publishes its key document.
const Path = "/.well-known/svc-agent"

// Config tunes the fetcher; the zero value is the production setting.
type Config struct {
	// Timeout bounds one fetch, from resolving to the last byte. Default 5s.
	Timeout time.Duration
	// MaxBytes caps the document. Default 64 KiB.
	MaxBytes int64
	// TTL is how long a fetched document is used without refetching.
	// Default 1h.
	TTL time.Duration
	// MaxDomains bounds the cache. Default 4096.
	MaxDomains int
	// UnknownKidInterval is the least time between two refetches caused by
	// a kid the cached document lacks. Default 1m.
	UnknownKidInterval time.Duration

	// LookupAddrs resolves a name. Default: the system resolver.
	LookupAddrs func(ctx context.Context, host string) ([]netip.Addr, error)

	// DevAddrs maps agent domains to fixed host:port addresses, which are
	// dialed without the address checks. Development and tests only.
	DevAddrs map[string]string
	// DevRootCAs are trusted besides the system roots. Development and
	// tests only.
	DevRootCAs []*x509.Certificate
}

// Fetcher resolves agent keys. It implements httpsig.KeyResolver.
type Fetcher struct {
	cfg    Config
	log    *slog.Logger
	client *http.Client
	group  singleflight.Group
	now    func() time.Time

	mu    sync.Mutex // guards cache
	cache map[string]*entry
}

type entry struct {
	keys        map[string]ed25519.PublicKey
	fetched     time.Time
	lastAttempt time.Time
}

// Errors a caller may branch on.
var (
	ErrUnknownKey = errors.New("agent key not found")
	ErrForbidden  = errors.New("agent domain resolves to an address the node does not connect to")
)

// New returns a Fetcher. It does no I/O.
func New(cfg Config, logger *slog.Logger) *Fetcher {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = 64 << 10
	}
	if cfg.TTL <= 0 {
		cfg.TTL = time.Hour
	}
	if cfg.MaxDomains <= 0 {
		cfg.MaxDomains = 4096
	}
	if cfg.UnknownKidInterval <= 0 {
		cfg.UnknownKidInterval = time.Minute
	}
	if cfg.LookupAddrs == nil {
		cfg.LookupAddrs = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	f := &Fetcher{cfg: cfg, log: logger.With("component", "agentkeys"), now: time.Now, cache: map[string]*entry{}}
	if len(cfg.DevAddrs) > 0 || len(cfg.DevRootCAs) > 0 {
		f.log.Warn("DEVELOPMENT OVERRIDES ON: agent key documents may come from local addresses or untrusted CAs",
			"devAddrs", len(cfg.DevAddrs), "devRootCAs", len(cfg.DevRootCAs))
	}
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if len(cfg.DevRootCAs) > 0 {
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		for _, c := range cfg.DevRootCAs {
			pool.AddCert(c)
		}
		tlsConf.RootCAs = pool
	}
	f.client = &http.Client{
		Transport: &http.Transport{
			Proxy:                 nil, // never through a proxy from the environment
			DialContext:           f.dial,
			TLSClientConfig:       tlsConf,
			TLSHandshakeTimeout:   cfg.Timeout,
			ResponseHeaderTimeout: cfg.Timeout,
			MaxIdleConns:          16,
			IdleConnTimeout:       30 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       cfg.Timeout,
	}
	return f
}

// dial connects to the agent's host on port 443, at an address that
// passed allowed, or at the development address mapped for it.
func (f *Fetcher) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	d := &net.Dialer{Timeout: f.cfg.Timeout}
	if dev, ok := f.cfg.DevAddrs[strings.ToLower(host)]; ok {
		return d.DialContext(ctx, "tcp", dev)
	}
	if port != "443" {
		return nil, fmt.Errorf("agent key documents are fetched on port 443 only")
	}
	addrs, err := f.cfg.LookupAddrs(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", host, err)
	}
	var lastErr error = ErrForbidden
	for _, a := range addrs {
		if !allowed(a) {
			continue
		}
		// Dial the checked address itself: a second lookup could answer
		// differently (DNS rebinding).
		c, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(a.Unmap(), 443).String())
		if err == nil {
			return c, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// Address ranges the node never connects to for an agent.
var forbiddenPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // CGNAT (RFC 6598)
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("169.254.0.0/16"), // link-local, cloud metadata
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("198.18.0.0/15"), // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"), // NAT64 can reach any IPv4 address
	netip.MustParsePrefix("fc00::/7"),     // unique local
	netip.MustParsePrefix("fe80::/10"),    // link-local
}

// allowed reports whether a is a public unicast address.
func allowed(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsMulticast() || a.IsUnspecified() || a.IsInterfaceLocalMulticast() || !a.IsGlobalUnicast() {
		return false
	}
	for _, p := range forbiddenPrefixes {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// PublicKey returns the key kid of the agent domain, fetching the domain's
// key document when it is not cached, is stale, or (at most once per
// UnknownKidInterval) lacks kid.
func (f *Fetcher) PublicKey(ctx context.Context, domain, kid string) (ed25519.PublicKey, error) {
	domain = strings.ToLower(domain)
	if err := checkDomain(domain); err != nil {
		return nil, err
	}
	now := f.now()
	f.mu.Lock()
	e := f.cache[domain]
	var key ed25519.PublicKey
	fresh, mayRefetch := false, true
	if e != nil {
		key = e.keys[kid]
		fresh = now.Sub(e.fetched) < f.cfg.TTL
		mayRefetch = now.Sub(e.lastAttempt) >= f.cfg.UnknownKidInterval
	}
	f.mu.Unlock()
	if key != nil && fresh {
		return key, nil
	}
	if e != nil && !mayRefetch {
		if key != nil {
			return key, nil
		}
		return nil, ErrUnknownKey
	}
	// One fetch per domain at a time; concurrent callers share it.
	v, err, _ := f.group.Do(domain, func() (any, error) { return f.refresh(ctx, domain) })
	if err != nil {
		if key != nil {
			// Keep serving the key we had: a failing agent host must not
			// lock out a known agent, and a briefly broken one recovers.
			f.log.Warn("Refetching agent key document failed; using the cached one", "agentDomain", domain, "err", err)
			return key, nil
		}
		return nil, err
	}
	if k := v.(map[string]ed25519.PublicKey)[kid]; k != nil {
		return k, nil
	}
	return nil, ErrUnknownKey
}

func (f *Fetcher) refresh(ctx context.Context, domain string) (map[string]ed25519.PublicKey, error) {
	f.mu.Lock()
	if e := f.cache[domain]; e != nil {
		e.lastAttempt = f.now()
	}
	f.mu.Unlock()
	keys, err := f.fetch(ctx, domain)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.cache[domain]; !ok && len(f.cache) >= f.cfg.MaxDomains {
		f.evictOldestLocked()
	}
	now := f.now()
	f.cache[domain] = &entry{keys: keys, fetched: now, lastAttempt: now}
	return keys, nil
}

func (f *Fetcher) evictOldestLocked() {
	var oldest string
	var at time.Time
	for d, e := range f.cache {
		if oldest == "" || e.fetched.Before(at) {
			oldest, at = d, e.fetched
		}
	}
	delete(f.cache, oldest)
}

// document is the agent key document of the protocol spec.
type document struct {
	Domain string `json:"domain"`
	Keys   []struct {
		Kid string `json:"kid"`
		Kty string `json:"kty"`
		Crv string `json:"crv"`
		X   string `json:"x"`
	} `json:"keys"`
}

func (f *Fetcher) fetch(ctx context.Context, domain string) (map[string]ed25519.PublicKey, error) {
	ctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", "https://"+domain+Path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch key document of %s: %w", domain, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch key document of %s: status %d (redirects are not followed)", domain, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.cfg.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read key document of %s: %w", domain, err)
	}
	if int64(len(body)) > f.cfg.MaxBytes {
		return nil, fmt.Errorf("key document of %s is larger than %d bytes", domain, f.cfg.MaxBytes)
	}
	return parseDocument(domain, body)
}

func parseDocument(domain string, body []byte) (map[string]ed25519.PublicKey, error) {
	var doc document
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("key document of %s: %w", domain, err)
	}
	if !strings.EqualFold(doc.Domain, domain) {
		return nil, fmt.Errorf("key document of %s names domain %q", domain, doc.Domain)
	}
	keys := map[string]ed25519.PublicKey{}
	for _, k := range doc.Keys {
		x, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.X, "="))
		if k.Kid == "" || k.Kty != "OKP" || k.Crv != "Ed25519" || err != nil || len(x) != ed25519.PublicKeySize {
			continue // a key the node cannot use is skipped, not fatal
		}
		keys[k.Kid] = ed25519.PublicKey(x)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("key document of %s has no usable Ed25519 key", domain)
	}
	return keys, nil
}

// checkDomain accepts DNS names with a dot, never IP literals.
func checkDomain(d string) error {
	if len(d) > 253 || !strings.Contains(d, ".") || strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") {
		return fmt.Errorf("agent domain %q is not a dotted DNS name", d)
	}
	if _, err := netip.ParseAddr(strings.Trim(d, "[]")); err == nil {
		return fmt.Errorf("agent domain %q is an IP address", d)
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || len(label) > 63 {
			return fmt.Errorf("agent domain %q is not a DNS name", d)
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return fmt.Errorf("agent domain %q is not a DNS name", d)
			}
		}
	}
	return nil
}
