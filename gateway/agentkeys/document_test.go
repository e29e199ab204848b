package agentkeys

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestDocument covers fetching a document other than a key document (an
// OAuth client's metadata) under the same rules.
func TestDocument(t *testing.T) {
	a := newAgentServer(t, "client.example.com", make([]byte, 32))
	a.set(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/client.json":
			w.Write([]byte(`{"client_id":"https://client.example.com/client.json"}`))
		case "/moved":
			http.Redirect(w, r, "https://client.example.com/client.json", http.StatusFound)
		case "/big":
			w.Write([]byte(strings.Repeat("x", 70<<10)))
		default:
			http.NotFound(w, r)
		}
	})
	f := devFetcher(a, "client.example.com")
	ctx := context.Background()
	if b, err := f.Document(ctx, "https://client.example.com/client.json"); err != nil || !strings.Contains(string(b), "client_id") {
		t.Fatalf("Document(client.json) = %q, %v", b, err)
	}
	tests := []struct {
		url     string
		notURL  bool // refused before any connection
		wantHit bool
	}{
		{"https://client.example.com/moved", false, true}, // a redirect is not followed
		{"https://client.example.com/big", false, true},   // past MaxBytes
		{"https://client.example.com/none", false, true},
		{"http://client.example.com/client.json", true, false},
		{"https://client.example.com:8443/client.json", true, false},
		{"https://user@client.example.com/client.json", true, false},
		{"https://client.example.com/client.json#x", true, false},
		{"https://127.0.0.1/client.json", true, false},
		{"https://[::1]/client.json", true, false},
		{"https://localhost/client.json", true, false},
		{"client.example.com/client.json", true, false},
	}
	for _, tt := range tests {
		before := a.hits.Load()
		_, err := f.Document(ctx, tt.url)
		if err == nil {
			t.Errorf("Document(%s) = nil error, want refused", tt.url)
		}
		if got := errors.Is(err, ErrNotDocumentURL); got != tt.notURL {
			t.Errorf("Document(%s) = %v, ErrNotDocumentURL %v, want %v", tt.url, err, got, tt.notURL)
		}
		if hit := a.hits.Load() > before; hit != tt.wantHit {
			t.Errorf("Document(%s) reached the server: %v, want %v", tt.url, hit, tt.wantHit)
		}
	}
}

func TestDocumentRefusesPrivateAddresses(t *testing.T) {
	for _, addr := range []string{"127.0.0.1", "10.0.0.1", "::1", "169.254.169.254", "192.168.1.10"} {
		f := New(Config{LookupAddrs: func(context.Context, string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr(addr)}, nil
		}}, nil)
		_, err := f.Document(context.Background(), "https://client.example.com/client.json")
		if !errors.Is(err, ErrForbidden) {
			t.Errorf("host resolving to %s: Document() = %v, want ErrForbidden", addr, err)
		}
	}
}

// TestDocumentOwnPlaces: Document fetches have their own MaxDocumentFetches
// places. Hosts that stall every one of them leave the next Document
// ErrBusy, and an agent's key document is still fetched meanwhile (they
// used to share MaxFetches, so stalled client documents blocked agents).
func TestDocumentOwnPlaces(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	a := newAgentServer(t, "agent.example.com", pub)
	keyDoc := a.handler
	release := make(chan struct{})
	var stalled sync.WaitGroup
	stalled.Add(2)
	a.set(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stall" {
			stalled.Done()
			<-release
			return
		}
		keyDoc(w, r)
	})
	dev := map[string]string{"agent.example.com": a.Listener.Addr().String()}
	for i := range 3 {
		dev[fmt.Sprintf("t%d.example.com", i)] = a.Listener.Addr().String()
	}
	f := New(Config{DevAddrs: dev, DevRootCAs: []*x509.Certificate{a.Certificate()},
		MaxFetches: 1, MaxDocumentFetches: 2, Timeout: 2 * time.Second}, nil)
	var done sync.WaitGroup
	for i := range 2 {
		done.Add(1)
		go func() {
			defer done.Done()
			f.Document(context.Background(), fmt.Sprintf("https://t%d.example.com/stall", i))
		}()
	}
	stalled.Wait()
	if _, err := f.Document(context.Background(), "https://t2.example.com/stall"); !errors.Is(err, ErrBusy) {
		t.Errorf("Document() with both places stalled = %v, want ErrBusy", err)
	}
	if _, err := f.PublicKey(context.Background(), "agent.example.com", "k1"); err != nil {
		t.Errorf("PublicKey() while documents stall = %v, want the key", err)
	}
	close(release)
	done.Wait()
}
