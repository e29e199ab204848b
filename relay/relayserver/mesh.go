package relayserver

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"sync"
	"time"

	"github.com/hashicorp/yamux"

	"mailnode/relay"
	"mailnode/relay/relaystore"
)

// MeshConfig joins this relay to the other instances that share its store
// (docs/relay.md, "Several instances"). An agent's connection that lands
// on an instance without the node's tunnel is forwarded, over a TLS link
// between the two instances, to the one the tunnel directory names.
type MeshConfig struct {
	// ID names this instance in the directory; default random.
	ID string
	// Addr is host:port where the other instances reach this one's mesh
	// listener (ServeMesh).
	Addr string
	// Lease is how long the directory trusts this instance without a
	// heartbeat (one every Lease/3); default 3 s. An instance that dies
	// stops answering for its nodes within a lease.
	Lease time.Duration
}

// mesh is this instance's side of the relay mesh.
type mesh struct {
	s     *Server
	id    string
	addr  string
	lease time.Duration
	cert  tls.Certificate
	fp    []byte // SHA-256 of cert's DER
	// published is closed once the instance's first heartbeat is in the
	// store: a peer verifies a link by the row it reads there, so a link
	// dialed before it is refused ("instance not found"; a CI run's agent
	// reached a just-started instance before its first beat committed).
	published chan struct{}

	mu    sync.Mutex
	peers map[string]*yamux.Session // instance id → link
}

// meshHello is the first line of a mesh stream: what the stream carries.
type meshHello struct {
	Label string `json:"label,omitempty"` // an agent's connection for this node
	Kick  string `json:"kick,omitempty"`  // envelopes wait for this node
}

func newMesh(s *Server, cfg MeshConfig) (*mesh, error) {
	if cfg.Addr == "" {
		return nil, errors.New("relay mesh: the instance's mesh address is required")
	}
	if cfg.ID == "" {
		b := make([]byte, 8)
		rand.Read(b)
		cfg.ID = hex.EncodeToString(b)
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 3 * time.Second
	}
	// A key of its own for each run: peers trust the certificate whose
	// digest the instance wrote into the shared store.
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cfg.ID},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(10 * 365 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, pub, priv)
	if err != nil {
		return nil, err
	}
	fp := sha256.Sum256(der)
	return &mesh{s: s, id: cfg.ID, addr: cfg.Addr, lease: cfg.Lease, fp: fp[:],
		cert: tls.Certificate{Certificate: [][]byte{der}, PrivateKey: priv}, peers: map[string]*yamux.Session{},
		published: make(chan struct{})}, nil
}

// heartbeat renews this instance in the directory until ctx ends.
func (m *mesh) heartbeat(ctx context.Context) error {
	beat := func() error {
		hctx, cancel := context.WithTimeout(ctx, m.lease/3)
		defer cancel()
		return m.s.store.Heartbeat(hctx, relaystore.Instance{ID: m.id, MeshAddr: m.addr, CertFP: m.fp,
			Expires: m.s.cfg.Now().Add(m.lease)})
	}
	if err := beat(); err != nil {
		return fmt.Errorf("relay mesh: %w", err)
	}
	close(m.published)
	t := time.NewTicker(m.lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			if err := beat(); err != nil && ctx.Err() == nil {
				m.s.log.Warn("Mesh heartbeat failed", "err", err)
			}
		}
	}
}

// verifyPeer accepts a certificate whose digest a live instance of the
// same name published in the store.
func (m *mesh) verifyPeer(ctx context.Context, rawCerts [][]byte, want string) error {
	if len(rawCerts) == 0 {
		return errors.New("relay mesh: no certificate")
	}
	cert, err := x509.ParseCertificate(rawCerts[0])
	if err != nil {
		return err
	}
	id := cert.Subject.CommonName
	if want != "" && id != want {
		return fmt.Errorf("relay mesh: peer says it is %q, want %q", id, want)
	}
	in, err := m.s.store.Instance(ctx, id, m.s.cfg.Now())
	if err != nil {
		return fmt.Errorf("relay mesh: instance %q: %w", id, err)
	}
	fp := sha256.Sum256(rawCerts[0])
	if subtle.ConstantTimeCompare(fp[:], in.CertFP) != 1 {
		return fmt.Errorf("relay mesh: instance %q's certificate is not the one it published", id)
	}
	return nil
}

func (m *mesh) tlsConfig(ctx context.Context, peer string) *tls.Config {
	return &tls.Config{
		MinVersion:         tls.VersionTLS13,
		Certificates:       []tls.Certificate{m.cert},
		ClientAuth:         tls.RequireAnyClientCert,
		InsecureSkipVerify: true, // verified below, against the store
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			return m.verifyPeer(ctx, raw, peer)
		},
		NextProtos: []string{"mailnode-mesh/1"},
	}
}

// ServeMesh runs this instance's heartbeat and accepts its peers' links
// on ln until ctx ends. Config.Mesh must be set.
func (s *Server) ServeMesh(ctx context.Context, ln net.Listener) error {
	m := s.mesh
	if m == nil {
		return errors.New("relay mesh: not configured")
	}
	errc := make(chan error, 1)
	go func() { errc <- m.heartbeat(ctx) }()
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			select {
			case err := <-errc:
				return err
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("relay mesh: %w", err)
		}
		go m.servePeer(ctx, c)
	}
}

// servePeer runs one peer's link: each stream is an agent's connection to
// a node whose tunnel is here, or a kick for a node's queue.
func (m *mesh) servePeer(ctx context.Context, c net.Conn) {
	tc := tls.Server(c, m.tlsConfig(ctx, ""))
	hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	err := tc.HandshakeContext(hctx)
	cancel()
	if err != nil {
		m.s.log.Info("Mesh link refused", "remote", c.RemoteAddr().String(), "err", err)
		c.Close()
		return
	}
	sess, err := yamux.Server(tc, meshMux())
	if err != nil {
		tc.Close()
		return
	}
	defer sess.Close()
	for {
		st, err := sess.Accept()
		if err != nil {
			return
		}
		go m.serveStream(st)
	}
}

func (m *mesh) serveStream(st net.Conn) {
	st.SetReadDeadline(time.Now().Add(handshakeTimeout))
	line, err := relay.ReadLine(st, 512)
	var h meshHello
	if err != nil || json.Unmarshal(line, &h) != nil {
		st.Close()
		return
	}
	st.SetReadDeadline(time.Time{})
	switch {
	case h.Kick != "":
		st.Close()
		if tun := m.s.tunnels.get(h.Kick); tun != nil {
			m.s.kick(tun)
		}
	case h.Label != "":
		tun := m.s.tunnels.get(h.Label)
		if tun == nil {
			st.Close() // the node left: the agent's TLS fails as for an offline node
			return
		}
		m.s.splice(st, nil, tun)
	default:
		st.Close()
	}
}

// peer returns the link to instance in, dialing it if needed.
func (m *mesh) peer(ctx context.Context, in relaystore.Instance) (*yamux.Session, error) {
	m.mu.Lock()
	sess := m.peers[in.ID]
	m.mu.Unlock()
	if sess != nil && !sess.IsClosed() {
		return sess, nil
	}
	select {
	case <-m.published:
	case <-ctx.Done():
		return nil, fmt.Errorf("relay mesh: this instance is not yet in the directory: %w", ctx.Err())
	}
	d := &net.Dialer{Timeout: 5 * time.Second}
	raw, err := d.DialContext(ctx, "tcp", in.MeshAddr)
	if err != nil {
		return nil, err
	}
	tc := tls.Client(raw, m.tlsConfig(context.Background(), in.ID))
	hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	err = tc.HandshakeContext(hctx)
	cancel()
	if err != nil {
		raw.Close()
		return nil, err
	}
	sess, err = yamux.Client(tc, meshMux())
	if err != nil {
		tc.Close()
		return nil, err
	}
	m.mu.Lock()
	if old := m.peers[in.ID]; old != nil && !old.IsClosed() {
		m.mu.Unlock()
		sess.Close()
		return old, nil
	}
	m.peers[in.ID] = sess
	m.mu.Unlock()
	return sess, nil
}

// owner is the live instance other than this one that holds label's
// tunnel, if any.
func (m *mesh) owner(ctx context.Context, label string) (relaystore.Instance, bool) {
	in, err := m.s.store.TunnelAt(ctx, label, m.s.cfg.Now())
	if err != nil || in.ID == m.id {
		return relaystore.Instance{}, false
	}
	return in, true
}

// forward carries an agent's connection for label, whose ClientHello was
// peeked, to the instance holding the node's tunnel, calling handedOff
// once it is that instance's. It reports false if no other instance
// holds it.
func (m *mesh) forward(ctx context.Context, c net.Conn, peeked []byte, label string, handedOff func()) bool {
	lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	in, ok := m.owner(lctx, label)
	if !ok {
		return false
	}
	sess, err := m.peer(lctx, in)
	if err != nil {
		m.s.log.Debug("Cannot reach the instance holding a tunnel", "instance", in.ID, "err", err)
		return false
	}
	st, err := sess.OpenStream()
	if err != nil {
		return false
	}
	hello, _ := json.Marshal(meshHello{Label: label})
	if _, err := st.Write(append(append(hello, '\n'), peeked...)); err != nil {
		st.Close()
		return false
	}
	handedOff()
	c.SetDeadline(time.Time{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(st, c)
		st.Close()
	}()
	io.CopyBuffer(c, st, make([]byte, 64<<10))
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	}
	c.Close()
	<-done
	return true
}

// kickRemote tells the instance holding label's tunnel that envelopes
// wait for it.
func (m *mesh) kickRemote(ctx context.Context, label string) {
	in, ok := m.owner(ctx, label)
	if !ok {
		return
	}
	sess, err := m.peer(ctx, in)
	if err != nil {
		return
	}
	st, err := sess.OpenStream()
	if err != nil {
		return
	}
	defer st.Close()
	hello, _ := json.Marshal(meshHello{Kick: label})
	st.Write(append(hello, '\n'))
}

func (m *mesh) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.peers {
		s.Close()
	}
}

func meshMux() *yamux.Config {
	c := yamux.DefaultConfig()
	c.LogOutput = io.Discard
	c.MaxStreamWindowSize = relay.TunnelWindow
	c.StreamOpenTimeout = 10 * time.Second
	return c
}
