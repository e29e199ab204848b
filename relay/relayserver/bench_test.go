package relayserver_test

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"filippo.io/edwards25519"

	"mailnode/relay"
	"mailnode/relay/relayserver"
	"mailnode/relay/relaystore"
	"mailnode/relay/relaystore/pgtest"
)

// BenchmarkResolve is the resolve figure of docs/benchmarks.md: 16
// clients on keep-alive HTTP to the relay's handler served as Run serves
// it on --http-listen (an http.Server with the same settings; not
// httptest's, whose own lock on every connection's state change would
// show in a mutex profile; not Run itself, so that make
// bench-compare-relay can build this file against a relay from before
// Run), half of the addresses registered and half unknown, limiters set
// out of the way. It reports requests per second over the whole run.
func BenchmarkResolve(b *testing.B) {
	r := newRelay(b, "", relayserver.Limits{ClientRate: 1e9, ClientBurst: 1e9, GlobalRate: 1e9, GlobalBurst: 1e9})
	addrs := make([]string, 0, 2*resolvePool)
	for i := range resolvePool {
		a := fmt.Sprintf("user%d@registered.example", i)
		r.register(b, a)
		addrs = append(addrs, a, fmt.Sprintf("user%d@unknownxx.example", i))
	}
	serveResolve(b, r.srv.Handler(), addrs)
}

// BenchmarkResolveFloor serves, through the same server and clients as
// BenchmarkResolve, handlers that do less than any relay's resolve can:
// read the body and answer a Resolution of fixed values, with the decoy
// key derived as the relay derives it (an HMAC-SHA-256 and a fixed-base
// X25519 multiplication: what every resolve computes, for registered and
// unknown addresses alike) or without it. They are the same in every
// build of make bench-compare-relay, so beside the builds' BenchmarkResolve
// they bound what any change to the relay's own work could gain on these
// cores (docs/relay.md, "Resolve without a shared lock").
func BenchmarkResolveFloor(b *testing.B) {
	addrs := make([]string, 0, 2*resolvePool)
	for i := range resolvePool {
		addrs = append(addrs, fmt.Sprintf("user%d@registered.example", i), fmt.Sprintf("user%d@unknownxx.example", i))
	}
	secret := []byte("a decoy secret of the floor's own")
	for _, tt := range []struct {
		name  string
		decoy bool
	}{{"decoy", true}, {"nodecoy", false}} {
		b.Run(tt.name, func(b *testing.B) {
			serveResolve(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				raw, err := io.ReadAll(r.Body)
				if err != nil {
					http.Error(w, "bad body", http.StatusBadRequest)
					return
				}
				key := make([]byte, 32)
				if tt.decoy {
					m := hmac.New(sha256.New, secret)
					m.Write([]byte("box\x00"))
					m.Write(raw)
					k, err := edwards25519.NewScalar().SetBytesWithClamping(m.Sum(nil))
					if err != nil {
						panic(err)
					}
					key = new(edwards25519.Point).ScalarBaseMult(k).BytesMontgomery()
				}
				out, _ := json.Marshal(relay.Resolution{Relay: "relay.example", Hostname: "aaaaaaaaaaaaaaaa.relay.example",
					BoxPubKey: relay.EncodeKey(key), QueueEndpoint: "https://relay.example/v1/queue"})
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Content-Length", strconv.Itoa(len(out)+1))
				w.Write(append(out, '\n'))
			}), addrs)
		})
	}
}

// resolvePool is how many registered and as many unknown addresses the
// resolve benchmarks ask for, in turn.
const resolvePool = 1000

// serveResolve serves h as Run serves the relay's handler on
// --http-listen and has 16 keep-alive clients resolve addrs in turn
// through it, b.N requests in all; it reports requests per second.
func serveResolve(b *testing.B, h http.Handler, addrs []string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout: 120 * time.Second, MaxHeaderBytes: 16 << 10}
	go hs.Serve(ln)
	defer hs.Close()
	const clients = 16
	// The clients speak HTTP/1.1 on raw keep-alive connections, one
	// request in flight each, and read a response as wrk does (the status
	// line, Content-Length, the body skipped; no header map), so that the
	// load generator takes little of the 2 cores the relay is measured on:
	// what it takes is the same for both builds of make
	// bench-compare-relay, and dilutes their ratio.
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
				if err := readOK(br); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
}

// readOK reads one HTTP/1.1 response from br and skips its body: an error
// unless its status is 200 and it has a Content-Length.
func readOK(br *bufio.Reader) error {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(line, []byte("HTTP/1.1 200 ")) {
		return fmt.Errorf("status line %q", line)
	}
	n := -1
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(line) <= 2 {
			break
		}
		if k, v, ok := bytes.Cut(line, []byte(":")); ok && strings.EqualFold(string(k), "Content-Length") {
			if n, err = strconv.Atoi(string(bytes.TrimSpace(v))); err != nil {
				return fmt.Errorf("content length %q", v)
			}
		}
	}
	if n < 0 {
		return errors.New("no content length")
	}
	_, err = br.Discard(n)
	return err
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
