package relayclient

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/hashicorp/yamux"

	"mailnode/relay/relaylocal"
)

// TestStreamReadDeadline: TLS served on an agent's tunnel stream lives on
// after a read interrupted by a past deadline, as it does on a TCP
// socket. net/http does this at the end of every HTTP/1.1 request; with
// yamux's own timeout error crypto/tls failed every later read, and each
// keep-alive connection through the relay died after its first request
// (issue 40).
func TestStreamReadDeadline(t *testing.T) {
	ca, err := relaylocal.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Issue("node.relay.test")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		pair func(t *testing.T) (server, client net.Conn)
	}{
		{"tcp", tcpPair},
		{"tunnel stream", streamPair},
	} {
		t.Run(tc.name, func(t *testing.T) {
			server, client := tc.pair(t)
			srv := tls.Server(server, &tls.Config{Certificates: []tls.Certificate{*cert}})
			cfg := ca.ClientTLS()
			cfg.ServerName = "node.relay.test"
			cl := tls.Client(client, cfg)
			defer srv.Close()
			defer cl.Close()
			go cl.Handshake()
			if err := srv.Handshake(); err != nil {
				t.Fatal(err)
			}

			// A read waiting for the next request, cut short as
			// net/http's abortPendingRead does.
			read := make(chan error, 1)
			go func() {
				_, err := srv.Read(make([]byte, 1))
				read <- err
			}()
			time.Sleep(50 * time.Millisecond)
			srv.SetReadDeadline(time.Unix(1, 0))
			var ne net.Error
			if err := <-read; !errors.As(err, &ne) || !ne.Timeout() {
				t.Fatalf("interrupted read: %v, want a timeout", err)
			}
			srv.SetReadDeadline(time.Time{})

			// The next request is read.
			go io.WriteString(cl, "GET")
			srv.SetReadDeadline(time.Now().Add(5 * time.Second))
			buf := make([]byte, 3)
			if _, err := io.ReadFull(srv, buf); err != nil || string(buf) != "GET" {
				t.Fatalf("read after the interrupted one: %q, %v", buf, err)
			}
		})
	}
}

func tcpPair(t *testing.T) (net.Conn, net.Conn) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	return server, client
}

// streamPair is a stream of a yamux session as route hands it to the
// gateway (a peekedConn), and the relay's end of it.
func streamPair(t *testing.T) (net.Conn, net.Conn) {
	a, b := tcpPair(t)
	relaySide, err := yamux.Client(a, yamux.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	nodeSide, err := yamux.Server(b, muxConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { relaySide.Close(); nodeSide.Close() })
	client, err := relaySide.OpenStream()
	if err != nil {
		t.Fatal(err)
	}
	st, err := nodeSide.AcceptStream()
	if err != nil {
		t.Fatal(err)
	}
	return &peekedConn{Conn: st}, client
}
