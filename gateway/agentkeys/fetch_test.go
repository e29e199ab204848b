package agentkeys

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestAllowed(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"8.8.8.8", true},
		{"2001:4860:4860::8888", true},
		{"127.0.0.1", false},
		{"10.0.0.1", false},
		{"172.16.5.4", false},
		{"192.168.1.1", false},
		{"169.254.169.254", false}, // cloud metadata
		{"100.64.0.1", false},      // CGNAT
		{"0.0.0.0", false},
		{"224.0.0.1", false},
		{"255.255.255.255", false},
		{"::1", false},
		{"::", false},
		{"fc00::1", false},
		{"fd12:3456::1", false},
		{"fe80::1", false},
		{"::ffff:127.0.0.1", false}, // IPv4-mapped loopback
		{"::ffff:10.0.0.1", false},
		{"64:ff9b::a00:1", false}, // NAT64 to 10.0.0.1
		// One row per range of the IANA special-purpose registries.
		{"0.1.2.3", false},             // 0.0.0.0/8
		{"127.255.0.1", false},         // 127.0.0.0/8
		{"192.0.0.8", false},           // 192.0.0.0/24
		{"192.0.2.10", false},          // TEST-NET-1
		{"192.31.196.1", false},        // AS112-v4
		{"192.52.193.1", false},        // AMT
		{"192.88.99.1", false},         // 6to4 relay anycast
		{"192.175.48.1", false},        // AS112 direct delegation
		{"198.18.0.1", false},          // benchmarking
		{"198.19.255.254", false},      // benchmarking
		{"198.51.100.7", false},        // TEST-NET-2
		{"203.0.113.9", false},         // TEST-NET-3
		{"239.255.255.250", false},     // multicast
		{"240.0.0.1", false},           // reserved
		{"::a00:1", false},             // ::/96 IPv4-compatible 10.0.0.1
		{"::8.8.8.8", false},           // ::/96 IPv4-compatible, even public
		{"64:ff9b::808:808", false},    // NAT64 to a public address: still refused
		{"64:ff9b:1::a00:1", false},    // local-use NAT64
		{"100::1", false},              // discard-only
		{"100:0:0:1::1", false},        // dummy prefix
		{"2001::1", false},             // Teredo
		{"2001:2::1", false},           // benchmarking
		{"2001:10::1", false},          // ORCHID
		{"2001:20::1", false},          // ORCHIDv2
		{"2001:db8::1", false},         // documentation
		{"2620:4f:8000::1", false},     // AS112-v6
		{"3fff::1", false},             // documentation (RFC 9637)
		{"5f00::1", false},             // SRv6 SIDs
		{"fec0::1", false},             // site-local
		{"ff02::1", false},             // multicast
		{"2002:a00:1::1", false},       // 6to4 embedding 10.0.0.1
		{"2002:7f00:1::1", false},      // 6to4 embedding 127.0.0.1
		{"2002:a9fe:a9fe::1", false},   // 6to4 embedding 169.254.169.254
		{"2002:808:808::1", true},      // 6to4 embedding 8.8.8.8
		{"2606:4700:4700::1111", true}, // public IPv6
		{"1.1.1.1", true},              // public IPv4
		{"::ffff:192.0.2.1", false},    // mapped documentation address
		{"::ffff:100.64.1.1", false},   // mapped CGNAT
		{"2001:4860:4860::8844", true}, // 2001:4860:: is outside 2001::/23
	}
	for _, tt := range tests {
		if got := allowed(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("allowed(%s) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

// agentServer serves a key document over TLS and counts fetches.
type agentServer struct {
	*httptest.Server
	hits    atomic.Int64
	mu      sync.Mutex
	handler http.HandlerFunc
}

func newAgentServer(t *testing.T, domain string, pub ed25519.PublicKey) *agentServer {
	a := &agentServer{}
	doc := fmt.Sprintf(`{"domain":%q,"keys":[{"kid":"k1","kty":"OKP","crv":"Ed25519","x":%q},{"kid":"rsa","kty":"RSA"}]}`,
		domain, base64.RawURLEncoding.EncodeToString(pub))
	a.handler = func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != Path {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(doc))
	}
	a.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.hits.Add(1)
		a.mu.Lock()
		h := a.handler
		a.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(a.Close)
	return a
}

func (a *agentServer) set(h http.HandlerFunc) {
	a.mu.Lock()
	a.handler = h
	a.mu.Unlock()
}

func devFetcher(a *agentServer, domain string) *Fetcher {
	return New(Config{DevAddrs: map[string]string{domain: a.Listener.Addr().String()},
		DevRootCAs: []*x509.Certificate{a.Certificate()}}, nil)
}

func TestFetchAndCache(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	a := newAgentServer(t, "agent.example.com", pub)
	f := devFetcher(a, "agent.example.com")
	clock := time.Unix(1_800_000_000, 0)
	f.now = func() time.Time { return clock }
	ctx := context.Background()

	got, err := f.PublicKey(ctx, "Agent.Example.Com", "k1")
	if err != nil || !got.Equal(pub) {
		t.Fatalf("PublicKey() = %x, %v; want the published key", got, err)
	}
	if _, err := f.PublicKey(ctx, "agent.example.com", "k1"); err != nil || a.hits.Load() != 1 {
		t.Fatalf("second PublicKey() = %v with %d fetches, want the cached key and 1 fetch", err, a.hits.Load())
	}
	// Right after a fetch, an unknown kid is just unknown.
	if _, err := f.PublicKey(ctx, "agent.example.com", "k9"); !errors.Is(err, ErrUnknownKey) || a.hits.Load() != 1 {
		t.Fatalf("PublicKey(unknown kid) = %v with %d fetches, want ErrUnknownKey and no refetch", err, a.hits.Load())
	}
	// Later (a key rotation?), it refetches once, then not again within
	// the interval.
	clock = clock.Add(2 * time.Minute)
	for range 3 {
		if _, err := f.PublicKey(ctx, "agent.example.com", "k9"); !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("PublicKey(unknown kid) = %v, want ErrUnknownKey", err)
		}
	}
	if a.hits.Load() != 2 {
		t.Errorf("fetches after 3 unknown-kid lookups = %d, want 2 (rate-limited)", a.hits.Load())
	}
	// Stale, and the agent host fails: the cached key is still served.
	clock = clock.Add(2 * time.Hour)
	a.set(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	if got, err := f.PublicKey(ctx, "agent.example.com", "k1"); err != nil || !got.Equal(pub) {
		t.Errorf("PublicKey() with a failing host = %v, want the cached key", err)
	}
}

func TestConcurrentCallersShareOneFetch(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	a := newAgentServer(t, "agent.example.com", pub)
	release := make(chan struct{})
	inner := a.handler
	a.set(func(w http.ResponseWriter, r *http.Request) { <-release; inner(w, r) })
	f := devFetcher(a, "agent.example.com")
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := f.PublicKey(context.Background(), "agent.example.com", "k1")
			errs <- err
		}()
	}
	time.Sleep(100 * time.Millisecond)
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := a.hits.Load(); n != 1 {
		t.Errorf("20 concurrent lookups made %d fetches, want 1", n)
	}
}

func TestRefusals(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	tests := []struct {
		name    string
		domain  string
		handler http.HandlerFunc
		want    string
	}{
		{"redirect", "agent.example.com", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://elsewhere.example/.well-known/svc-agent", http.StatusFound)
		}, "status 302"},
		{"not found", "agent.example.com", http.NotFound, "status 404"},
		{"too large", "agent.example.com", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"domain":"agent.example.com","keys":[],"pad":"` + strings.Repeat("x", 70<<10) + `"}`))
		}, "larger than"},
		{"other domain", "agent.example.com", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"domain":"evil.example","keys":[{"kid":"k1","kty":"OKP","crv":"Ed25519","x":%q}]}`,
				base64.RawURLEncoding.EncodeToString(pub))
		}, "names domain"},
		{"no usable key", "agent.example.com", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"domain":"agent.example.com","keys":[{"kid":"k1","kty":"OKP","crv":"Ed25519","x":"AAAA"}]}`))
		}, "no usable"},
		{"not json", "agent.example.com", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>")) }, "key document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAgentServer(t, tt.domain, pub)
			a.set(tt.handler)
			_, err := devFetcher(a, tt.domain).PublicKey(context.Background(), tt.domain, "k1")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("PublicKey() = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}

// TestRefusesPrivateAddresses: without the development overrides, a domain
// that resolves to loopback or a private address is never dialed.
func TestRefusesPrivateAddresses(t *testing.T) {
	for _, addr := range []string{"127.0.0.1", "10.0.0.1", "::1", "169.254.169.254"} {
		f := New(Config{LookupAddrs: func(context.Context, string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr(addr)}, nil
		}}, nil)
		_, err := f.PublicKey(context.Background(), "agent.example.com", "k1")
		if !errors.Is(err, ErrForbidden) {
			t.Errorf("domain resolving to %s: PublicKey() = %v, want ErrForbidden", addr, err)
		}
	}
}

func TestCheckDomain(t *testing.T) {
	for d, ok := range map[string]bool{
		"agent.example.com": true, "a-b.c.example": true,
		"localhost": false, "1.2.3.4": false, "[::1]": false, ".example": false, "example.": false,
		"exa mple.com": false, "ex_ample.com": false, strings.Repeat("a", 64) + ".com": false,
	} {
		if err := checkDomain(d); (err == nil) != ok {
			t.Errorf("checkDomain(%q) = %v, want ok=%v", d, err, ok)
		}
	}
}

// countWarns counts the Warn records logged.
type countWarns struct {
	slog.Handler
	n *atomic.Int64
}

func (c countWarns) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelWarn {
		c.n.Add(1)
	}
	return nil
}
func (c countWarns) WithAttrs([]slog.Attr) slog.Handler       { return c }
func (c countWarns) Enabled(context.Context, slog.Level) bool { return true }

// TestFailuresRemembered (hardening item 7): a failed fetch is remembered
// for a minute, with one log line; a cached key outlives its TTL by at
// most StaleGrace while refetching fails; 404 or 410 revokes it.
func TestFailuresRemembered(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	a := newAgentServer(t, "agent.example.com", pub)
	var warns atomic.Int64
	f := New(Config{DevAddrs: map[string]string{"agent.example.com": a.Listener.Addr().String()},
		DevRootCAs: []*x509.Certificate{a.Certificate()}}, slog.New(countWarns{slog.DiscardHandler, &warns}))
	warns.Store(0) // the development overrides' warning
	clock := time.Unix(1_800_000_000, 0)
	f.now = func() time.Time { return clock }
	ctx := context.Background()
	down := func(status int) {
		a.set(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", status) })
	}
	up := func() {
		a.set(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"domain":"agent.example.com","keys":[{"kid":"k1","kty":"OKP","crv":"Ed25519","x":%q}]}`,
				base64.RawURLEncoding.EncodeToString(pub))
		})
	}

	down(http.StatusServiceUnavailable)
	for range 20 {
		if _, err := f.PublicKey(ctx, "agent.example.com", "k1"); err == nil {
			t.Fatal("key from a failing host")
		}
	}
	if a.hits.Load() != 1 || warns.Load() != 1 {
		t.Fatalf("20 requests in the failure window: %d fetches, %d warnings; want 1 and 1", a.hits.Load(), warns.Load())
	}
	up()
	clock = clock.Add(61 * time.Second)
	if _, err := f.PublicKey(ctx, "agent.example.com", "k1"); err != nil || a.hits.Load() != 2 {
		t.Fatalf("after the window: %v, %d fetches", err, a.hits.Load())
	}

	// Stale, and refetching fails: the key serves for StaleGrace more.
	down(http.StatusBadGateway)
	clock = clock.Add(time.Hour + 23*time.Hour)
	if _, err := f.PublicKey(ctx, "agent.example.com", "k1"); err != nil {
		t.Fatalf("23 h past TTL with a failing host: %v, want the cached key", err)
	}
	clock = clock.Add(2 * time.Hour)
	if _, err := f.PublicKey(ctx, "agent.example.com", "k1"); err == nil {
		t.Fatal("25 h past TTL: the key still served")
	}

	// 404 and 410 revoke the cached key at once.
	for _, status := range []int{http.StatusNotFound, http.StatusGone} {
		up()
		clock = clock.Add(2 * time.Minute)
		if _, err := f.PublicKey(ctx, "agent.example.com", "k1"); err != nil {
			t.Fatalf("refetch: %v", err)
		}
		down(status)
		clock = clock.Add(time.Hour + time.Minute)
		for range 2 {
			if _, err := f.PublicKey(ctx, "agent.example.com", "k1"); !errors.Is(err, ErrRevoked) {
				t.Fatalf("after %d: %v, want ErrRevoked", status, err)
			}
		}
	}
}

// TestConcurrentFetchCap: at most MaxFetches fetches run at once; a
// caller that finds no place within the timeout gets ErrBusy.
func TestConcurrentFetchCap(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	a := newAgentServer(t, "x", pub)
	release := make(chan struct{})
	a.set(func(w http.ResponseWriter, r *http.Request) { <-release })
	defer close(release)
	dev := map[string]string{}
	for i := range 3 {
		dev[fmt.Sprintf("a%d.example.com", i)] = a.Listener.Addr().String()
	}
	f := New(Config{DevAddrs: dev, DevRootCAs: []*x509.Certificate{a.Certificate()}, MaxFetches: 2, Timeout: 2 * time.Second}, nil)
	errs := make(chan error, 3)
	for i := range 3 {
		go func() {
			_, err := f.PublicKey(context.Background(), fmt.Sprintf("a%d.example.com", i), "k1")
			errs <- err
		}()
	}
	busy := 0
	for range 3 {
		if errors.Is(<-errs, ErrBusy) {
			busy++
		}
	}
	if busy != 1 || a.hits.Load() > 2 {
		t.Fatalf("%d callers busy, %d fetches; want 1 and at most 2", busy, a.hits.Load())
	}
}
