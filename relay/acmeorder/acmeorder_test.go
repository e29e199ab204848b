package acmeorder_test

import (
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"testing"
	"time"

	"mailnode/relay/acmeorder"
)

// TestCovers: a wildcard is covered only by that wildcard, a name by
// itself or a wildcard one label up.
func TestCovers(t *testing.T) {
	key, err := acmeorder.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "relay.test"},
		DNSNames: []string{"relay.test", "*.agents.relay.test"}, NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := acmeorder.Certificate([][]byte{der}, key)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"relay.test", true},
		{"*.agents.relay.test", true},
		{"abcdefghijklmnop.agents.relay.test", true},
		{"*.relay.test", false},
		{"agents.relay.test", false},
		{"other.relay.test", false},
		{"a.b.agents.relay.test", false},
	} {
		if got := acmeorder.Covers(c.Leaf, tc.name); got != tc.want {
			t.Errorf("Covers(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
	// The key round-trips through PEM; another key does not pair.
	b, err := acmeorder.MarshalKey(key)
	if err != nil {
		t.Fatal(err)
	}
	back, err := acmeorder.ParseKey(append(acmeorder.MarshalChain([][]byte{der}), b...), "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acmeorder.Certificate([][]byte{der}, back); err != nil {
		t.Errorf("the parsed key does not pair with its certificate: %v", err)
	}
	other, _ := acmeorder.NewKey()
	if _, err := acmeorder.Certificate([][]byte{der}, other); err == nil {
		t.Error("a certificate paired with another key")
	}
	if _, err := acmeorder.ParseKey(acmeorder.MarshalChain([][]byte{der}), "test"); err == nil {
		t.Error("ParseKey found a key in a chain without one")
	}
}
