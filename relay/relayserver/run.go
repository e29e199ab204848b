package relayserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"golang.org/x/sync/errgroup"
)

// Listeners are the sockets Run serves. A nil one is not served; the
// caller opens them (on :0 in tests, on fixed ports in production) and
// Run owns them from then on.
type Listeners struct {
	// TLS is the SNI port (:443 on the Internet): the agent API over
	// HTTPS, nodes' tunnels, and connections spliced to nodes.
	TLS net.Listener
	// HTTP serves the agent API in plain HTTP, for local testing or
	// behind a TLS-terminating proxy.
	HTTP net.Listener
	// DNSPacket and DNSStream answer the zone over UDP and TCP; see
	// ListenDNS for a pair on one port.
	DNSPacket net.PacketConn
	DNSStream net.Listener
	// Mesh accepts the other instances' links; Config.Mesh must be set.
	Mesh net.Listener
}

// Close closes every listener given, for a caller that fails before it
// could call Run; closing one already closed is harmless.
func (l Listeners) Close() {
	for _, c := range []io.Closer{l.TLS, l.HTTP, l.DNSPacket, l.DNSStream, l.Mesh} {
		if c != nil {
			c.Close()
		}
	}
}

// Run serves every listener in l, the maintenance loop (Maintain) and
// the request limiter's sweep until ctx ends or one of them fails.
// Either way it closes every listener, waits for its servers to stop,
// and returns the first error; nil when ctx ended. The command and
// relaylocal both run a relay this way, so a listener that fails stops
// the relay instead of leaving it half up. Run does not end the
// tunnels: Close does.
func (s *Server) Run(ctx context.Context, l Listeners) error {
	defer l.Close()
	g, gctx := errgroup.WithContext(ctx)
	if l.TLS != nil {
		g.Go(func() error { return s.ServeTLS(gctx, l.TLS) })
	}
	if l.HTTP != nil {
		hs := s.httpServer()
		// A cap on open connections together, none per address: behind
		// a TLS-terminating proxy every client has the proxy's address
		// (docs/relay.md "Running one", --http-listen).
		ln := newCapListener(l.HTTP, s.log.With("service", "http"), nil, s.cfg.Limits.HTTPConns)
		g.Go(func() error {
			if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("relay http: %w", err)
			}
			return nil
		})
		g.Go(func() error {
			// Requests in flight get five seconds to finish.
			<-gctx.Done()
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			hs.Shutdown(sctx)
			return nil
		})
	}
	if l.DNSPacket != nil || l.DNSStream != nil {
		g.Go(func() error { return s.ServeDNS(gctx, l.DNSPacket, l.DNSStream) })
	}
	if l.Mesh != nil {
		g.Go(func() error { return s.ServeMesh(gctx, l.Mesh) })
	}
	g.Go(func() error { return s.Maintain(gctx) })
	g.Go(func() error { return s.limits.sweepEvery(gctx) })
	return g.Wait()
}

// httpServer is the agent API's HTTP server, with the timeouts every
// listener of the relay shares.
func (s *Server) httpServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          newLogLogger(s.log),
	}
}

// ListenDNS listens on addr in UDP and TCP, the same port for both, as a
// DNS server must. With port 0 the UDP port is free but its TCP twin may
// be taken (by an outgoing connection's ephemeral port): it tries other
// ports.
func ListenDNS(addr string) (net.PacketConn, net.Listener, error) {
	var err error
	for range 20 {
		var pc net.PacketConn
		if pc, err = net.ListenPacket("udp", addr); err != nil {
			return nil, nil, fmt.Errorf("dns listen: %w", err)
		}
		var ln net.Listener
		if ln, err = net.Listen("tcp", pc.LocalAddr().String()); err == nil {
			return pc, ln, nil
		}
		pc.Close()
		if _, port, _ := net.SplitHostPort(addr); port != "0" {
			break
		}
	}
	return nil, nil, fmt.Errorf("dns listen: %w", err)
}
