package relayserver_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/relay"
	"mailnode/relay/relayserver"
)

// BenchmarkResolve is the resolve figure of docs/benchmarks.md: 16
// clients on keep-alive HTTP (as --http-listen serves it), half of the
// addresses registered and half unknown, limiters set out of the way.
// It reports requests per second over the whole run.
func BenchmarkResolve(b *testing.B) {
	r := newRelay(b, "", relayserver.Limits{ClientRate: 1e9, ClientBurst: 1e9, GlobalRate: 1e9, GlobalBurst: 1e9})
	const clients, pool = 16, 1000
	addrs := make([]string, 0, 2*pool)
	for i := range pool {
		a := fmt.Sprintf("user%d@registered.example", i)
		r.register(b, a)
		addrs = append(addrs, a, fmt.Sprintf("user%d@unknownxx.example", i))
	}
	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				req, _ := http.NewRequest(http.MethodPost, r.http.URL+relay.PathResolve,
					strings.NewReader(`{"address":"`+addrs[i%int64(len(addrs))]+`"}`))
				req.Header.Set("Content-Type", "application/json")
				resp, err := c.Do(req)
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
