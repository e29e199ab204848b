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

// tunnelsPerSource is how many tunnels BenchmarkIdleTunnels dials from
// one loopback source address. A dial from a bound address takes its
// port at bind, before the destination is known, so one source address
// holds at most the ephemeral range (net.ipv4.ip_local_port_range,
// 28,232 ports by default) however many relays it dials; Linux routes
// all of 127/8 to lo, so the benchmark takes 127.0.0.2, 127.0.0.3, ...,
// one per 10,000 tunnels, and a count past 64,000 is only bounded by
// descriptors and memory.
const tunnelsPerSource = 10000

// sourceAddr is the loopback address tunnel i dials from.
func sourceAddr(i int) *net.TCPAddr {
	n := 2 + i/tunnelsPerSource
	return &net.TCPAddr{IP: net.IPv4(127, byte(n>>16), byte(n>>8), byte(n))}
}

// BenchmarkIdleTunnels is the idle-tunnel figure of docs/benchmarks.md:
// a relay process with 10,000 registered nodes, all connected and idle
// (keepalives only); it reports the relay's resident memory per tunnel
// over its memory before the tunnels. MAILNODE_BENCH_TUNNELS sets
// another count (issue 47's goal is 100,000 per instance). The relay is
// a child process, so its memory and descriptors are its own; the
// nodes' ends of the tunnels are in the benchmark's process. Run with
// -benchtime 1x.
func BenchmarkIdleTunnels(b *testing.B) {
	count := 10000
	if s := os.Getenv("MAILNODE_BENCH_TUNNELS"); s != "" {
		count, _ = strconv.Atoi(s)
	}
	// Each tunnel is a descriptor in each process (the relay's end in
	// the child, the node's here); the child inherits the raised limit.
	// Past the hard limit only a privileged process (CAP_SYS_RESOURCE)
	// may go.
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		b.Fatal(err)
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			b.Fatalf("raise the open-file limit to its hard limit %d: %v", lim.Max, err)
		}
	}
	if lim.Cur < uint64(count)+200 {
		b.Fatalf("open-file limit %d (hard %d) is below %d tunnels and the processes' own 200: each process holds one descriptor per tunnel", lim.Cur, lim.Max, count)
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
		from := sourceAddr(i)
		tun := &relayclient.Tunnel{Addr: net.JoinHostPort(relaylocal.Zone, "443"), Key: keys[i].Node, TLS: tlsConfig,
			Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
				d := net.Dialer{LocalAddr: from}
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
	nodes, err := rss(os.Getpid()) // the nodes' ends, and the benchmark's keys
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintln(stdin, "stats")
	var heap, stack, goroutines int64
	line, _ := out.ReadString('\n')
	fmt.Sscan(line, &heap, &stack, &goroutines)
	b.ReportMetric(float64(count), "tunnels")
	b.ReportMetric(float64(1+(count-1)/tunnelsPerSource), "source-addresses")
	b.ReportMetric(float64(lim.Max), "nofile-hard-limit")
	b.ReportMetric(float64(before)/(1<<20), "relay-MiB-before")
	b.ReportMetric(float64(after)/(1<<20), "relay-MiB-after")
	b.ReportMetric(float64(after-before)/float64(count)/1024, "KiB/tunnel")
	b.ReportMetric(connect.Seconds(), "s-to-connect-all")
	b.ReportMetric(float64(nodes)/(1<<20), "nodes-side-MiB")
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
