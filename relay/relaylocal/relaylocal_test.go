package relaylocal_test

import (
	"bytes"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

// fakeClock is the relay's clock, moved on by the test.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestRelayExpires: a local relay runs the expiry loop itself. An
// envelope queued for an offline name stays stored while it lives, and
// once the relay's clock passes its end it is deleted from the store,
// with nobody calling Expire.
func TestRelayExpires(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_900_000_000, 0)}
	created := clock.Now()
	dir := t.TempDir()
	r, err := relaylocal.Start(t.Context(), relaylocal.Options{DataDir: dir, Now: clock.Now, ExpireEvery: 20 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := r.Close(); err != nil {
			t.Errorf("Close() = %v", err)
		}
	}()

	host := relayserver.NewLabel() + "." + relaylocal.Zone
	body := fmt.Sprintf(`{"envelope":%q,"request_id":"expiry-test-0001"}`, base64.RawURLEncoding.EncodeToString(make([]byte, 200)))
	resp, err := r.HTTPClient().Post(r.URL+relay.PathQueue+"/"+host, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var q relay.Queued
	if resp.StatusCode != 202 || json.Unmarshal(b, &q) != nil || q.RequestID == "" {
		t.Fatalf("enqueue = %d %s, want 202 with a receipt", resp.StatusCode, b)
	}

	// A second handle on the relay's SQLite file reads the row as it was
	// when queued, expired or not: only a deletion makes it go.
	st, err := relaystore.OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stored := func() bool {
		_, err := st.QueueEntry(t.Context(), q.RequestID, created)
		if err != nil && !errors.Is(err, relaystore.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	time.Sleep(200 * time.Millisecond) // ten rounds of the loop
	if !stored() {
		t.Fatal("the envelope was deleted before it expired")
	}
	clock.add(relay.QueueTTL + time.Minute)
	for deadline := time.Now().Add(10 * time.Second); stored(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the expired envelope is still stored: the relay does not run its expiry loop")
		}
	}
}

// TestOpenCA: a CA kept in a directory is made once, with its key
// readable by the owner only, and read back the same on the next open; it
// issues certificates that a client trusting only its file accepts.
func TestOpenCA(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dev-ca")
	ca, created, err := relaylocal.OpenCA(dir)
	if err != nil || !created {
		t.Fatalf("OpenCA(new) = %v, created %v; want created", err, created)
	}
	if life := time.Until(ca.Cert.NotAfter); life < 9*365*24*time.Hour {
		t.Errorf("the CA lasts %v, want about ten years", life)
	}
	for file, want := range map[string]os.FileMode{relaylocal.CAFile: 0o644, relaylocal.CAKeyFile: 0o600} {
		fi, err := os.Stat(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode = %v, want %v", file, fi.Mode().Perm(), want)
		}
	}
	pem1, _ := os.ReadFile(filepath.Join(dir, relaylocal.CAFile))
	if !bytes.Equal(pem1, ca.CertPEM()) {
		t.Error("CertPEM() differs from the CA file")
	}

	again, created, err := relaylocal.OpenCA(dir)
	if err != nil || created {
		t.Fatalf("OpenCA(existing) = %v, created %v; want it read back", err, created)
	}
	pem2, _ := os.ReadFile(filepath.Join(dir, relaylocal.CAFile))
	if !bytes.Equal(pem1, pem2) || !again.Cert.Equal(ca.Cert) {
		t.Fatal("the second open made another CA")
	}
	leaf, err := again.Issue(relaylocal.Zone, "*.agents."+relaylocal.Zone)
	if err != nil {
		t.Fatal(err)
	}
	if life := time.Until(leaf.Leaf.NotAfter); life < 360*24*time.Hour {
		t.Errorf("the relay's certificate lasts %v, want a year", life)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem1)
	if _, err := leaf.Leaf.Verify(x509.VerifyOptions{Roots: roots, DNSName: "x.agents." + relaylocal.Zone}); err != nil {
		t.Errorf("the certificate issued after a reopen does not verify against the first CA file: %v", err)
	}

	if err := os.WriteFile(filepath.Join(dir, relaylocal.CAKeyFile), []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := relaylocal.OpenCA(dir); err == nil {
		t.Error("OpenCA with a broken key = nil error, want one (never a new CA over the old file)")
	}
}

// TestOpenCAPlanted: a CA key others could have written or read, or a
// certificate others could have changed, is refused, not trusted (the
// README's /tmp paths on a machine with other users; outside attack).
func TestOpenCAPlanted(t *testing.T) {
	for _, tt := range []struct {
		name string
		file string
		mode os.FileMode
	}{
		{"key open to others", relaylocal.CAKeyFile, 0o644},
		{"key writable by others", relaylocal.CAKeyFile, 0o666},
		{"certificate writable by others", relaylocal.CAFile, 0o666},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "dev-ca")
			if _, _, err := relaylocal.OpenCA(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(filepath.Join(dir, tt.file), tt.mode); err != nil {
				t.Fatal(err)
			}
			if _, _, err := relaylocal.OpenCA(dir); err == nil {
				t.Errorf("OpenCA took a CA whose %s is %04o", tt.file, tt.mode)
			}
		})
	}
}
