package relayserver_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"slices"
	"syscall"
	"testing"
	"time"

	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
)

// benchNode is a node for the tunnel figures: one TLS server, with the
// same certificate and code, reachable directly on a loopback listener
// and through the relay's tunnel. A connection's first byte says what to
// do: 'D' download benchBytes, 'E' echo until closed.
type benchNode struct {
	host   string // the name under the relay
	direct string // the loopback listener's address
	relay  *relaylocal.Relay
	ca     *relaylocal.CA
}

const benchBytes = 64 << 20

func startBenchNode(b *testing.B) *benchNode {
	dir := b.TempDir()
	r := startLocal(b, relaylocal.Options{DataDir: dir})
	ca, _ := relaylocal.NewCA()
	k, _ := relayclient.NewKeys()
	host := registered(b, dir, "bench@example.com", k)
	cert, err := ca.Issue(host)
	if err != nil {
		b.Fatal(err)
	}
	tlsConfig := &tls.Config{Certificates: []tls.Certificate{*cert}, MinVersion: tls.VersionTLS13}

	ln := relayclient.NewListener()
	up := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, port(r.Addr)), Key: k.Node, TLS: r.CA.ClientTLS(), Dial: r.Dial,
		Up: func(h string) { send(up, h) }}
	done := make(chan struct{})
	go func() { tun.Run(ctx, ln); close(done) }()
	direct, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cancel(); <-done; ln.Close(); direct.Close() })
	go serveBench(tls.NewListener(ln.View(), tlsConfig))
	go serveBench(tls.NewListener(direct, tlsConfig))
	select {
	case <-up:
	case <-time.After(10 * time.Second):
		b.Fatal("tunnel not up")
	}
	return &benchNode{host: host, direct: direct.Addr().String(), relay: r, ca: ca}
}

func serveBench(ln net.Listener) {
	chunk := bytes.Repeat([]byte("mailnode"), 4096) // 32 KiB
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			op := make([]byte, 1)
			if _, err := io.ReadFull(c, op); err != nil {
				return
			}
			switch op[0] {
			case 'D':
				for sent := 0; sent < benchBytes; sent += len(chunk) {
					if _, err := c.Write(chunk); err != nil {
						return
					}
				}
			case 'E':
				io.Copy(c, c)
			}
		}()
	}
}

// dial opens a TLS connection to the node, directly or through the
// relay (the relay's DNS and SNI port, then the tunnel).
func (n *benchNode) dial(b *testing.B, viaRelay bool) *tls.Conn {
	var (
		c   net.Conn
		err error
	)
	if viaRelay {
		c, err = n.relay.Dial(context.Background(), "tcp", net.JoinHostPort(n.host, "443"))
	} else {
		c, err = net.Dial("tcp", n.direct)
	}
	if err != nil {
		b.Fatal(err)
	}
	cfg := n.ca.ClientTLS()
	cfg.ServerName = n.host
	tc := tls.Client(c, cfg)
	if err := tc.Handshake(); err != nil {
		b.Fatal(err)
	}
	return tc
}

// BenchmarkTunnelThroughput is the throughput figure of docs/benchmarks.md:
// 64 MiB downloaded from the node over TLS, directly on loopback and
// through the relay, alternating, 5 rounds each; it reports the median
// MB/s of each and their ratio. Run with -benchtime 1x.
func BenchmarkTunnelThroughput(b *testing.B) {
	n := startBenchNode(b)
	// cpu is the process's CPU time (user and system): node, relay and
	// client together.
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	download := func(viaRelay bool) (mbps, cpuPerGB float64) {
		c := n.dial(b, viaRelay)
		defer c.Close()
		start, cpu0 := time.Now(), cpu()
		c.Write([]byte{'D'})
		got, err := io.Copy(io.Discard, c)
		if err != nil || got != benchBytes {
			b.Fatalf("downloaded %d bytes: %v", got, err)
		}
		return float64(benchBytes) / 1e6 / time.Since(start).Seconds(), (cpu() - cpu0).Seconds() / (float64(benchBytes) / 1e9)
	}
	var direct, relayed, directCPU, relayCPU []float64
	for b.Loop() {
		for range 5 {
			m, c := download(false)
			direct, directCPU = append(direct, m), append(directCPU, c)
			m, c = download(true)
			relayed, relayCPU = append(relayed, m), append(relayCPU, c)
		}
	}
	d, r := median(direct), median(relayed)
	b.ReportMetric(d, "direct-MB/s")
	b.ReportMetric(r, "relay-MB/s")
	b.ReportMetric(r/d, "ratio")
	b.ReportMetric(median(directCPU), "direct-cpu-s/GB")
	b.ReportMetric(median(relayCPU), "relay-cpu-s/GB")
}

// BenchmarkTunnelLatency is the added-latency figure: round trips of 64
// bytes on an open TLS connection, and new connections (TCP, TLS
// handshake, one round trip), directly and through the relay,
// interleaved; it reports p50 of each and what the relay adds.
func BenchmarkTunnelLatency(b *testing.B) {
	n := startBenchNode(b)
	msg := bytes.Repeat([]byte{'x'}, 64)
	buf := make([]byte, len(msg))
	rtt := func(c *tls.Conn) time.Duration {
		start := time.Now()
		if _, err := c.Write(msg); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	open := func(viaRelay bool) *tls.Conn {
		c := n.dial(b, viaRelay)
		c.Write([]byte{'E'})
		return c
	}
	var rttD, rttR, connD, connR []time.Duration
	for b.Loop() {
		cd, cr := open(false), open(true)
		for range 100 { // warm-up
			rtt(cd)
			rtt(cr)
		}
		for range 2000 {
			rttD = append(rttD, rtt(cd))
			rttR = append(rttR, rtt(cr))
		}
		cd.Close()
		cr.Close()
		for range 200 {
			for _, viaRelay := range []bool{false, true} {
				start := time.Now()
				c := open(viaRelay)
				rtt(c)
				took := time.Since(start)
				c.Close()
				if viaRelay {
					connR = append(connR, took)
				} else {
					connD = append(connD, took)
				}
			}
		}
	}
	p50 := func(v []time.Duration) float64 {
		slices.Sort(v)
		return float64(v[len(v)/2].Microseconds())
	}
	b.ReportMetric(p50(rttD), "rtt-direct-µs")
	b.ReportMetric(p50(rttR), "rtt-relay-µs")
	b.ReportMetric(p50(rttR)-p50(rttD), "rtt-added-µs")
	b.ReportMetric(p50(connD), "connect-direct-µs")
	b.ReportMetric(p50(connR), "connect-relay-µs")
	b.ReportMetric(p50(connR)-p50(connD), "connect-added-µs")
}

// BenchmarkReconnect is the reconnect figure: a node's tunnel has been
// up for longer than the client's healthy period (so its back-off starts
// over, as after any ordinary uptime), the relay stops and starts again
// on the same addresses and data, and the time from the stop until the
// node's tunnel is up again is measured, 3 times (a minute and a half);
// it reports the median and the worst.
func BenchmarkReconnect(b *testing.B) {
	dir := b.TempDir()
	r, err := relaylocal.Start(b.Context(), relaylocal.Options{DataDir: dir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	ca, _ := relaylocal.NewCA()
	k, _ := relayclient.NewKeys()
	registered(b, dir, "ann@example.com", k)
	n := runNode(b, r, k, ca, "hello")
	n.up(b)
	var took []time.Duration
	for b.Loop() {
		for range 3 {
			time.Sleep(31 * time.Second) // the client's healthyAfter is 30 s
			addr, dnsAddr, rca := r.Addr, r.DNSAddr, r.CA
			r.Close()
			stopped := time.Now()
			<-n.errs
			if r, err = relaylocal.Start(b.Context(), relaylocal.Options{DataDir: dir, Addr: addr, DNSAddr: dnsAddr, CA: rca}, nil); err != nil {
				b.Fatal(err)
			}
			n.up(b)
			took = append(took, time.Since(stopped))
		}
	}
	r.Close()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Milliseconds()), "median-ms")
	b.ReportMetric(float64(took[len(took)-1].Milliseconds()), "worst-ms")
}
