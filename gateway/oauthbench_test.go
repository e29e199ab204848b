package gateway_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/approvals"
	"mailnode/gateway"
)

// BenchmarkOAuthVsSigned is issue 43's figure: the same tools/call
// (bills_due, a structured tool on the fake source) made by 16 signed
// agents on /mcp and by 16 OAuth clients with access tokens on
// /oauth/mcp, against one node, in alternating rounds of the same run;
// the table compares the medians.
//
//	go test -run '^$' -bench OAuthVsSigned -benchtime 1x ./gateway/
//
// MAILNODE_BENCH_SECONDS sets the length of each round (default 3).
func BenchmarkOAuthVsSigned(b *testing.B) {
	const clients, rounds = 16, 5
	gogc := os.Getenv("GOGC")
	if gogc == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(app.GCPercent))
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(app.MemoryLimit))
		gogc = strconv.Itoa(app.GCPercent)
	}
	secs := 3.0
	if s, err := strconv.ParseFloat(os.Getenv("MAILNODE_BENCH_SECONDS"), 64); err == nil && s > 0 {
		secs = s
	}
	keys := make([]agentKey, clients)
	for i := range keys {
		keys[i] = newAgentKey(fmt.Sprintf("agent%d.example.com", i))
	}
	n := startNode(b, b.TempDir(), "", newKeyDocs(b, keys...), gateway.Unlimited)
	for _, k := range keys {
		n.grant(k, "bills_due", approvals.StructuredRead)
	}
	tokens := make([]string, clients)
	for i := range tokens {
		const back = "http://127.0.0.1:9/cb"
		resp, err := n.client.Post("https://"+n.host+"/oauth/register", "application/json",
			strings.NewReader(`{"redirect_uris":["`+back+`"]}`))
		if err != nil {
			b.Fatal(err)
		}
		var reg struct {
			ClientID string `json:"client_id"`
		}
		decodeJSON(resp, &reg)
		tokens[i], _ = n.connect(reg.ClientID, back, "structured_read")
	}

	type result struct {
		perSec   float64
		p50, p99 time.Duration
	}
	run := func(oauth bool, d time.Duration) result {
		var mu sync.Mutex
		var lat []time.Duration
		var wg sync.WaitGroup
		start := time.Now()
		for i := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var l []time.Duration
				if oauth {
					l = loadToken(b, n, tokens[i], start.Add(d))
				} else {
					l = loadAgent(b, n, keys[i], start.Add(d), "")
				}
				mu.Lock()
				lat = append(lat, l...)
				mu.Unlock()
			}()
		}
		wg.Wait()
		el := time.Since(start)
		if len(lat) == 0 {
			b.Fatal("no call succeeded")
		}
		slices.Sort(lat)
		return result{float64(len(lat)) / el.Seconds(), lat[len(lat)/2], lat[len(lat)*99/100]}
	}
	run(false, 500*time.Millisecond)
	run(true, 500*time.Millisecond)
	var rSigned, rToken []result
	for range rounds {
		rSigned = append(rSigned, run(false, time.Duration(secs*float64(time.Second))))
		rToken = append(rToken, run(true, time.Duration(secs*float64(time.Second))))
	}
	med := func(rs []result, f func(result) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	perSec := func(r result) float64 { return r.perSec }
	p50 := func(r result) float64 { return float64(r.p50) / 1e6 }
	p99 := func(r result) float64 { return float64(r.p99) / 1e6 }
	ratio := make([]result, rounds)
	for i := range ratio {
		ratio[i].perSec = rToken[i].perSec / rSigned[i].perSec
	}
	fmt.Printf("\n%d clients of each door, %d rounds of %.0f s each, GOGC=%s, medians:\n\n", clients, rounds, secs, gogc)
	fmt.Printf("| measure | signed, /mcp | access token, /oauth/mcp |\n|---|---:|---:|\n")
	fmt.Printf("| calls/s | %.0f | %.0f |\n", med(rSigned, perSec), med(rToken, perSec))
	fmt.Printf("| p50 latency (ms) | %.2f | %.2f |\n", med(rSigned, p50), med(rToken, p50))
	fmt.Printf("| p99 latency (ms) | %.2f | %.2f |\n", med(rSigned, p99), med(rToken, p99))
	fmt.Printf("| throughput token/signed, median of the per-round ratios | | %.2f |\n\n", med(ratio, perSec))
	b.ReportMetric(med(rToken, perSec), "token-calls/s")
	b.ReportMetric(med(ratio, perSec), "token/signed")
}

// loadToken makes bills_due calls with an access token on its own
// connection until deadline and returns their latencies.
func loadToken(b *testing.B, n *testNode, token string, deadline time.Time) []time.Duration {
	client := &http.Client{Transport: n.client.Transport.(*http.Transport).Clone()}
	defer client.CloseIdleConnections()
	body := callTool(1, "bills_due", map[string]any{})
	var lat []time.Duration
	for time.Now().Before(deadline) {
		t0 := time.Now()
		req, _ := http.NewRequest("POST", "https://"+n.host+"/oauth/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			b.Error(err)
			return lat
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Contains(out, []byte(`bills`)) || bytes.Contains(out, []byte(`"isError":true`)) {
			b.Errorf("call: %d %s", resp.StatusCode, out)
			return lat
		}
		lat = append(lat, time.Since(t0))
	}
	return lat
}

func decodeJSON(resp *http.Response, v any) {
	defer resp.Body.Close()
	json.NewDecoder(resp.Body).Decode(v)
}
