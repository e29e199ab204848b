package localca_test

import (
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"
	"time"

	"mailnode/gateway/localca"
)

func TestCA(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ca")
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	ca, err := localca.Open(dir, nil, clock)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "ca-key.pem")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("CA key file: %v, %v", fi, err)
	}
	// Reopening finds the same CA.
	again, err := localca.Open(dir, nil, clock)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Cert().Equal(ca.Cert()) {
		t.Fatal("reopened CA differs")
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca.Cert())

	for _, host := range []string{"node.example.net", "127.0.0.1", "localhost"} {
		l, err := again.Leaf(host)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: roots, CurrentTime: now}); err != nil {
			t.Errorf("Leaf(%s) does not verify: %v", host, err)
		}
		if got, _ := again.Leaf(host); got != l {
			t.Errorf("Leaf(%s) reissued while fresh", host)
		}
	}
	l, _ := again.Leaf("node.example.net")
	now = now.Add(61 * 24 * time.Hour) // 29 days left: renew
	l2, _ := again.Leaf("node.example.net")
	if l2 == l || !l2.Leaf.NotAfter.After(l.Leaf.NotAfter) {
		t.Fatal("leaf not renewed 29 days before expiry")
	}
}
