package agentkeys

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestHeld: Held answers from the documents fetched, never fetching; the
// documents outlive the Fetcher in Config.File (0600), and a file whose
// entries do not check loads without them.
func TestHeld(t *testing.T) {
	ctx := context.Background()
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	a := newAgentServer(t, "agent.example.com", pub)
	file := filepath.Join(t.TempDir(), "keys", "agentkeys.json")
	newFetcher := func() *Fetcher {
		f := New(Config{File: file, DevAddrs: map[string]string{"agent.example.com": a.Listener.Addr().String(),
			"other.example.com": a.Listener.Addr().String()}, DevRootCAs: []*x509.Certificate{a.Certificate()}}, nil)
		if err := f.Load(); err != nil {
			t.Fatal(err)
		}
		return f
	}
	f := newFetcher()
	if _, err := f.Held().PublicKey(ctx, "agent.example.com", "k1"); !errors.Is(err, ErrNotHeld) || a.hits.Load() != 0 {
		t.Fatalf("Held before any fetch = %v with %d fetches; want ErrNotHeld and none", err, a.hits.Load())
	}
	if _, err := f.PublicKey(ctx, "agent.example.com", "k1"); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("kept documents: %v, mode %v; want 0600", err, st)
	}

	// Another fetcher on the same file: a restart.
	f = newFetcher()
	if got, err := f.Held().PublicKey(ctx, "Agent.Example.Com", "k1"); err != nil || !got.Equal(pub) {
		t.Errorf("Held after a restart = %x, %v; want the key fetched before", got, err)
	}
	for _, tt := range []struct{ domain, kid string }{{"agent.example.com", "k9"}, {"other.example.com", "k1"}} {
		if _, err := f.Held().PublicKey(ctx, tt.domain, tt.kid); !errors.Is(err, ErrNotHeld) {
			t.Errorf("Held(%s, %s) = %v, want ErrNotHeld", tt.domain, tt.kid, err)
		}
	}
	if a.hits.Load() != 1 {
		t.Errorf("%d fetches, want the one PublicKey made", a.hits.Load())
	}

	// The agent's host withdraws its document: gone from the file too.
	a.set(func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	f.now = func() time.Time { return time.Now().Add(2 * time.Hour) } // stale: refetched
	if _, err := f.PublicKey(ctx, "agent.example.com", "k1"); !errors.Is(err, ErrRevoked) {
		t.Fatalf("PublicKey after the document was withdrawn = %v, want ErrRevoked", err)
	}
	if _, err := newFetcher().Held().PublicKey(ctx, "agent.example.com", "k1"); !errors.Is(err, ErrNotHeld) {
		t.Errorf("Held after the document was withdrawn and a restart = %v, want ErrNotHeld", err)
	}

	// Entries that do not check are skipped.
	bad := `{"version":1,"domains":{"127.0.0.1":{"keys":{"k1":"` + "AAAA" + `"}},"x.example.com":{"keys":{"k1":"AAAA"}}}}`
	if err := os.WriteFile(file, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	f = newFetcher()
	if _, err := f.Held().PublicKey(ctx, "x.example.com", "k1"); !errors.Is(err, ErrNotHeld) {
		t.Errorf("a short key loaded: %v", err)
	}
	if err := os.WriteFile(file, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := New(Config{File: file}, nil).Load(); err == nil {
		t.Error("a file that is not JSON loaded without an error")
	}
}

// TestKeepGrantedAgents: a stranger who makes the node fetch new domains
// (anyone can, by calling it live) never pushes a granted agent's
// document out of the bounded cache, and only granted agents' documents
// are written to Config.File, so its size follows the person's grants;
// an agent granted after its document was fetched is written on its next
// call.
func TestKeepGrantedAgents(t *testing.T) {
	ctx := context.Background()
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	a := newAgentServer(t, "x.example.com", pub)
	a.set(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ":")
		fmt.Fprintf(w, `{"domain":%q,"keys":[{"kid":"k1","kty":"OKP","crv":"Ed25519","x":%q}]}`, host, base64.RawURLEncoding.EncodeToString(pub))
	})
	file := filepath.Join(t.TempDir(), "agentkeys.json")
	granted := map[string]bool{"friend.example.com": true}
	var mu sync.Mutex
	newFetcher := func(addrs map[string]string) *Fetcher {
		f := New(Config{File: file, MaxDomains: 8, DevAddrs: addrs, DevRootCAs: []*x509.Certificate{a.Certificate()},
			Keep: func(d string) bool { mu.Lock(); defer mu.Unlock(); return granted[d] }}, nil)
		if err := f.Load(); err != nil {
			t.Fatal(err)
		}
		return f
	}
	addrs := map[string]string{"friend.example.com": a.Listener.Addr().String(), "later.example.com": a.Listener.Addr().String()}
	for i := range 50 {
		addrs[fmt.Sprintf("s%d.example.com", i)] = a.Listener.Addr().String()
	}
	f := newFetcher(addrs)
	for _, d := range []string{"friend.example.com", "later.example.com"} {
		if _, err := f.PublicKey(ctx, d, "k1"); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 50 { // a stranger's new domains, far past MaxDomains
		if _, err := f.PublicKey(ctx, fmt.Sprintf("s%d.example.com", i), "k1"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.Held().PublicKey(ctx, "friend.example.com", "k1"); err != nil {
		t.Errorf("the granted agent after 50 strangers' domains: %v, want still held", err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var hf heldFile
	if err := json.Unmarshal(b, &hf); err != nil {
		t.Fatal(err)
	}
	if len(hf.Domains) != 1 || hf.Domains["friend.example.com"].Keys == nil {
		t.Errorf("the file holds %d domains, want only the granted agent's", len(hf.Domains))
	}

	// later.example.com is granted after its document was fetched (it may
	// have been evicted by now: fetch it again as its live call would).
	mu.Lock()
	granted["later.example.com"] = true
	mu.Unlock()
	if _, err := f.PublicKey(ctx, "later.example.com", "k1"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.PublicKey(ctx, "later.example.com", "k1"); err != nil { // the call after the grant
		t.Fatal(err)
	}
	f = newFetcher(nil) // a restart
	for _, d := range []string{"friend.example.com", "later.example.com"} {
		if _, err := f.Held().PublicKey(ctx, d, "k1"); err != nil {
			t.Errorf("Held(%s) after a restart = %v, want the granted agent's key", d, err)
		}
	}
	if _, err := f.Held().PublicKey(ctx, "s49.example.com", "k1"); !errors.Is(err, ErrNotHeld) {
		t.Errorf("a stranger's domain after a restart = %v, want ErrNotHeld", err)
	}
}
