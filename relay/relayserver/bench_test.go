package relayserver_test

import (
	"bufio"
	"context"
	"encoding/base32"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
	"mailnode/relay/relaystore/pgtest"
)

// BenchmarkResolve is the resolve figure of docs/benchmarks.md: 16
// clients on keep-alive HTTP to the server Run serves on its HTTP
// listener (what --http-listen serves; not httptest's, whose own lock on
// every connection's state change would show in a mutex profile), half
// of the addresses registered and half unknown, limiters set out of the
// way. It reports requests per second over the whole run.
func BenchmarkResolve(b *testing.B) {
	r := newRelay(b, "", relayserver.Limits{ClientRate: 1e9, ClientBurst: 1e9, GlobalRate: 1e9, GlobalBurst: 1e9})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- r.srv.Run(ctx, relayserver.Listeners{HTTP: ln}) }()
	defer func() { stop(); <-ran }()
	const clients, pool = 16, 1000
	addrs := make([]string, 0, 2*pool)
	for i := range pool {
		a := fmt.Sprintf("user%d@registered.example", i)
		r.register(b, a)
		addrs = append(addrs, a, fmt.Sprintf("user%d@unknownxx.example", i))
	}
	// The clients speak HTTP/1.1 on raw keep-alive connections, one
	// request in flight each (as wrk does), so that the load generator
	// takes little of the 2 cores the relay is measured on.
	host := ln.Addr().String()
	reqs := make([][]byte, len(addrs))
	for i, a := range addrs {
		body := `{"address":"` + a + `"}`
		reqs[i] = []byte(fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			relay.PathResolve, host, len(body), body))
	}
	conns := make([]net.Conn, clients)
	for i := range conns {
		c, err := net.Dial("tcp", host)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			br := bufio.NewReader(c)
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				if _, err := c.Write(reqs[i%int64(len(reqs))]); err != nil {
					b.Error(err)
					return
				}
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
}

// BenchmarkEnqueue is the queue's figure of docs/benchmarks.md: 16
// clients on keep-alive HTTP enqueue 4 KiB sealed envelopes, each for a
// name of its own (a name holds 32), each committed before its 202. It
// reports envelopes per second over the whole run.
func BenchmarkEnqueue(b *testing.B) {
	r := newRelay(b, "", relayserver.Limits{ClientRate: 1e9, ClientBurst: 1e9, GlobalRate: 1e9, GlobalBurst: 1e9})
	benchEnqueue(b, strings.TrimPrefix(r.http.URL, "http://"))
}

// BenchmarkEnqueuePostgres is BenchmarkEnqueue on PostgreSQL (a server
// the test starts on loopback, default settings but for fsync, which
// stays on).
func BenchmarkEnqueuePostgres(b *testing.B) {
	st, err := relaystore.OpenPostgres(b.Context(), pgtest.Need(b))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	srv, err := relayserver.New(b.Context(), relayserver.Config{Zone: "relay.example", Store: st,
		Limits: relayserver.Limits{ClientRate: 1e9, ClientBurst: 1e9, GlobalRate: 1e9, GlobalBurst: 1e9}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	benchEnqueue(b, strings.TrimPrefix(hs.URL, "http://"))
}

func benchEnqueue(b *testing.B, host string) {
	const clients = 16
	env := base64.RawURLEncoding.EncodeToString(make([]byte, 4096))
	conns := make([]net.Conn, clients)
	for i := range conns {
		c, err := net.Dial("tcp", host)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
	}
	run := fmt.Sprintf("%08x", time.Now().UnixNano()&0xffffffff)
	var next atomic.Int64
	var wg sync.WaitGroup
	b.SetBytes(4096)
	b.ResetTimer()
	start := time.Now()
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			br := bufio.NewReader(c)
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				label := strings.ToLower(base32.StdEncoding.EncodeToString([]byte(fmt.Sprintf("%010d", i))))[:16]
				body := fmt.Sprintf(`{"envelope":%q,"request_id":"bench-%s-%d"}`, env, run, i)
				req := fmt.Sprintf("POST %s/%s.relay.example HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
					relay.PathQueue, label, host, len(body), body)
				if _, err := io.WriteString(c, req); err != nil {
					b.Error(err)
					return
				}
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusAccepted {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "envelopes/s")
}
