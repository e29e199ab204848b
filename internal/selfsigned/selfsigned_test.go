package selfsigned

import (
	"crypto/tls"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
)

// TestNew: a client trusting the certificate alone completes a handshake
// with a server using it, for an IP address and a DNS name, and the key
// file is private.
func TestNew(t *testing.T) {
	c, err := New("test", "127.0.0.1", "localhost")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{c.TLS}})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conn.Write([]byte("ok"))
			conn.Close()
		}
	}()
	for _, name := range []string{"127.0.0.1", "localhost", "other.test"} {
		cfg := c.ClientConfig()
		cfg.ServerName = name
		conn, err := tls.Dial("tcp", ln.Addr().String(), cfg)
		if name == "other.test" {
			if err == nil {
				conn.Close()
				t.Errorf("a handshake for %s succeeded", name)
			}
			continue
		}
		if err != nil {
			t.Fatalf("handshake for %s: %v", name, err)
		}
		if b, _ := io.ReadAll(conn); string(b) != "ok" {
			t.Errorf("read %q", b)
		}
		conn.Close()
	}
	if ip := c.Leaf.IPAddresses; len(ip) != 1 || !ip[0].Equal(net.IPv4(127, 0, 0, 1)) {
		t.Errorf("IP addresses %v", ip)
	}
	dir := t.TempDir()
	if err := c.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "key.pem")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key.pem: %v %v", fi.Mode(), err)
	}
	if _, err := tls.LoadX509KeyPair(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")); err != nil {
		t.Errorf("the files do not load: %v", err)
	}
}
