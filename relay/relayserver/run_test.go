package relayserver_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
)

func newRunServer(t *testing.T) *relayserver.Server {
	t.Helper()
	st, err := relaystore.OpenSQLite(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := relayserver.New(t.Context(), relayserver.Config{Zone: "relay.example", Store: st}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// closedListener is a real listener, closed: its Accept fails at once, as
// a listener whose socket was taken away does.
func closedListener(t *testing.T) net.Listener {
	ln := listen(t)
	ln.Close()
	return ln
}

// refused waits until nothing accepts on addr any more.
func refused(addr string) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return true
		}
		c.Close()
	}
	return false
}

// TestRunListenerFails: a listener that fails stops Run with its error,
// and Run closes the others (a relay half up is not left running).
func TestRunListenerFails(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    func(t *testing.T) relayserver.Listeners
		want string
	}{
		{"tls", func(t *testing.T) relayserver.Listeners {
			return relayserver.Listeners{TLS: closedListener(t), HTTP: listen(t)}
		}, "relay: accept"},
		{"http", func(t *testing.T) relayserver.Listeners {
			return relayserver.Listeners{TLS: listen(t), HTTP: closedListener(t)}
		}, "relay http"},
		{"dns tcp", func(t *testing.T) relayserver.Listeners {
			return relayserver.Listeners{TLS: listen(t), DNSStream: closedListener(t)}
		}, "relay dns"},
		{"mesh without Config.Mesh", func(t *testing.T) relayserver.Listeners {
			return relayserver.Listeners{TLS: listen(t), Mesh: listen(t)}
		}, "relay mesh: not configured"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRunServer(t)
			l := tc.l(t)
			done := make(chan error, 1)
			go func() { done <- srv.Run(context.Background(), l) }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("Run() = %v, want an error with %q", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Run() did not return on a failed listener")
			}
			for _, ln := range []net.Listener{l.TLS, l.HTTP, l.Mesh} {
				if ln != nil && !refused(ln.Addr().String()) {
					t.Errorf("%s still accepts after Run returned", ln.Addr())
				}
			}
		})
	}
}

// TestRunStops: Run serves every listener given until ctx ends, then
// returns nil with each of them closed.
func TestRunStops(t *testing.T) {
	srv := newRunServer(t)
	pc, dnsLn, err := relayserver.ListenDNS("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := relayserver.Listeners{TLS: listen(t), HTTP: listen(t), DNSPacket: pc, DNSStream: dnsLn}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, l) }()

	resp, err := http.Get("http://" + l.HTTP.Addr().String() + relay.PathHealth)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s = %s, want 200", relay.PathHealth, resp.Status)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run() = %v on cancel, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run() did not return on cancel")
	}
	for _, ln := range []net.Listener{l.TLS, l.HTTP, l.DNSStream} {
		if !refused(ln.Addr().String()) {
			t.Errorf("%s still accepts after Run returned", ln.Addr())
		}
	}
	if _, err := pc.WriteTo([]byte("x"), pc.LocalAddr()); err == nil {
		t.Error("the DNS packet connection is still open after Run returned")
	}
}

// TestRunHTTPCapped: the plain HTTP listener holds at most
// Limits.HTTPConns connections together, from any addresses; one past
// it is closed at once, the ones held are still served, and a freed
// place is taken again.
func TestRunHTTPCapped(t *testing.T) {
	st, err := relaystore.OpenSQLite(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	const limit = 4
	srv, err := relayserver.New(t.Context(), relayserver.Config{Zone: "relay.example", Store: st,
		Limits: relayserver.Limits{HTTPConns: limit}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	l := relayserver.Listeners{HTTP: listen(t)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, l) }()
	t.Cleanup(func() { cancel(); <-done })
	addr := l.HTTP.Addr().String()

	// open dials addr and reports whether the relay closed the
	// connection within wait, reading nothing.
	open := func(wait time.Duration) (net.Conn, bool) {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetReadDeadline(time.Now().Add(wait))
		_, err = c.Read(make([]byte, 1))
		c.SetReadDeadline(time.Time{})
		return c, !errors.Is(err, os.ErrDeadlineExceeded)
	}
	var held []net.Conn
	for i := range limit {
		c, closed := open(100 * time.Millisecond)
		if closed {
			t.Fatalf("connection %d within the cap of %d: closed", i+1, limit)
		}
		held = append(held, c)
	}
	if _, closed := open(2 * time.Second); !closed {
		t.Fatalf("connection past the cap of %d: held, want closed at once", limit)
	}
	health := func(c net.Conn) error {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.WriteString(c, "GET "+relay.PathHealth+" HTTP/1.1\r\nHost: relay.example\r\n\r\n"); err != nil {
			return err
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return errors.New(resp.Status)
		}
		return nil
	}
	if err := health(held[1]); err != nil {
		t.Errorf("GET %s on a held connection: %v", relay.PathHealth, err)
	}
	held[0].Close()
	var closed bool
	var c net.Conn
	for range 20 { // the server notices the close on its next read
		if c, closed = open(100 * time.Millisecond); !closed {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if closed {
		t.Fatal("after one connection closed: closed, want a freed place")
	}
	if err := health(c); err != nil {
		t.Errorf("GET %s on the freed place: %v", relay.PathHealth, err)
	}
}
