package gateway_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"mailnode/agent"
	"mailnode/app"
	"mailnode/approvals"
	"mailnode/gateway"
)

// BenchmarkGatewayThroughput is issue 3's figure: 16 agents, each on its
// own keep-alive TLS connection, call a structured tool as fast as they
// can, each call signed afresh by the SDK's signer. The same load runs
// against a second node whose verification is switched off, in the same
// run and interleaved, and the table compares the medians.
//
// The tool reads a fake source (no SQLite): this measures the door, not
// the extractors behind it. Agents and node share the machine's cores.
//
//	go test -run '^$' -bench GatewayThroughput -benchtime 1x ./gateway/
//
// MAILNODE_BENCH_SECONDS sets the length of each round (default 3);
// MAILNODE_BENCH_MCP=2026-07-28 makes the calls that revision's (_meta in
// the body, the Mcp-* headers) instead of the contract's. The
// process runs with the node binary's GC settings (app.SetRuntime) unless
// GOGC is set, so GOGC=100 measures Go's default.
func BenchmarkGatewayThroughput(b *testing.B) {
	const agents, rounds = 16, 5
	gogc := os.Getenv("GOGC")
	if gogc == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(app.GCPercent))
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(app.MemoryLimit))
		gogc = strconv.Itoa(app.GCPercent)
	}
	revision := os.Getenv("MAILNODE_BENCH_MCP")
	secs := 3.0
	if s, err := strconv.ParseFloat(os.Getenv("MAILNODE_BENCH_SECONDS"), 64); err == nil && s > 0 {
		secs = s
	}
	keys := make([]agentKey, agents)
	for i := range keys {
		keys[i] = newAgentKey(fmt.Sprintf("agent%d.example.com", i))
	}
	docs := newKeyDocs(b, keys...)
	on := startNode(b, b.TempDir(), "", docs, gateway.Unlimited)
	off := startNode(b, b.TempDir(), "", docs, gateway.DisableVerification)
	for _, k := range keys {
		on.grant(k, "bills_due", approvals.StructuredRead)
	}
	off.grant(agentKey{domain: "bench.example.com", pub: make([]byte, 32)}, "bills_due", approvals.StructuredRead)

	type result struct {
		perSec   float64
		p50, p99 time.Duration
	}
	run := func(n *testNode, d time.Duration) result {
		var mu sync.Mutex
		var lat []time.Duration
		var wg sync.WaitGroup
		start := time.Now()
		for _, k := range keys {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l := loadAgent(b, n, k, start.Add(d), revision)
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
	run(on, 500*time.Millisecond) // fetch key documents, open connections
	run(off, 500*time.Millisecond)
	var rOn, rOff []result
	for range rounds {
		rOn = append(rOn, run(on, time.Duration(secs*float64(time.Second))))
		rOff = append(rOff, run(off, time.Duration(secs*float64(time.Second))))
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
		ratio[i].perSec = rOn[i].perSec / rOff[i].perSec
	}
	if revision == "" {
		revision = "the contract's"
	}
	fmt.Printf("\n%d agents, %d rounds of %.0f s each, GOGC=%s, MCP %s, medians:\n\n", agents, rounds, secs, gogc, revision)
	fmt.Printf("| measure | verification on | verification off |\n|---|---:|---:|\n")
	fmt.Printf("| calls/s | %.0f | %.0f |\n", med(rOn, perSec), med(rOff, perSec))
	fmt.Printf("| p50 latency (ms) | %.2f | %.2f |\n", med(rOn, p50), med(rOff, p50))
	fmt.Printf("| p99 latency (ms) | %.2f | %.2f |\n", med(rOn, p99), med(rOff, p99))
	fmt.Printf("| throughput on/off, median of the per-round ratios | %.2f | |\n", med(ratio, perSec))
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Printf("| peak RSS of the process, both nodes and all agents (MiB) | %.0f | |\n\n", float64(ru.Maxrss)/1024)
	b.ReportMetric(med(rOn, perSec), "calls/s")
	b.ReportMetric(med(rOn, p99), "p99-ms")
	b.ReportMetric(med(ratio, perSec), "on/off")
}

// loadAgent makes signed bills_due calls on its own connection until
// deadline and returns their latencies; revision "2026-07-28" makes them
// of that MCP revision, "" the contract's.
func loadAgent(b *testing.B, n *testNode, k agentKey, deadline time.Time, revision string) []time.Duration {
	signer := &agent.Signer{Domain: k.domain, Kid: k.kid, Key: k.priv}
	client := &http.Client{Transport: n.client.Transport.(*http.Transport).Clone()}
	defer client.CloseIdleConnections()
	body := callTool(1, "bills_due", map[string]any{})
	var extra http.Header
	if revision == "2026-07-28" {
		body = rpc2026(1, "tools/call", map[string]any{"name": "bills_due", "arguments": map[string]any{}})
		extra = headers2026("tools/call", "bills_due")
	}
	var lat []time.Duration
	for time.Now().Before(deadline) {
		t0 := time.Now()
		req, _ := http.NewRequest("POST", n.url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for h, v := range extra {
			req.Header[h] = v
		}
		if err := signer.Sign(req, body); err != nil {
			b.Error(err)
			return lat
		}
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
