// Package connlimittest is the slow-client flood that the relay's and
// the node's tests of package connlimit run: many connections from one
// loopback address that never finish a handshake, and the checks of a
// relay that other clients are still served while it lasts.
package connlimittest

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"os"
	"sync"
	"testing"
	"time"
)

// NeedAddr skips the test unless this host can use the loopback address
// ip (Linux routes all of 127.0.0.0/8 to itself; macOS only 127.0.0.1).
func NeedAddr(t testing.TB, ip string) {
	t.Helper()
	l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Skipf("no loopback address %s: %v", ip, err)
	}
	l.Close()
}

// ClientHello is the first flight of a real TLS client for name.
func ClientHello(t testing.TB, name string) []byte {
	t.Helper()
	a, b := net.Pipe()
	go func() {
		tls.Client(a, &tls.Config{ServerName: name, InsecureSkipVerify: true}).Handshake()
		a.Close()
	}()
	b.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 64<<10)
	n, err := b.Read(buf)
	b.Close()
	if err != nil || n < 5 || buf[0] != 22 {
		t.Fatalf("no client hello for %s: %d bytes, %v", name, n, err)
	}
	return buf[:n]
}

// Dialer dials from the local address from (e.g. "127.0.0.2").
func Dialer(from string) *net.Dialer {
	return &net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
}

// FloodOptions shape a flood.
type FloodOptions struct {
	Addr  string // the server's address
	From  string // the local address all connections come from
	Conns int    // connections kept trying at once
	// Drip is sent one byte every DripEvery on every other connection
	// (the others send nothing): a ClientHello too slow to finish.
	Drip      []byte
	DripEvery time.Duration
	// Pause is the wait before a connection the server closed is
	// opened again; MaxDials bounds the connections each slot opens.
	Pause    time.Duration
	MaxDials int
}

// Flood is FloodOptions.Conns slow clients, each connecting again a
// pause after the server closes it, until Stop.
type Flood struct {
	o      FloodOptions
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex        // guards the fields below
	open     map[int]time.Time // slot → when its connection opened
	dialed   int               // connections opened
	failed   int               // dials that failed
	longest  time.Duration     // longest a dripping connection lived
	started  map[int]bool      // slots that have dialed once
	dripDone int               // dripping connections that sent all of Drip
}

// StartFlood starts a flood; t's cleanup stops it.
func StartFlood(t testing.TB, o FloodOptions) *Flood {
	t.Helper()
	NeedAddr(t, o.From)
	if o.DripEvery == 0 {
		o.DripEvery = time.Second
	}
	if o.Pause == 0 {
		o.Pause = time.Second
	}
	if o.MaxDials == 0 {
		o.MaxDials = 200
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := &Flood{o: o, cancel: cancel, open: map[int]time.Time{}, started: map[int]bool{}}
	d := Dialer(o.From)
	sem := make(chan struct{}, 64) // dials in flight
	for i := range o.Conns {
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			for range o.MaxDials {
				select {
				case sem <- struct{}{}:
				case <-ctx.Done():
					return
				}
				c, err := d.DialContext(ctx, "tcp", o.Addr)
				<-sem
				if err != nil {
					f.mu.Lock()
					f.failed++
					f.started[i] = true
					f.mu.Unlock()
				} else {
					f.hold(ctx, i, c)
				}
				select {
				case <-ctx.Done():
					return
				case <-time.After(o.Pause):
				}
			}
		}()
	}
	t.Cleanup(f.Stop)
	return f
}

// hold keeps c open, dripping if slot i does, until the server closes it
// or the flood stops.
func (f *Flood) hold(ctx context.Context, i int, c net.Conn) {
	defer c.Close()
	opened := time.Now()
	f.mu.Lock()
	f.open[i] = opened
	f.dialed++
	f.started[i] = true
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.open, i)
		f.mu.Unlock()
	}()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	drip := f.o.Drip
	if i%2 == 0 {
		drip = nil
	}
	buf := make([]byte, 4096)
	for sent := 0; ; {
		c.SetReadDeadline(time.Now().Add(f.o.DripEvery))
		_, err := c.Read(buf)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
			if sent < len(drip) {
				if _, err := c.Write(drip[sent : sent+1]); err == nil {
					sent++
					if sent == len(drip) {
						f.mu.Lock()
						f.dripDone++
						f.mu.Unlock()
					}
				}
			}
			continue
		}
		if err != nil {
			if ctx.Err() == nil && drip != nil {
				f.mu.Lock()
				f.longest = max(f.longest, time.Since(opened))
				f.mu.Unlock()
			}
			return
		}
		// The server sent bytes (a TLS alert, say): read on until it
		// closes.
	}
}

// Started reports whether every slot has opened a connection (or failed
// to) at least once.
func (f *Flood) Started() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.started) == f.o.Conns
}

// Held is how many connections are open now that opened at least d ago.
func (f *Flood) Held(d time.Duration) int {
	return len(f.heldSince(d))
}

// HeldSettled is Held counted twice, settle apart: only the connections
// open at both counts. A connection the server has just closed stays open
// on the flood's side until its goroutine reads the close, which on a
// loaded machine may come after the server has accepted the next one in
// its place: counted once, the server seemed to hold one over its cap
// (257 of 256 in a run beside other work).
func (f *Flood) HeldSettled(d, settle time.Duration) int {
	first := f.heldSince(d)
	time.Sleep(settle)
	n := 0
	for i, at := range f.heldSince(d) {
		if first[i] == at {
			n++
		}
	}
	return n
}

// heldSince are the open connections that opened at least d ago, by slot.
func (f *Flood) heldSince(d time.Duration) map[int]time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[int]time.Time{}
	for i, at := range f.open {
		if time.Since(at) >= d {
			out[i] = at
		}
	}
	return out
}

// Stats are a flood's counts so far.
type Stats struct {
	Dialed, Failed int
	// LongestDrip is the longest a dripping connection lived before the
	// server closed it.
	LongestDrip time.Duration
	// DripDone counts dripping connections that sent all of Drip.
	DripDone int
}

func (f *Flood) Stats() Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	return Stats{Dialed: f.dialed, Failed: f.failed, LongestDrip: f.longest, DripDone: f.dripDone}
}

// Stop closes every connection and waits for the flood's goroutines.
func (f *Flood) Stop() {
	f.cancel()
	f.wg.Wait()
}
