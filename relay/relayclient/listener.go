package relayclient

import (
	"net"
	"sync"
)

// Listener is the tunnel's incoming streams as one net.Listener, across
// reconnects: the gateway serves it like its own socket, with the TLS of
// the node's relay name.
type Listener struct {
	ch     chan net.Conn
	closed chan struct{}
	once   sync.Once
}

// NewListener returns an open listener.
func NewListener() *Listener {
	return &Listener{ch: make(chan net.Conn), closed: make(chan struct{})}
}

// deliver hands c to Accept; false if the listener is closed.
func (l *Listener) deliver(c net.Conn) bool {
	select {
	case l.ch <- c:
		return true
	case <-l.closed:
		return false
	}
}

func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *Listener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *Listener) Addr() net.Addr { return tunnelAddr{} }

type tunnelAddr struct{}

func (tunnelAddr) Network() string { return "relay" }
func (tunnelAddr) String() string  { return "relay tunnel" }

// View is a listener on l's streams whose Close leaves l open, for a
// server that closes its listener when it stops and may be started again.
func (l *Listener) View() net.Listener {
	return &view{base: l, closed: make(chan struct{})}
}

type view struct {
	base   *Listener
	closed chan struct{}
	once   sync.Once
}

func (v *view) Accept() (net.Conn, error) {
	select {
	case c := <-v.base.ch:
		return c, nil
	case <-v.closed:
		return nil, net.ErrClosed
	case <-v.base.closed:
		return nil, net.ErrClosed
	}
}

func (v *view) Close() error {
	v.once.Do(func() { close(v.closed) })
	return nil
}

func (v *view) Addr() net.Addr { return tunnelAddr{} }
