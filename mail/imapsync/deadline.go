package imapsync

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"
)

// deadlineConn gives an IMAP server a deadline for every answer it owes
// (RFC 9051 section 2.2.2): from the greeting on, and again whenever the
// client writes (a command, DONE after IDLE, a literal after a
// continuation), each read must bring data within timeout until the
// server sends a tagged completion (a line "tag OK|NO|BAD") or a
// continuation request ("+ "), which end what it owes. Untagged data in
// between (FETCH responses, the greeting) is progress: each read gets a
// fresh timeout. While the server owes nothing (between commands, in IDLE
// after "+ idling"), reads wait as long as they need, and a slow reader on
// our side (back-pressure from the store) never counts against the
// server, because no read is waiting then.
//
// A deadline that passes ends the connection for good: every later read
// and write fails with the same error at once. The IMAP library reads
// again after a failed read (go-imap v2 beta.8 tries four times before it
// gives up on the greeting), and each of those reads would otherwise get a
// deadline of its own.
type deadlineConn struct {
	net.Conn
	timeout time.Duration

	mu      sync.Mutex // guards the fields below
	owed    bool       // the server owes an answer
	tail    []byte     // the start of the last line read, for a line split across reads
	expired error      // set once a deadline passed; wraps ErrNoAnswer
}

func newDeadlineConn(c net.Conn, timeout time.Duration) *deadlineConn {
	// The server speaks first: it owes the greeting (or, for TLS, the
	// handshake's answer).
	return &deadlineConn{Conn: c, timeout: timeout, owed: true}
}

func (c *deadlineConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	if err := c.expired; err != nil {
		c.mu.Unlock()
		return 0, err
	}
	c.owed = true
	// Also arms a Read that is already waiting.
	c.Conn.SetReadDeadline(time.Now().Add(c.timeout))
	c.mu.Unlock()
	c.Conn.SetWriteDeadline(time.Now().Add(c.timeout))
	n, err := c.Conn.Write(p)
	return n, c.explain(err)
}

func (c *deadlineConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	if err := c.expired; err != nil {
		c.mu.Unlock()
		return 0, err
	}
	if c.owed {
		c.Conn.SetReadDeadline(time.Now().Add(c.timeout))
	} else {
		c.Conn.SetReadDeadline(time.Time{})
	}
	c.mu.Unlock()
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		if c.answered(p[:n]) {
			c.owed = false
		}
		c.mu.Unlock()
	}
	return n, c.explain(err)
}

// answered reports whether data (following c.tail) holds a line that ends
// what the server owes: a tagged status response or a continuation
// request. Only line starts are looked at; a message body that happens to
// hold such a line ends the deadline early, never late. c.mu is held.
//
// It runs on every read of a whole mailbox's download, so it neither
// copies data nor looks further into a line than its start.
func (c *deadlineConn) answered(data []byte) bool {
	done := false
	if len(c.tail) > 0 {
		// The line begun in an earlier read.
		i := bytes.IndexByte(data, '\n')
		rest := data
		if i >= 0 {
			rest = data[:i+1]
		}
		line := append(c.tail, rest[:min(len(rest), lineStart)]...)
		done = completion(line)
		if i < 0 {
			c.tail = line[:min(len(line), lineStart)]
			return done
		}
		c.tail = c.tail[:0]
		data = data[i+1:]
	}
	for len(data) > 0 {
		if completion(data[:min(len(data), lineStart)]) {
			done = true
		}
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			c.tail = append(c.tail[:0], data[:min(len(data), lineStart)]...)
			return done
		}
		data = data[i+1:]
	}
	return done
}

// lineStart is as much of a line as completion needs: a tag and a status.
const lineStart = 64

// completion reports whether line starts with a continuation request or a
// tagged OK, NO or BAD.
func completion(line []byte) bool {
	if len(line) >= 2 && line[0] == '+' && (line[1] == ' ' || line[1] == '\r') {
		return true
	}
	sp := bytes.IndexByte(line, ' ')
	if sp <= 0 || line[0] == '*' || line[0] == '+' || bytes.IndexByte(line[:sp], '\n') >= 0 {
		return false
	}
	rest := line[sp+1:]
	return bytes.HasPrefix(rest, []byte("OK")) || bytes.HasPrefix(rest, []byte("NO")) || bytes.HasPrefix(rest, []byte("BAD"))
}

// ErrNoAnswer is a server that did not answer within the command timeout.
var ErrNoAnswer = errors.New("the IMAP server did not answer in time")

// explain turns a passed deadline into ErrNoAnswer, and remembers it.
func (c *deadlineConn) explain(err error) error {
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.expired == nil {
		c.expired = fmt.Errorf("%w (%v)", ErrNoAnswer, c.timeout)
	}
	return c.expired
}

// noAnswer returns the error of a deadline that passed, or nil. The IMAP
// library reports a failed read with %v, which loses ErrNoAnswer; the
// caller puts it back.
func (c *deadlineConn) noAnswer() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.expired
}
