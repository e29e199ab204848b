package gateway

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"sync"
	"time"

	"mailnode/relay/connlimit"
)

// tlsListener completes each connection's TLS handshake before the HTTP
// server sees it, so that the handshake is bounded where it starts: one
// deadline from the accept (connlimit.HandshakeTimeout) and, per client
// address, a cap on connections still in their handshake; past it one is
// closed at once. Established connections are not counted.
type tlsListener struct {
	ln      net.Listener
	cfg     *tls.Config
	pending *connlimit.PerAddress // nil: no cap (the relay tunnel's streams)
	log     *slog.Logger

	ready chan net.Conn // handshaken connections for Accept
	done  chan struct{} // closed by Close
	errc  chan error    // the accept loop's last error
	wg    sync.WaitGroup

	mu       sync.Mutex // guards the fields below
	inFlight map[net.Conn]struct{}
	closed   bool
}

// newTLSListener starts accepting on ln. pending may be nil.
func newTLSListener(ln net.Listener, cfg *tls.Config, pending *connlimit.PerAddress, log *slog.Logger) *tlsListener {
	l := &tlsListener{ln: ln, cfg: cfg, pending: pending, log: log,
		ready: make(chan net.Conn), done: make(chan struct{}), errc: make(chan error, 1), inFlight: map[net.Conn]struct{}{}}
	l.wg.Add(1)
	go l.acceptLoop()
	return l
}

func (l *tlsListener) acceptLoop() {
	defer l.wg.Done()
	var backoff connlimit.AcceptBackoff
	for {
		c, err := l.ln.Accept()
		if err != nil {
			if backoff.Retry(err, l.done, func(err error) { l.log.Warn("Cannot accept; retrying", "err", err) }) {
				continue
			}
			select {
			case <-l.done:
			default:
				l.errc <- err
			}
			return
		}
		backoff.Accepted()
		release := func() {}
		if l.pending != nil {
			var ok bool
			if release, ok = l.pending.Acquire(c.RemoteAddr()); !ok {
				c.Close()
				continue
			}
		}
		if !l.track(c) {
			release()
			c.Close()
			return
		}
		l.wg.Add(1)
		go l.handshake(c, release)
	}
}

// track records c as in its handshake, so that Close can end it; false
// once the listener is closed.
func (l *tlsListener) track(c net.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	l.inFlight[c] = struct{}{}
	return true
}

func (l *tlsListener) handshake(c net.Conn, release func()) {
	defer l.wg.Done()
	deadline := time.Now().Add(connlimit.HandshakeTimeout)
	c.SetDeadline(deadline)
	tc := tls.Server(c, l.cfg)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	err := tc.HandshakeContext(ctx)
	cancel()
	release()
	l.mu.Lock()
	delete(l.inFlight, c)
	l.mu.Unlock()
	if err != nil {
		l.log.Debug("TLS handshake failed", "remote", c.RemoteAddr().String(), "err", err)
		c.Close()
		return
	}
	c.SetDeadline(time.Time{})
	select {
	case l.ready <- tc:
	case <-l.done:
		tc.Close()
	}
}

// Accept returns the next connection whose handshake completed.
func (l *tlsListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	case err := <-l.errc:
		l.errc <- err
		return nil, err
	}
}

// Close stops accepting, ends the handshakes in flight and waits for
// them.
func (l *tlsListener) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	close(l.done)
	for c := range l.inFlight {
		c.Close()
	}
	l.mu.Unlock()
	err := l.ln.Close()
	l.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

func (l *tlsListener) Addr() net.Addr { return l.ln.Addr() }
