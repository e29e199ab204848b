package relayserver

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"mailnode/relay"
	"mailnode/relay/connlimit"
)

const (
	// maxClientHello bounds what the relay reads before it knows where a
	// connection goes. A ClientHello with post-quantum key shares is
	// about 2 KiB; the cap leaves room for a hello spanning several
	// records.
	maxClientHello = 32 << 10
	// peekTimeout bounds the wait for a ClientHello and, for the relay's
	// own names, the handshake after it: one deadline from the accept.
	peekTimeout = connlimit.HandshakeTimeout
)

var errPeeked = errors.New("peeked")

// recordingConn lets crypto/tls parse a ClientHello while keeping every
// byte it read, so that the bytes can be replayed to the node; it writes
// nothing, so the relay never answers a handshake that is not its own.
type recordingConn struct {
	r   io.Reader
	buf bytes.Buffer
}

func (c *recordingConn) Read(p []byte) (int, error) {
	if room := maxClientHello - c.buf.Len(); room <= 0 {
		return 0, errors.New("client hello too large")
	} else if len(p) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	c.buf.Write(p[:n])
	return n, err
}
func (c *recordingConn) Write(p []byte) (int, error)        { return 0, io.ErrClosedPipe }
func (c *recordingConn) Close() error                       { return nil }
func (c *recordingConn) LocalAddr() net.Addr                { return &net.TCPAddr{} }
func (c *recordingConn) RemoteAddr() net.Addr               { return &net.TCPAddr{} }
func (c *recordingConn) SetDeadline(t time.Time) error      { return nil }
func (c *recordingConn) SetReadDeadline(t time.Time) error  { return nil }
func (c *recordingConn) SetWriteDeadline(t time.Time) error { return nil }

// PeekClientHello reads a TLS ClientHello from r without answering it and
// returns its server name and every byte read. crypto/tls does the
// parsing, records and fragmentation included.
func PeekClientHello(r io.Reader) (serverName string, peeked []byte, err error) {
	rc := &recordingConn{r: r}
	var hello *tls.ClientHelloInfo
	err = tls.Server(rc, &tls.Config{GetConfigForClient: func(h *tls.ClientHelloInfo) (*tls.Config, error) {
		hello = h
		return nil, errPeeked
	}}).Handshake()
	if hello == nil {
		if err == nil {
			err = errors.New("no client hello")
		}
		return "", nil, fmt.Errorf("read client hello: %w", err)
	}
	return strings.TrimSuffix(strings.ToLower(hello.ServerName), "."), rc.buf.Bytes(), nil
}

// prefixConn replays peeked bytes before reading on.
type prefixConn struct {
	net.Conn
	r io.Reader
}

func (c *prefixConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// ServeTLS runs the relay's one TLS port on ln: each connection's
// ClientHello is read without terminating TLS, then the connection goes
//
//   - to the relay itself, for its API name and hosted agent names (the
//     agent API over HTTPS, or a node's tunnel by ALPN);
//   - onto a stream of a node's tunnel, for the name of a node online;
//   - nowhere, for every other name (unknown, decoy, offline alike): the
//     TCP connection stays open and TLS never completes.
//
// Until then (its hand-off to a node, the end of the relay's own
// handshake, or the end of a stall) a connection counts against its
// client address; one past Limits.MaxPendingPerAddress is closed at
// once, before a byte is read.
func (s *Server) ServeTLS(ctx context.Context, ln net.Listener) error {
	api := newConnListener(ln.Addr())
	hs := s.httpServer()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); hs.Serve(api) }()
	ctx, cancel := context.WithCancel(ctx)
	wg.Add(1)
	go func() { defer wg.Done(); s.tunnels.keep(ctx) }()
	defer func() {
		cancel()
		sctx, c2 := context.WithTimeout(context.Background(), 5*time.Second)
		hs.Shutdown(sctx)
		c2()
		wg.Wait()
	}()
	go func() { <-ctx.Done(); ln.Close() }()
	var backoff connlimit.AcceptBackoff
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if backoff.Retry(err, ctx.Done(), func(err error) { s.log.Warn("Cannot accept; retrying", "err", err) }) {
				continue
			}
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("relay: accept: %w", err)
		}
		backoff.Accepted()
		release, ok := s.pending.Acquire(c.RemoteAddr())
		if !ok {
			c.Close()
			continue
		}
		go s.handleConn(ctx, c, api, release)
	}
}

// handleConn routes c; release uncounts it from its client address's
// pending connections, once it no longer is one.
func (s *Server) handleConn(ctx context.Context, c net.Conn, api *connListener, release func()) {
	handedOff := false
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("Panic on connection", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
		if !handedOff {
			c.Close()
		}
		release()
	}()
	deadline := time.Now().Add(peekTimeout)
	c.SetDeadline(deadline)
	name, peeked, err := PeekClientHello(c)
	if err != nil {
		return
	}
	if name == s.cfg.APIName || s.isAgentName(name) {
		if s.cfg.Certificate == nil {
			s.stall(c)
			return
		}
		tc := tls.Server(&prefixConn{Conn: c, r: io.MultiReader(bytes.NewReader(peeked), c)}, &tls.Config{
			MinVersion:     tls.VersionTLS12,
			GetCertificate: s.cfg.Certificate,
			NextProtos:     []string{"h2", "http/1.1", relay.TunnelALPN},
		})
		hctx, cancel := context.WithDeadline(ctx, deadline)
		err := tc.HandshakeContext(hctx)
		cancel()
		if err != nil {
			return
		}
		release()
		c.SetDeadline(time.Time{})
		if tc.ConnectionState().NegotiatedProtocol == relay.TunnelALPN && name == s.cfg.APIName {
			if s.serveTunnel(ctx, tc) {
				handedOff = true
			} else {
				tc.Close()
			}
			return
		}
		if api.put(ctx, tc) {
			handedOff = true
		}
		return
	}
	if label, ok := labelOf(name, s.cfg.Zone); ok {
		if tun := s.tunnels.get(label); tun != nil {
			// Past the cap of connections from one address to one
			// node, closed at once (docs/relay.md, "The TLS port").
			// An online node completes TLS anyway, so this tells a
			// stranger nothing a decoy would hide.
			unsplice, ok := s.spliced.AcquireFor(c.RemoteAddr(), label)
			if !ok {
				return
			}
			defer unsplice()
			release()
			s.splice(c, peeked, tun)
			return
		}
		if s.mesh != nil {
			unsplice, ok := s.spliced.AcquireFor(c.RemoteAddr(), label)
			if !ok {
				return // past the cap: closed at once, as above
			}
			forwarded := s.mesh.forward(ctx, c, peeked, label, release)
			unsplice()
			if forwarded {
				return
			}
		}
	}
	s.stall(c)
}

func (s *Server) isAgentName(name string) bool {
	_, ok := labelOf(name, "agents."+s.cfg.Zone)
	return ok
}

// stall holds a connection for a name with no live tunnel: read and drop
// whatever comes until the client gives up or StallTimeout passes, never
// answering. An unknown, a decoy and an offline name are all treated so.
// Stalled connections are bounded, all together and (as connections
// still in their handshake) per client address; past either bound one is
// closed at once, whatever its name.
func (s *Server) stall(c net.Conn) {
	select {
	case s.stalled <- struct{}{}:
		defer func() { <-s.stalled }()
	default:
		return
	}
	c.SetReadDeadline(time.Now().Add(s.cfg.StallTimeout))
	buf := make([]byte, 256)
	for {
		if _, err := c.Read(buf); err != nil {
			return
		}
	}
}

// connListener hands connections the relay terminated itself to its
// http.Server.
type connListener struct {
	addr   net.Addr
	ch     chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newConnListener(addr net.Addr) *connListener {
	return &connListener{addr: addr, ch: make(chan net.Conn), closed: make(chan struct{})}
}

func (l *connListener) put(ctx context.Context, c net.Conn) bool {
	select {
	case l.ch <- c:
		return true
	case <-l.closed:
	case <-ctx.Done():
	}
	return false
}

func (l *connListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *connListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *connListener) Addr() net.Addr { return l.addr }
