package relayserver

import (
	"log/slog"
	"net"
	"sync"

	"mailnode/relay/connlimit"
)

// capListener bounds the connections a listener served by someone
// else's accept loop holds open: per client address (an IPv4 address,
// an IPv6 /64) and all together. One past either cap is closed at
// accept, before a byte is read. It also waits after a temporary accept
// error (EMFILE, ENFILE: out of descriptors), 5 ms doubling to 1 s as
// the TLS port's loop does (sni.go), and never returns one: miekg/dns
// retries such an error at once, in a loop that burnt a core and the
// descriptors the TLS port needed while a stranger held 400 connections
// to the DNS port (outside attack; docs/relay.md "DNS").
type capListener struct {
	net.Listener
	log     *slog.Logger
	perAddr *connlimit.PerAddress // nil: no cap per address
	slots   chan struct{}         // one held per open connection

	closeOnce sync.Once
	done      chan struct{} // closed by Close
}

// newCapListener caps ln at total connections (at least one), and at
// perAddr per client address unless perAddr is nil.
func newCapListener(ln net.Listener, log *slog.Logger, perAddr *connlimit.PerAddress, total int) *capListener {
	return &capListener{Listener: ln, log: log, perAddr: perAddr, slots: make(chan struct{}, max(total, 1)), done: make(chan struct{})}
}

// Accept returns the next connection within the caps. It returns an
// error only once the listener fails for good or is closed.
func (l *capListener) Accept() (net.Conn, error) {
	var backoff connlimit.AcceptBackoff
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if backoff.Retry(err, l.done, func(err error) {
				l.log.Warn("Cannot accept; retrying", "addr", l.Addr().String(), "err", err)
			}) {
				continue
			}
			select {
			case <-l.done:
				return nil, net.ErrClosed
			default:
				return nil, err
			}
		}
		backoff.Accepted()
		select {
		case l.slots <- struct{}{}:
		default:
			c.Close()
			continue
		}
		release := func() {}
		if l.perAddr != nil {
			var ok bool
			if release, ok = l.perAddr.Acquire(c.RemoteAddr()); !ok {
				<-l.slots
				c.Close()
				continue
			}
		}
		return &capConn{Conn: c, release: func() { release(); <-l.slots }}, nil
	}
}

// Close closes the listener and ends a wait after an accept error.
func (l *capListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// capConn gives its places back when closed, once.
type capConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *capConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
