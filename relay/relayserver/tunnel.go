package relayserver

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/yamux"

	"mailnode/relay"
	"mailnode/relay/relaystore"
)

// handshakeTimeout bounds the tunnel handshake after TLS.
const handshakeTimeout = 10 * time.Second

// tunnels holds the live tunnel of each node name. The newest tunnel for
// a name wins: a node that reconnects (or a new key that took the name
// over) replaces a stale session at once instead of waiting for its
// keepalive to fail.
type tunnels struct {
	log *slog.Logger

	every   time.Duration // the keeper's period and ping time-out
	mu      sync.Mutex    // guards byLabel
	byLabel map[string]*tunnel
	// onDown, if set, hears each label whose tunnel went down, on a
	// goroutine of its own.
	onDown func(label string)
}

// tunnel is one node's live session. ready is closed once the node has
// its welcome: before that no stream may be opened, as a stream's first
// frame must not overtake the welcome line; and the node reports itself
// connected only after the relay can already splice to it.
type tunnel struct {
	label string
	sess  *yamux.Session
	ready chan struct{}
	// delivering is set while a goroutine hands the node its queued
	// envelopes; again asks it to look once more (queue.go).
	delivering, again atomic.Bool
}

func newTunnels(log *slog.Logger, every time.Duration) *tunnels {
	if every <= 0 {
		every = relay.TunnelKeepAlive
	}
	return &tunnels{log: log, every: every, byLabel: map[string]*tunnel{}}
}

func (t *tunnels) add(label string, tun *tunnel) {
	t.mu.Lock()
	old := t.byLabel[label]
	t.byLabel[label] = tun
	t.mu.Unlock()
	if old != nil {
		old.sess.Close()
	}
}

// get returns label's live tunnel. A session that has closed since the
// keeper last looked is forgotten here, so an offline node's name stalls
// at once, as an unknown name does.
func (t *tunnels) get(label string) *tunnel {
	t.mu.Lock()
	tun := t.byLabel[label]
	t.mu.Unlock()
	if tun != nil && tun.sess.IsClosed() {
		t.down(tun)
		return nil
	}
	return tun
}

func (t *tunnels) connected(label string) bool { return t.get(label) != nil }

// count is the number of live tunnels.
func (t *tunnels) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, tun := range t.byLabel {
		if !tun.sess.IsClosed() {
			n++
		}
	}
	return n
}

// down forgets a closed tunnel, once.
func (t *tunnels) down(tun *tunnel) {
	t.mu.Lock()
	was := t.byLabel[tun.label] == tun
	if was {
		delete(t.byLabel, tun.label)
	}
	t.mu.Unlock()
	if was {
		t.log.Info("Tunnel down", "label", tun.label)
		if t.onDown != nil {
			go t.onDown(tun.label)
		}
	}
}

func (t *tunnels) all() []*tunnel {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := make([]*tunnel, 0, len(t.byLabel))
	for _, tun := range t.byLabel {
		all = append(all, tun)
	}
	return all
}

// keepPingers bounds the pings in flight.
const keepPingers = 64

// keep checks every tunnel each period until ctx ends:
// a closed session is forgotten, a live one pinged and closed if the
// ping fails. One keeper for all tunnels replaces a goroutine per
// tunnel waiting for its close and yamux's keepalive goroutine per
// session: two goroutine stacks per idle tunnel, most of its memory.
func (t *tunnels) keep(ctx context.Context) {
	tick := time.NewTicker(t.every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			t.closeAll()
			return
		case <-tick.C:
		}
		sem := make(chan struct{}, keepPingers)
		var wg sync.WaitGroup
	sweep:
		for _, tun := range t.all() {
			if tun.sess.IsClosed() {
				t.down(tun)
				continue
			}
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				// Without a slot the ping's release would block on an
				// empty semaphore, and so would shutdown.
				break sweep
			}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				if _, err := tun.sess.Ping(); err != nil {
					tun.sess.Close()
					t.down(tun)
				}
			}()
		}
		wg.Wait()
	}
}

// drop closes label's tunnel.
func (t *tunnels) drop(label string) {
	t.mu.Lock()
	tun := t.byLabel[label]
	delete(t.byLabel, label)
	t.mu.Unlock()
	if tun != nil {
		tun.sess.Close()
	}
}

func (t *tunnels) closeAll() {
	t.mu.Lock()
	all := t.byLabel
	t.byLabel = map[string]*tunnel{}
	t.mu.Unlock()
	for _, tun := range all {
		tun.sess.Close()
	}
}

// serveTunnel starts a node's tunnel on a TLS connection that negotiated
// relay.TunnelALPN: the hello proves the node key over this very TLS
// connection, the key names the node, and the relay then opens a yamux
// stream to the node for each agent connection to its name. It reports
// whether the tunnel is up: the session then owns c, and the keeper
// notices when it ends; no goroutine waits for it.
func (s *Server) serveTunnel(ctx context.Context, c *tls.Conn) bool {
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	line, err := relay.ReadLine(c, relay.MaxHandshakeLine)
	if err != nil {
		s.log.Debug("Tunnel handshake failed", "remote", c.RemoteAddr().String(), "err", err)
		return false
	}
	welcome := func(w relay.TunnelWelcome) error {
		b, _ := json.Marshal(w)
		_, err := c.Write(append(b, '\n'))
		return err
	}
	key, err := relay.ParseTunnelHello(line, c.ConnectionState())
	if err != nil {
		welcome(relay.TunnelWelcome{Error: "hello refused"})
		s.log.Info("Tunnel refused", "remote", c.RemoteAddr().String(), "err", err)
		return false
	}
	n, err := s.store.NodeByKey(ctx, key)
	if err != nil {
		if errors.Is(err, relaystore.ErrNotFound) {
			welcome(relay.TunnelWelcome{Error: "not_registered"})
		} else {
			s.log.Error("Cannot read node", "err", err)
			welcome(relay.TunnelWelcome{Error: "unavailable"})
		}
		return false
	}
	sess, err := yamux.Client(c, muxConfig(s.tunnels.every))
	if err != nil {
		s.log.Error("Cannot start tunnel", "err", err)
		return false
	}
	tun := &tunnel{label: n.Label, sess: sess, ready: make(chan struct{})}
	s.tunnels.add(n.Label, tun)
	if s.mesh != nil {
		// The directory names this instance before the node hears it
		// is connected: agents landing on any instance find it.
		cctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
		err := s.store.ClaimTunnel(cctx, n.Label, s.mesh.id)
		cancel()
		if err != nil {
			s.log.Warn("Cannot claim a tunnel in the directory", "label", n.Label, "err", err)
		}
	}
	if err := welcome(relay.TunnelWelcome{Hostname: s.Hostname(n.Label)}); err != nil {
		sess.Close()
		s.tunnels.down(tun)
		return true // the session closed c
	}
	c.SetDeadline(time.Time{})
	close(tun.ready)
	s.log.Info("Tunnel up", "hostname", s.Hostname(n.Label), "remote", c.RemoteAddr().String())
	s.kick(tun) // envelopes that waited while the node was away
	return true
}

// splice carries an agent's connection, whose ClientHello the relay has
// read (peeked), to the node over a new stream of its tunnel. The relay
// copies bytes; TLS is between the agent and the node.
func (s *Server) splice(c net.Conn, peeked []byte, tun *tunnel) {
	select {
	case <-tun.ready:
	case <-tun.sess.CloseChan():
		return
	case <-time.After(handshakeTimeout):
		return
	}
	st, err := tun.sess.OpenStream()
	if err != nil {
		s.log.Debug("Cannot open tunnel stream", "err", err)
		return
	}
	defer st.Close()
	s.counts.streams.Add(1)
	if _, err := st.Write(peeked); err != nil {
		return
	}
	c.SetDeadline(time.Time{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(st, c)
		st.Close() // FIN towards the node; its answer may still come
	}()
	// A stream's frames queue up while the agent's socket is busy; a
	// larger buffer takes several per system call.
	io.CopyBuffer(c, st, make([]byte, 64<<10))
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	}
	c.Close()
	<-done
}

// muxConfig is the relay's end of a tunnel: it opens the streams, so it
// bounds how long opening one may wait. yamux times a ping out after
// ConnectionWriteTimeout: the keeper's period.
func muxConfig(keepAlive time.Duration) *yamux.Config {
	c := yamux.DefaultConfig()
	c.EnableKeepAlive = false // tunnels.keep pings every tunnel
	c.StreamOpenTimeout = 10 * time.Second
	c.ConnectionWriteTimeout = keepAlive
	c.LogOutput = io.Discard
	c.MaxStreamWindowSize = relay.TunnelWindow
	return c
}
