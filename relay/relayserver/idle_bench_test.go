package relayserver_test

import (
	"bufio"
	"context"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"mailnode/relay/relayclient"
	"mailnode/relay/relaylocal"
	"mailnode/relay/relaystore"
	"mailnode/relay/relaystore/pgtest"
)

// TestMain lets BenchmarkIdleTunnels run the relay in a process of its
// own, so that its memory is the relay's alone: with
// MAILNODE_RELAY_CHILD=DIR the test binary is a local relay on DIR that
// prints its address and CA and runs until its stdin closes.
func TestMain(m *testing.M) {
	if dir := os.Getenv("MAILNODE_RELAY_CHILD"); dir != "" {
		os.Exit(relayChild(dir))
	}
	if dir := os.Getenv("MAILNODE_RELAY_QUEUE_CHILD"); dir != "" {
		os.Exit(queueChild(dir))
	}
	code := m.Run()
	pgtest.Stop()
	os.Exit(code)
}

func relayChild(dir string) int {
	r, err := relaylocal.Start(context.Background(), relaylocal.Options{DataDir: dir}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer r.Close()
	fmt.Printf("%s\n%s", r.Addr, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: r.CA.Cert.Raw}))
	// Each "stats" line asks where the memory is, after a collection.
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		fmt.Printf("%d %d %d\n", ms.HeapInuse, ms.StackInuse, runtime.NumGoroutine())
	}
	return 0
}

// rss is a process's resident memory in bytes.
func rss(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS for %d", pid)
}

// BenchmarkIdleTunnels is the idle-tunnel figure of docs/benchmarks.md:
// a relay process with 10,000 registered nodes, all connected and idle
// (keepalives only); it reports the relay's resident memory per tunnel
// over its memory before the tunnels. MAILNODE_BENCH_TUNNELS sets
// another count. Run with -benchtime 1x.
func BenchmarkIdleTunnels(b *testing.B) {
	count := 10000
	if s := os.Getenv("MAILNODE_BENCH_TUNNELS"); s != "" {
		count, _ = strconv.Atoi(s)
	}
	// Each tunnel is a descriptor in both processes; the child inherits
	// the raised limit.
	var lim syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	if lim.Cur < uint64(count)+200 {
		b.Fatalf("open-file limit %d is below %d tunnels", lim.Cur, count)
	}

	dir := b.TempDir()
	st, err := relaystore.OpenSQLite(b.Context(), dir)
	if err != nil {
		b.Fatal(err)
	}
	keys := make([]relayclient.Keys, count)
	for i := range keys {
		keys[i], _ = relayclient.NewKeys()
		if err := st.PutNode(b.Context(), relaystore.Node{Address: fmt.Sprintf("idle%d@example.com", i), Label: labelFor(i),
			NodeKey: keys[i].NodePublic(), BoxKey: keys[i].BoxPublic(), RegisteredAt: time.Now()}); err != nil {
			b.Fatal(err)
		}
	}
	st.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MAILNODE_RELAY_CHILD="+dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	out := bufio.NewReader(stdout)
	addr, _ := out.ReadString('\n')
	addr = strings.TrimSpace(addr)
	caPEM := make([]byte, 0, 1024)
	for {
		line, err := out.ReadBytes('\n')
		caPEM = append(caPEM, line...)
		if err != nil || strings.HasPrefix(string(line), "-----END") {
			break
		}
	}
	blk, _ := pem.Decode(caPEM)
	if blk == nil {
		b.Fatalf("relay child printed no CA (addr %q)", addr)
	}
	caCert, err := x509.ParseCertificate(blk.Bytes)
	if err != nil {
		b.Fatal(err)
	}
	tlsConfig := (&relaylocal.CA{Cert: caCert}).ClientTLS()

	time.Sleep(500 * time.Millisecond)
	before, err := rss(cmd.Process.Pid)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var up atomic.Int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64) // handshakes in flight
	start := time.Now()
	for i := range count {
		wg.Add(1)
		ln := relayclient.NewListener()
		tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, "443"), Key: keys[i].Node, TLS: tlsConfig,
			Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, network, addr)
			}}
		var once sync.Once
		release := func() { once.Do(func() { <-sem }) }
		counted := false
		tun.Up = func(string) {
			release()
			if !counted {
				counted = true
				up.Add(1)
			}
		}
		tun.Down = func(error) { release() }
		sem <- struct{}{}
		go func() { defer wg.Done(); tun.Run(ctx, ln) }()
	}
	for up.Load() < int64(count) {
		if time.Since(start) > 5*time.Minute {
			b.Fatalf("%d of %d tunnels up after 5 minutes", up.Load(), count)
		}
		time.Sleep(100 * time.Millisecond)
	}
	connect := time.Since(start)
	time.Sleep(2 * time.Second) // let the relay settle
	after, err := rss(cmd.Process.Pid)
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintln(stdin, "stats")
	var heap, stack, goroutines int64
	line, _ := out.ReadString('\n')
	fmt.Sscan(line, &heap, &stack, &goroutines)
	b.ReportMetric(float64(count), "tunnels")
	b.ReportMetric(float64(before)/(1<<20), "relay-MiB-before")
	b.ReportMetric(float64(after)/(1<<20), "relay-MiB-after")
	b.ReportMetric(float64(after-before)/float64(count)/1024, "KiB/tunnel")
	b.ReportMetric(connect.Seconds(), "s-to-connect-all")
	b.ReportMetric(float64(heap)/float64(count)/1024, "live-heap-KiB/tunnel")
	b.ReportMetric(float64(stack)/float64(count)/1024, "stack-KiB/tunnel")
	b.ReportMetric(float64(goroutines)/float64(count), "goroutines/tunnel")
	cancel()
	wg.Wait()
}

// labelFor is a distinct valid label for node i.
func labelFor(i int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	l := []byte("aaaaaaaaaaaaaaaa")
	for j := len(l) - 1; i > 0; j-- {
		l[j] = alphabet[i%32]
		i /= 32
	}
	return string(l)
}
