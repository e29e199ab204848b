package agentkeys

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"errors"
	"net/http"
	"os"
	"path/filepath"
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
