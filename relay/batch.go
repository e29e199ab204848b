package relay

import (
	"crypto/tls"
	"encoding/binary"
	"net"
	"sync"
)

// A tunnel carries TLS inside TLS: every record of the agent's TLS with
// the node becomes a yamux frame, written by yamux as a 12-byte header
// and a body, each of which the tunnel's TLS would seal as its own
// record and send with its own system call; a 16 KiB inner record (more
// than one outer record holds) took three records and three system
// calls. BatchConn and FrameWriter send each frame with one system call.

// BatchConn is the TCP connection under a tunnel's TLS. Once Batch is
// called, writes collect until Flush; before, they pass through (the TLS
// handshake and the tunnel hello).
type BatchConn struct {
	net.Conn
	mu       sync.Mutex
	batching bool
	buf      []byte
}

// NewBatchConn wraps c, passing writes through until Batch.
func NewBatchConn(c net.Conn) *BatchConn { return &BatchConn{Conn: c} }

// Batch starts collecting writes until Flush.
func (b *BatchConn) Batch() {
	b.mu.Lock()
	b.batching = true
	b.mu.Unlock()
}

// maxBatch bounds what collects before a write goes out anyway, and so
// the buffer an idle tunnel keeps.
const maxBatch = 64 << 10

func (b *BatchConn) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.batching {
		return b.Conn.Write(p)
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) >= maxBatch {
		if err := b.flushLocked(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush sends what collected, in one write.
func (b *BatchConn) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *BatchConn) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.Conn.Write(b.buf)
	if cap(b.buf) > 2*maxBatch {
		b.buf = nil
	} else {
		b.buf = b.buf[:0]
	}
	return err
}

// Close sends what collected (a TLS close_notify), then closes.
func (b *BatchConn) Close() error {
	b.Flush()
	return b.Conn.Close()
}

// TunnelWindow is each end's yamux receive window per stream: how much of
// one connection's data may wait unread at that end, so also the memory
// one busy stream may hold. yamux's 256 KiB default stalled a fast
// stream on window updates; larger than 1 MiB is slower again, because
// yamux queues a stream's unread data in a bytes.Buffer that, with much
// of a large window unread, slides and reallocates (docs/benchmarks.md:
// 4 MiB measured ratio 0.29-0.53, 1 MiB 0.54-0.69). 1 MiB also carries
// 20 MB/s per stream at 50 ms round trip, more than a home uplink.
const TunnelWindow = 1 << 20

// yamuxHeaderLen is a yamux frame header: version, type, flags (2),
// stream ID (4), length (4).
const yamuxHeaderLen = 12

// FrameWriter is the connection a tunnel's yamux session runs on: the
// tunnel's TLS over a batching BatchConn. A data frame's header (type 0
// with a non-zero length: a body follows at once, from the same yamux
// goroutine) is held for its body; after every other write what the TLS
// sealed is flushed. Nothing waits for a later frame.
type FrameWriter struct {
	*tls.Conn
	Raw  *BatchConn
	held bool
}

func (f *FrameWriter) Write(p []byte) (int, error) {
	n, err := f.Conn.Write(p)
	if err != nil {
		return n, err
	}
	if !f.held && len(p) == yamuxHeaderLen && p[1] == 0 && binary.BigEndian.Uint32(p[8:12]) > 0 {
		f.held = true
		return n, nil
	}
	f.held = false
	return n, f.Raw.Flush()
}
