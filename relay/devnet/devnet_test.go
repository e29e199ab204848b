package devnet

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		o  Overrides
		ok bool
	}{
		{Overrides{}, true},
		{Overrides{DNS: "127.0.0.1:5353", Port: 8443}, true},
		{Overrides{DNS: "127.0.0.1"}, false},
		{Overrides{Port: 70000}, false},
		{Overrides{Port: -1}, false},
	} {
		if err := tc.o.Check(); (err == nil) != tc.ok {
			t.Errorf("%+v: Check() = %v, want ok %v", tc.o, err, tc.ok)
		}
	}
}

// TestDialPort: the port override replaces 443 and nothing else.
func TestDialPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	dial := Overrides{Port: port}.Dial()
	c, err := dial(t.Context(), "tcp", "127.0.0.1:443")
	if err != nil {
		t.Fatalf("443 not replaced: %v", err)
	}
	c.Close()
	if c, err := dial(t.Context(), "tcp", "127.0.0.1:"+strconv.Itoa(port)); err != nil {
		t.Fatalf("other ports kept: %v", err)
	} else {
		c.Close()
	}
}

func TestTLSCAFiles(t *testing.T) {
	if cfg, err := (Overrides{}).TLS(); err != nil || cfg.RootCAs != nil {
		t.Fatalf("no CA files: roots %v, err %v; want the system's", cfg.RootCAs, err)
	}
	bad := filepath.Join(t.TempDir(), "bad.pem")
	os.WriteFile(bad, []byte("not a certificate"), 0o600)
	if _, err := (Overrides{CAFiles: []string{bad}}).TLS(); err == nil {
		t.Fatal("a file without a certificate was accepted")
	}
	if _, err := (Overrides{CAFiles: []string{bad + ".missing"}}).TLS(); err == nil {
		t.Fatal("a missing file was accepted")
	}
}
