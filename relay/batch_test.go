package relay

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"io"
	"math/big"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// countingConn counts the writes that reach the network.
type countingConn struct {
	net.Conn
	writes atomic.Int64
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

func frameHeader(typ byte, length uint32) []byte {
	h := make([]byte, yamuxHeaderLen)
	h[1] = typ
	binary.BigEndian.PutUint32(h[8:], length)
	return h
}

// TestFrameWriter: a data frame's header waits for its body and both
// leave in one write; a header with no body (window update, ping, or a
// data frame of length 0) leaves at once; the peer reads every byte in
// order.
func TestFrameWriter(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), DNSNames: []string{"relay.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, _ := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	a, b := net.Pipe()
	defer a.Close()
	srv := tls.Server(b, &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}})
	got := make(chan []byte, 1)
	go func() {
		var buf bytes.Buffer
		io.Copy(&buf, srv)
		got <- buf.Bytes()
	}()
	raw := &countingConn{Conn: a}
	batch := NewBatchConn(raw)
	cli := tls.Client(batch, &tls.Config{InsecureSkipVerify: true, ServerName: "relay.test"})
	if err := cli.Handshake(); err != nil {
		t.Fatal(err)
	}
	batch.Batch()
	fw := &FrameWriter{Conn: cli, Raw: batch}
	var want bytes.Buffer
	steps := []struct {
		name   string
		p      []byte
		writes int64 // network writes this step adds
	}{
		{"data header", frameHeader(0, 5), 0},
		{"its body", []byte("hello"), 1},
		{"window update", frameHeader(1, 1<<20), 1},
		{"ping", frameHeader(2, 7), 1},
		{"empty data frame (FIN)", frameHeader(0, 0), 1},
		{"data header", frameHeader(0, 20000), 0},
		{"a body larger than a record", bytes.Repeat([]byte("x"), 20000), 1},
	}
	for _, s := range steps {
		before := raw.writes.Load()
		if _, err := fw.Write(s.p); err != nil {
			t.Fatal(s.name, err)
		}
		want.Write(s.p)
		if d := raw.writes.Load() - before; d != s.writes {
			t.Errorf("%s: %d network writes, want %d", s.name, d, s.writes)
		}
	}
	cli.Close()
	if b := <-got; !bytes.Equal(b, want.Bytes()) {
		t.Errorf("peer read %d bytes, want the %d written", len(b), want.Len())
	}
}
