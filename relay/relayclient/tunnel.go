package relayclient

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"time"

	"github.com/hashicorp/yamux"

	"mailnode/relay"
)

// Back-off of the tunnel's reconnect loop: the first retry within
// backoffMin (a relay restart should cost agents well under 2 s), doubling
// to backoffMax, with jitter so that a relay's nodes do not all return in
// the same instant; reset after a tunnel stayed up healthyAfter.
const (
	backoffMin   = 250 * time.Millisecond
	backoffMax   = 60 * time.Second
	healthyAfter = 30 * time.Second
)

// backoff returns the wait before attempt n (0-based): a uniformly random
// duration up to min(backoffMax, backoffMin·2ⁿ), at least a tenth of it
// ("full jitter" with a floor).
func backoff(n int) time.Duration {
	d := backoffMax
	if n < 20 {
		d = min(backoffMax, backoffMin<<n)
	}
	return d/10 + rand.N(d-d/10+1)
}

// ErrNotRegistered means the relay knows no node with this key.
var ErrNotRegistered = errors.New("relay: node not registered")

// Tunnel keeps one tunnel to the relay up and hands its streams to a
// Listener.
type Tunnel struct {
	// Addr is host:port to dial (NodeStatus.Tunnel); Fallbacks are the
	// relay's other instances (NodeStatus.Tunnels), tried in turn when
	// one cannot be reached: a node whose instance dies is back on
	// another after its first retry.
	Addr      string
	Fallbacks []string
	Key       ed25519.PrivateKey
	// TLS is the client configuration for the relay's name; NextProtos
	// and ServerName are set by the tunnel.
	TLS *tls.Config
	// ServerName is the relay's own name, the TLS server name of every
	// tunnel whatever address it dials: instances have names of their
	// own for their tunnel addresses (r2.relay.example.net:443), but a
	// relay takes a tunnel only on its API name, for which they all hold
	// the certificate. Empty: the dialled host.
	ServerName string
	// Dial dials the relay; default a net.Dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Up is called with the node's name each time a tunnel is up, Down
	// when it goes down.
	Up   func(hostname string)
	Down func(err error)
	// Queue takes one queued envelope the relay delivers (sealed bytes)
	// and returns the reply envelope to acknowledge it with, nil for an
	// acknowledgement without a reply. An error leaves it
	// unacknowledged: the relay delivers it again later. A nil Queue
	// acknowledges nothing.
	Queue func(ctx context.Context, sealed []byte) (reply []byte, err error)
	// Log, if set, hears what a queue delivery held that was dropped.
	Log *slog.Logger
}

// Run keeps the tunnel up, reconnecting with back-off, until ctx ends
// (nil) or the relay says the key is not registered (ErrNotRegistered).
func (t *Tunnel) Run(ctx context.Context, l *Listener) error {
	addrs := append([]string{t.Addr}, t.Fallbacks...)
	attempt, next := 0, 0
	for {
		start := time.Now()
		addr := addrs[next%len(addrs)]
		err := t.once(ctx, l, addr)
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, ErrNotRegistered) {
			return err
		}
		if t.Down != nil {
			t.Down(err)
		}
		if time.Since(start) > healthyAfter {
			attempt = 0
		}
		// The next address, after the usual back-off: its first step
		// is at most 250 ms, so a node whose instance died is on
		// another well within 2 s.
		next++
		wait := backoff(attempt)
		attempt++
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

// once dials, shakes hands and serves one tunnel until it breaks.
func (t *Tunnel) once(ctx context.Context, l *Listener, addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("tunnel address: %w", err)
	}
	dial := t.Dial
	if dial == nil {
		d := &net.Dialer{Timeout: 15 * time.Second, KeepAlive: 30 * time.Second}
		dial = d.DialContext
	}
	dctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	raw, err := dial(dctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("dial relay: %w", err)
	}
	cfg := &tls.Config{}
	if t.TLS != nil {
		cfg = t.TLS.Clone()
	}
	cfg.ServerName = host
	if t.ServerName != "" {
		cfg.ServerName = t.ServerName
	}
	cfg.NextProtos = []string{relay.TunnelALPN}
	cfg.MinVersion = tls.VersionTLS13
	batch := relay.NewBatchConn(raw)
	c := tls.Client(batch, cfg)
	if err := c.HandshakeContext(dctx); err != nil {
		raw.Close()
		return fmt.Errorf("relay TLS: %w", err)
	}
	if c.ConnectionState().NegotiatedProtocol != relay.TunnelALPN {
		c.Close()
		return errors.New("relay does not speak the tunnel protocol")
	}
	hostname, err := handshake(c, t.Key)
	if err != nil {
		c.Close()
		return err
	}
	batch.Batch()
	sess, err := yamux.Server(&relay.FrameWriter{Conn: c, Raw: batch}, muxConfig())
	if err != nil {
		c.Close()
		return fmt.Errorf("tunnel: %w", err)
	}
	defer sess.Close()
	if t.Up != nil {
		t.Up(hostname)
	}
	go func() {
		select {
		case <-ctx.Done():
			sess.Close()
		case <-sess.CloseChan():
		}
	}()
	for {
		st, err := sess.Accept()
		if err != nil {
			return fmt.Errorf("tunnel closed: %w", err)
		}
		go t.route(ctx, st, l)
	}
}

// routeTimeout bounds the wait for a stream's first byte.
const routeTimeout = 10 * time.Second

// route tells an agent's connection (a TLS record first) from the relay's
// delivery of queued envelopes (relay.QueuePreface first) and hands each
// to its server.
func (t *Tunnel) route(ctx context.Context, st net.Conn, l *Listener) {
	first := make([]byte, 1)
	st.SetReadDeadline(time.Now().Add(routeTimeout))
	if _, err := io.ReadFull(st, first); err != nil {
		st.Close()
		return
	}
	st.SetReadDeadline(time.Time{})
	if first[0] != relay.QueuePreface[0] {
		if !l.deliver(&peekedConn{Conn: st, first: first}) {
			st.Close()
		}
		return
	}
	defer st.Close()
	rest := make([]byte, len(relay.QueuePreface)-1)
	st.SetDeadline(time.Now().Add(routeTimeout))
	if _, err := io.ReadFull(st, rest); err != nil || string(first)+string(rest) != relay.QueuePreface || t.Queue == nil {
		return
	}
	st.SetDeadline(time.Time{})
	t.serveQueue(ctx, st)
}

// peekedConn gives back the byte route read before the rest of the
// stream, and reports a passed read deadline as a TCP socket does.
type peekedConn struct {
	net.Conn
	first []byte
}

func (c *peekedConn) Read(p []byte) (int, error) {
	if len(c.first) > 0 {
		n := copy(p, c.first)
		c.first = c.first[n:]
		return n, nil
	}
	n, err := c.Conn.Read(p)
	if errors.Is(err, yamux.ErrTimeout) {
		// yamux's timeout is not Temporary, and crypto/tls fails every
		// later read after a read error that is not. net/http ends each
		// HTTP/1.1 request by interrupting its background read with a
		// past deadline: with yamux's error, the next request on the
		// connection failed. A socket's timeout is Temporary, and the
		// connection lives on (issue 40).
		err = os.ErrDeadlineExceeded
	}
	return n, err
}

// handshake sends the channel-bound hello and reads the welcome.
func handshake(c *tls.Conn, key ed25519.PrivateKey) (string, error) {
	c.SetDeadline(time.Now().Add(15 * time.Second))
	defer c.SetDeadline(time.Time{})
	hello, err := relay.NewTunnelHello(c.ConnectionState(), key)
	if err != nil {
		return "", err
	}
	b, _ := json.Marshal(hello)
	if _, err := c.Write(append(b, '\n')); err != nil {
		return "", fmt.Errorf("tunnel hello: %w", err)
	}
	line, err := relay.ReadLine(c, relay.MaxHandshakeLine)
	if err != nil {
		return "", fmt.Errorf("tunnel welcome: %w", err)
	}
	var w relay.TunnelWelcome
	if err := json.Unmarshal(line, &w); err != nil {
		return "", errors.New("tunnel welcome is not JSON")
	}
	switch {
	case w.Error == "not_registered":
		return "", ErrNotRegistered
	case w.Error != "" || w.Hostname == "":
		return "", fmt.Errorf("relay refused the tunnel: %q", w.Error)
	}
	return w.Hostname, nil
}

// muxConfig is the node's end of a tunnel: it accepts the streams.
func muxConfig() *yamux.Config {
	c := yamux.DefaultConfig()
	c.EnableKeepAlive, c.KeepAliveInterval = true, relay.TunnelKeepAlive
	c.ConnectionWriteTimeout, c.LogOutput = 15*time.Second, io.Discard
	c.MaxStreamWindowSize = relay.TunnelWindow
	return c
}
