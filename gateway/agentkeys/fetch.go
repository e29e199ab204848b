// Package agentkeys fetches and caches agents' key documents from
// https://<agent-domain>/.well-known/svc-agent.
//
// The domain comes from a request signature, so the fetch is an SSRF risk:
// anyone can make the node connect to a name of their choosing. Names are
// therefore resolved here and every address is checked before dialing
// (every range of the IANA special-purpose registries, multicast, NAT64,
// and 6to4 to any of those: no loopback, private, link-local, CGNAT or
// cloud metadata endpoint), the port is 443, TLS is verified, redirects
// are not followed, no proxy is used, and time and size are capped. A
// failed fetch is remembered for a minute, so a flood of requests naming
// a domain costs one fetch and one log line, and at most MaxFetches
// fetches run at once. Development overrides exist only as
// explicit Config fields, and the node logs loudly when they are set.
package agentkeys

import (
	"context"
	"crypto/ed25519"
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

	"mailnode/internal/publicaddr"
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
	// FailureTTL is how long a failed fetch is remembered for its
	// domain: requests naming it meanwhile are refused without a new
	// fetch, and the failure is logged once. Default 1m.
	FailureTTL time.Duration
	// StaleGrace is how long past TTL a cached document is still used
	// while refetching it fails (but not once the agent's host answers
	// 404 or 410, which revokes it). Default 24h.
	StaleGrace time.Duration
	// MaxFetches caps the fetches in flight at once, for all domains.
	// Default 16.
	MaxFetches int
	// MaxDocumentFetches caps the fetches of Document in flight at once:
	// documents other than key documents (an OAuth client's metadata
	// document and logo), which anyone may name. They have their own
	// places so that hosts that stall them never hold the places agents'
	// key fetches need, nor the reverse. Default 4.
	MaxDocumentFetches int

	// Keep, if set, names the domains whose documents the node must not
	// lose: those of agents the person granted. They are never evicted
	// for a stranger's new domain (the cache is bounded, and anyone can
	// make the node fetch a new domain by calling it live), and only they
	// are written to File, which stays as small as the person's grants.
	// It is called with the fetcher's lock held and must not call back.
	Keep func(domain string) bool

	// File, if set, keeps the fetched documents across restarts (mode
	// 0600, rewritten when a domain is added, its keys change or its
	// document is withdrawn), so that Held still knows the
	// agents the node dealt with before it was stopped. Load reads it.
	// Empty: memory only.
	File string

	// LookupAddrs resolves a name. Default: the system resolver.
	LookupAddrs func(ctx context.Context, host string) ([]netip.Addr, error)

	// DevAddrs maps agent domains to fixed host:port addresses, which are
	// dialed without the address checks. Development and tests only.
	DevAddrs map[string]string
	// DevRootCAs are trusted besides the system roots. Development and
	// tests only.
	DevRootCAs []*x509.Certificate
	// DevZones are domains (a development relay's agents.<zone>) whose
	// hosts, the zone's own name and every name below it, are dialed with
	// DevDial without the address checks: the relay that hosts those
	// agents' documents is on loopback, and its zone is answered by its
	// own DNS, not the public one. Development and tests only.
	DevZones []string
	DevDial  func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Fetcher resolves agent keys. It implements httpsig.KeyResolver.
type Fetcher struct {
	cfg    Config
	log    *slog.Logger
	client *http.Client
	group  singleflight.Group
	now    func() time.Time

	// fetching holds a token per key document fetch in flight
	// (MaxFetches), documents one per Document fetch (MaxDocumentFetches).
	fetching, documents chan struct{}

	saveMu sync.Mutex // serialises writes of cfg.File

	mu       sync.Mutex // guards the fields below
	cache    map[string]*entry
	failures map[string]failure
	saved    map[string]bool // the domains in the file written last
}

// failure is a remembered failed fetch.
type failure struct {
	err   error
	until time.Time
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
	// ErrRevoked: the agent's host answered 404 or 410 for its key
	// document, so any key cached for it is dropped.
	ErrRevoked = errors.New("agent key document withdrawn (404 or 410)")
	// ErrBusy: MaxFetches fetches (MaxDocumentFetches for Document) were
	// in flight for the whole wait; nothing is wrong with the document.
	ErrBusy = errors.New("too many document fetches in flight")
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
	if cfg.FailureTTL <= 0 {
		cfg.FailureTTL = time.Minute
	}
	if cfg.StaleGrace <= 0 {
		cfg.StaleGrace = 24 * time.Hour
	}
	if cfg.MaxFetches <= 0 {
		cfg.MaxFetches = 16
	}
	if cfg.MaxDocumentFetches <= 0 {
		cfg.MaxDocumentFetches = 4
	}
	if cfg.LookupAddrs == nil {
		cfg.LookupAddrs = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	f := &Fetcher{cfg: cfg, log: logger.With("component", "agentkeys"), now: time.Now,
		cache: map[string]*entry{}, failures: map[string]failure{}, saved: map[string]bool{},
		fetching: make(chan struct{}, cfg.MaxFetches), documents: make(chan struct{}, cfg.MaxDocumentFetches)}
	if len(cfg.DevAddrs) > 0 || len(cfg.DevRootCAs) > 0 || len(cfg.DevZones) > 0 {
		f.log.Warn("DEVELOPMENT OVERRIDES ON: agent key documents may come from local addresses or untrusted CAs",
			"devAddrs", len(cfg.DevAddrs), "devRootCAs", len(cfg.DevRootCAs), "devZones", cfg.DevZones)
	}
	dialer := &publicaddr.Dialer{Timeout: cfg.Timeout, Lookup: cfg.LookupAddrs, DevAddrs: cfg.DevAddrs,
		DevDial: cfg.DevDial, DevHost: func(h string) bool { return inZones(h, cfg.DevZones) }, NoPublic: ErrForbidden}
	f.client = publicaddr.Client(dialer, cfg.DevRootCAs, cfg.Timeout, func(t *http.Transport) {
		t.MaxIdleConns = 16
		t.IdleConnTimeout = 30 * time.Second
	})
	return f
}

// inZones reports whether host is one of zones or below one.
func inZones(host string, zones []string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, z := range zones {
		z = strings.ToLower(strings.TrimSuffix(z, "."))
		if z != "" && (host == z || strings.HasSuffix(host, "."+z)) {
			return true
		}
	}
	return false
}

// allowed reports whether a is a public unicast address (package
// publicaddr, whose rules push endpoints share).
func allowed(a netip.Addr) bool { return publicaddr.Is(a) }

// PublicKey returns the key kid of the agent domain, fetching the domain's
// key document when it is not cached, is stale, or (at most once per
// UnknownKidInterval) lacks kid. A failed fetch is remembered for
// FailureTTL: requests naming the domain meanwhile get the same error
// without a fetch, and the failure is logged once.
func (f *Fetcher) PublicKey(ctx context.Context, domain, kid string) (ed25519.PublicKey, error) {
	domain = strings.ToLower(domain)
	if err := checkDomain(domain); err != nil {
		return nil, err
	}
	now := f.now()
	f.mu.Lock()
	e := f.cache[domain]
	fail, failing := f.failures[domain]
	if failing && !now.Before(fail.until) {
		delete(f.failures, domain)
		failing = false
	}
	var key ed25519.PublicKey
	fresh, usable, mayRefetch := false, false, true
	// A document fetched before the person granted its agent is written
	// to the file on the agent's next call (the retry after approval).
	unsaved := e != nil && f.cfg.File != "" && !f.saved[domain] && f.keptLocked(domain)
	if e != nil {
		key = e.keys[kid]
		age := now.Sub(e.fetched)
		fresh = age < f.cfg.TTL
		usable = age < f.cfg.TTL+f.cfg.StaleGrace
		mayRefetch = now.Sub(e.lastAttempt) >= f.cfg.UnknownKidInterval
	}
	f.mu.Unlock()
	if unsaved {
		f.KeepNow(domain)
	}
	switch {
	case key != nil && fresh:
		return key, nil
	case failing:
		// Within the failure window: the stale key if it may still
		// serve, else the remembered error; no fetch either way.
		if key != nil && usable {
			return key, nil
		}
		return nil, fail.err
	case e != nil && !mayRefetch && fresh:
		return nil, ErrUnknownKey
	}
	// One fetch per domain at a time; concurrent callers share it.
	v, err, _ := f.group.Do(domain, func() (any, error) { return f.refresh(ctx, domain) })
	if err != nil {
		if key != nil && usable && !errors.Is(err, ErrRevoked) {
			// Keep serving the key we had for a while: a failing agent
			// host must not lock out a known agent at once.
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
	keys, err := f.limitedFetch(ctx, domain)
	f.mu.Lock()
	now := f.now()
	if err != nil {
		_, held := f.cache[domain]
		revoked := held && errors.Is(err, ErrRevoked)
		if revoked {
			delete(f.cache, domain)
		}
		if !errors.Is(err, ErrBusy) {
			if len(f.failures) >= f.cfg.MaxDomains {
				f.pruneFailuresLocked(now)
			}
			f.failures[domain] = failure{err: err, until: now.Add(f.cfg.FailureTTL)}
		}
		f.mu.Unlock()
		f.log.Warn("Cannot fetch agent key document", "agentDomain", domain, "err", err, "retryIn", f.cfg.FailureTTL)
		if revoked {
			// Held must not answer for it after a restart either.
			if err := f.save(); err != nil {
				f.log.Warn("Cannot keep agent key documents", "err", err)
			}
		}
		return nil, err
	}
	delete(f.failures, domain)
	old, ok := f.cache[domain]
	if !ok && len(f.cache) >= f.cfg.MaxDomains {
		f.evictOldestLocked()
	}
	f.cache[domain] = &entry{keys: keys, fetched: now, lastAttempt: now}
	f.mu.Unlock()
	// The file is rewritten only when what it holds changes: a kept
	// domain that is new or has other keys, not each hourly refetch of
	// the same ones, nor a stranger's domain.
	f.mu.Lock()
	kept := f.keptLocked(domain)
	f.mu.Unlock()
	if kept && (!ok || !sameKeys(old.keys, keys) || !f.isSaved(domain)) {
		if err := f.save(); err != nil {
			f.log.Warn("Cannot keep agent key documents", "err", err)
		}
	}
	return keys, nil
}

func sameKeys(a, b map[string]ed25519.PublicKey) bool {
	if len(a) != len(b) {
		return false
	}
	for kid, k := range a {
		if !k.Equal(b[kid]) {
			return false
		}
	}
	return true
}

// limitedFetch fetches once a place among MaxFetches is free, waiting at
// most half the fetch timeout for one: a request waits for its key no
// longer than one fetch would take.
func (f *Fetcher) limitedFetch(ctx context.Context, domain string) (map[string]ed25519.PublicKey, error) {
	t := time.NewTimer(f.cfg.Timeout / 2)
	defer t.Stop()
	select {
	case f.fetching <- struct{}{}:
	case <-t.C:
		return nil, ErrBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-f.fetching }()
	return f.fetch(ctx, domain)
}

// pruneFailuresLocked forgets failures whose window has passed, or all of
// them if none has. f.mu is held.
func (f *Fetcher) pruneFailuresLocked(now time.Time) {
	for d, fl := range f.failures {
		if !now.Before(fl.until) {
			delete(f.failures, d)
		}
	}
	if len(f.failures) >= f.cfg.MaxDomains {
		clear(f.failures)
	}
}

// evictOldestLocked drops the oldest fetched document of a domain not
// kept (Config.Keep), or the oldest of all if every one is kept.
func (f *Fetcher) evictOldestLocked() {
	var oldest, oldestKept string
	var at, atKept time.Time
	for d, e := range f.cache {
		if f.keptLocked(d) {
			if oldestKept == "" || e.fetched.Before(atKept) {
				oldestKept, atKept = d, e.fetched
			}
			continue
		}
		if oldest == "" || e.fetched.Before(at) {
			oldest, at = d, e.fetched
		}
	}
	if oldest == "" {
		oldest = oldestKept
	}
	delete(f.cache, oldest)
}

// keptLocked reports whether domain's document is one to keep: every one
// when Config.Keep is not set.
func (f *Fetcher) keptLocked(domain string) bool {
	return f.cfg.Keep == nil || f.cfg.Keep(domain)
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
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound, http.StatusGone:
		return nil, fmt.Errorf("fetch key document of %s: status %d: %w", domain, resp.StatusCode, ErrRevoked)
	default:
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
