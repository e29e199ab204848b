package imapsync_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"mailnode/mail/imaptest"
)

// recConn keeps every byte the server sends.
type recConn struct {
	net.Conn
	mu  *sync.Mutex
	buf *bytes.Buffer
}

func (c recConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	c.buf.Write(p[:n])
	c.mu.Unlock()
	return n, err
}

// TestCutBeforeBody: a connection that breaks after a message's UID and
// before its body ends the FETCH response early without an error of its
// own; the message must not be stored (once it was, with an empty body),
// and the next sync fetches it whole.
func TestCutBeforeBody(t *testing.T) {
	srv := imaptest.NewMemory(t)
	c := srv.Dial(t)
	for i := range 3 {
		appendMsg(t, c, "INBOX", []byte(fmt.Sprintf("From: a@example.com\r\nSubject: m%d\r\n\r\nbody %d\r\n", i, i)), nil)
	}
	// A clean sync, recorded, says where the second message's body
	// begins in the server's bytes.
	var mu sync.Mutex
	var rec bytes.Buffer
	cfg := config(srv)
	cfg.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		return recConn{conn, &mu, &rec}, err
	}
	if _, err := newSyncer(t, cfg, newStore(t)).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	stream := rec.Bytes()
	first := bytes.Index(stream, []byte("BODY[] {"))
	second := bytes.Index(stream[first+1:], []byte("BODY[] {"))
	uid := bytes.LastIndex(stream[:first+1+second], []byte("UID 2"))
	if first < 0 || second < 0 || uid < 0 || uid > first+1+second {
		t.Fatalf("the server's answer is not as this test expects (UID before BODY[]):\n%s", stream)
	}
	cut := int64(first + 1 + second) // after "UID 2 ...", before "BODY[]"

	st := newStore(t)
	var budget atomic.Int64
	budget.Store(cut)
	cfg.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		return cutConn{Conn: conn, budget: &budget}, err
	}
	cfg.BatchMessages = 1 // every complete message commits at once
	if _, err := newSyncer(t, cfg, st).Sync(context.Background()); err == nil {
		t.Fatal("a sync cut before a body succeeded")
	}
	assertTrueCopies(t, c, st)
	budget.Store(1 << 40)
	if _, err := newSyncer(t, cfg, st).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	assertMirror(t, c, st, []string{"INBOX"})
}
