package desktoptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/app/ui"
	"mailnode/mail/imaptest"
)

// lineWatch collects a process's output and reports when a line holding a
// phrase has been seen a number of times.
type lineWatch struct {
	mu    sync.Mutex
	lines []string
}

func (w *lineWatch) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		w.mu.Lock()
		w.lines = append(w.lines, sc.Text())
		w.mu.Unlock()
	}
}

func (w *lineWatch) count(phrase string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, l := range w.lines {
		if strings.Contains(l, phrase) {
			n++
		}
	}
	return n
}

// desktopRun is one start of the app in a benchmark.
type desktopRun struct {
	cmd     *exec.Cmd
	out     *lineWatch
	exited  chan error
	toTray  time.Duration // start to the tray icon's registration
	regs    int           // registrations seen before this start
	started time.Time
}

// BenchmarkDesktop measures the desktop app's figures (docs/benchmarks.md)
// with a Dovecot account of MAILNODE_BENCH_DESKTOP_N messages (default
// 50,000, the sync benchmark's mailbox): the longest stall of the UI
// goroutine during the initial sync, start to tray icon warm (median of 5),
// and RSS and CPU idle over a minute with the synced store.
// MAILNODE_BENCH_DESKTOP_TRACE names a file for the execution trace of
// the longest stall (--dev-ui-stall-trace); MAILNODE_BENCH_DESKTOP_HEAP a
// file name to which .window and .tray are added for the heap profiles
// of the two idle runs.
func BenchmarkDesktop(b *testing.B) {
	for _, tool := range []string{"Xvfb", "dbus-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s not found", tool)
		}
	}
	n := 50000
	if s := os.Getenv("MAILNODE_BENCH_DESKTOP_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	idleFor := time.Minute
	if s := os.Getenv("MAILNODE_BENCH_DESKTOP_IDLE"); s != "" {
		idleFor, _ = time.ParseDuration(s)
	}
	d, err := imaptest.StartDovecot()
	if err != nil {
		b.Fatalf("start Dovecot: %v", err)
	}
	defer d.Close()
	if _, err := d.Fill(n); err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	bin, display, bus, desk := startSession(b, dir, 2560, 1600)

	data := filepath.Join(dir, "data")
	os.MkdirAll(data, 0o700)
	pw := filepath.Join(dir, "pw")
	os.WriteFile(pw, []byte(d.Password), 0o600)
	cfg := fmt.Sprintf(`{"version": 2, "accounts": [{"name": "bench", "server": %q, "security": "plain", "username": %q,
		"password": {"file": %q}}]}`, d.Addr, d.Username, pw)
	os.WriteFile(filepath.Join(data, "config.json"), []byte(cfg), 0o600)
	env := append(os.Environ(), "DISPLAY="+display, "DBUS_SESSION_BUS_ADDRESS="+bus, "LANG=C.UTF-8",
		"HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))

	start := func(extra ...string) *desktopRun {
		r := &desktopRun{out: &lineWatch{}, exited: make(chan error, 1), regs: desk.registrations()}
		r.cmd = exec.Command(bin, append([]string{"--data-dir", data, "--listen", "127.0.0.1:0", "--log-level", "debug"}, extra...)...)
		r.cmd.Env = env
		pipe, _ := r.cmd.StderrPipe()
		r.cmd.Stdout = io.Discard
		r.started = time.Now()
		if err := r.cmd.Start(); err != nil {
			b.Fatal(err)
		}
		go r.out.read(pipe)
		go func() { r.exited <- r.cmd.Wait() }()
		waitFor(b, "the tray icon", 60*time.Second, func() bool { return desk.registrations() > r.regs })
		r.toTray = time.Since(r.started)
		return r
	}
	quit := func(r *desktopRun) {
		desk.click(b, desk.item(), "Quit")
		select {
		case err := <-r.exited:
			if err != nil {
				r.out.mu.Lock()
				from := max(0, len(r.out.lines)-20)
				for i, l := range r.out.lines {
					if strings.HasPrefix(l, "panic:") || strings.HasPrefix(l, "fatal error:") {
						from = i
						break
					}
				}
				tail := r.out.lines[from:min(len(r.out.lines), from+30)]
				r.out.mu.Unlock()
				b.Fatalf("app exited with %v:\n%s", err, strings.Join(tail, "\n"))
			}
		case <-time.After(60 * time.Second):
			b.Fatal("Quit did not end the app")
		}
	}
	syncDone := func(r *desktopRun, passes int, limit time.Duration) {
		waitFor(b, "the sync pass", limit, func() bool { return r.out.count(`msg="Sync pass done"`) >= passes })
	}

	// The initial sync with the window open, the UI goroutine metered.
	stallFile := filepath.Join(dir, "stall.json")
	metered := []string{"--dev-ui-stall", stallFile}
	if t := os.Getenv("MAILNODE_BENCH_DESKTOP_TRACE"); t != "" {
		metered = append(metered, "--dev-ui-stall-trace", t)
	}
	first := start(metered...)
	syncStart := time.Now()
	syncDone(first, 1, 30*time.Minute)
	syncTime := time.Since(syncStart)
	quit(first)
	var stalls ui.Stalls
	raw, err := os.ReadFile(stallFile)
	if err != nil || json.Unmarshal(raw, &stalls) != nil || len(stalls.Each) == 0 {
		b.Fatalf("stall figures: %v %s", err, raw)
	}
	// The stalls while the sync ran, after the window appeared; the
	// first second of them (the first frames) apart.
	var during, firstSecond, later []float64
	loopStart := stalls.Each[0][0]
	syncEnd := float64(syncStart.Add(syncTime).UnixMicro()) / 1e3
	for _, x := range stalls.Each {
		if x[0] > syncEnd {
			break
		}
		during = append(during, x[1])
		if x[0] < loopStart+1000 {
			firstSecond = append(firstSecond, x[1])
		} else {
			later = append(later, x[1])
		}
	}
	slices.Sort(during)
	maxOf := func(v []float64) float64 {
		if len(v) == 0 {
			return 0
		}
		return slices.Max(v)
	}

	// Start to tray icon, warm: the store and the binary in the page cache.
	var toTray []time.Duration
	for range 5 {
		r := start()
		toTray = append(toTray, r.toTray)
		syncDone(r, 1, 5*time.Minute)
		quit(r)
	}
	slices.Sort(toTray)

	// Idle: the synced store, IDLE on the account; with the window open,
	// then in the tray (--minimized, as autostart runs it).
	type idleRun struct {
		rss        []int64
		cpuPct     float64
		anon, file int64
		libs       []libRSS
		goMem      map[string]uint64 // the app's runtime/metrics memory classes at Quit
	}
	memFile := filepath.Join(dir, "mem.json")
	measureIdle := func(extra ...string) idleRun {
		os.Remove(memFile)
		r := start(append([]string{"--dev-memstats", memFile}, extra...)...)
		syncDone(r, 1, 5*time.Minute)
		time.Sleep(5 * time.Second)
		var m idleRun
		cpu0, _ := procCPU(r.cmd.Process.Pid)
		tick := time.NewTicker(time.Second)
		for end := time.Now().Add(idleFor); time.Now().Before(end); {
			<-tick.C
			m.rss = append(m.rss, procRSS(r.cmd.Process.Pid))
		}
		tick.Stop()
		cpu1, _ := procCPU(r.cmd.Process.Pid)
		m.anon, m.file = procStatus(r.cmd.Process.Pid, "RssAnon:"), procStatus(r.cmd.Process.Pid, "RssFile:")
		m.libs = procLibRSS(r.cmd.Process.Pid)
		quit(r)
		if raw, err := os.ReadFile(memFile); err == nil {
			json.Unmarshal(raw, &m.goMem)
		}
		if keep := os.Getenv("MAILNODE_BENCH_DESKTOP_HEAP"); keep != "" {
			if raw, err := os.ReadFile(memFile + ".heap"); err == nil {
				state := "window"
				if len(extra) > 0 { // --minimized
					state = "tray"
				}
				os.WriteFile(keep+"."+state, raw, 0o600)
			}
		}
		slices.Sort(m.rss)
		m.cpuPct = 100 * (cpu1 - cpu0).Seconds() / idleFor.Seconds()
		return m
	}
	open, tray := measureIdle(), measureIdle("--minimized")

	b.ReportMetric(maxOf(during), "ms-max-UI-stall")
	b.ReportMetric(float64(toTray[len(toTray)/2].Milliseconds()), "ms-to-tray")
	b.ReportMetric(float64(tray.rss[len(tray.rss)-1])/1024, "MiB-idle-RSS")
	b.ReportMetric(tray.cpuPct, "%CPU-idle")
	fmt.Printf("\n| measure (%d messages) | result | goal |\n|---|---:|---:|\n", n)
	fmt.Printf("| initial sync with the window open (s) | %.1f | |\n", syncTime.Seconds())
	fmt.Printf("| the window appearing: building it to Fyne's loop running (ms) | %.1f | |\n", stalls.AppearMS)
	fmt.Printf("| longest UI stall during the sync once the window is up, %d samples (ms) | %.1f (p99 %.1f, median %.1f) | < 50 |\n",
		len(during), maxOf(during), during[len(during)*99/100], during[len(during)/2])
	fmt.Printf("| of which in the first second (the first frames) (ms) | %.1f | |\n", maxOf(firstSecond))
	fmt.Printf("| after the first second (ms) | %.1f | |\n", maxOf(later))
	fmt.Printf("| start to tray icon, warm, median of 5 (ms) | %d (min %d, max %d) | < 1000 |\n",
		toTray[2].Milliseconds(), toTray[0].Milliseconds(), toTray[4].Milliseconds())
	for _, m := range []struct {
		name string
		idleRun
	}{{"window open", open}, {"in the tray", tray}} {
		fmt.Printf("| idle, %s: RSS over %v, max / median (MiB) | %.0f / %.0f | < 150 |\n", m.name, idleFor,
			float64(m.rss[len(m.rss)-1])/1024, float64(m.rss[len(m.rss)/2])/1024)
		fmt.Printf("| idle, %s: CPU over %v (%% of one core) | %.2f | < 1 |\n", m.name, idleFor, m.cpuPct)
		fmt.Printf("| idle, %s: RSS anonymous / file-backed (MiB) | %.0f / %.0f | |\n", m.name, float64(m.anon)/1024, float64(m.file)/1024)
		if g := m.goMem; g != nil {
			mib := func(k string) float64 { return float64(g[k]) / (1 << 20) }
			fmt.Printf("| idle, %s: of the anonymous, the Go runtime's: mapped less released / heap objects (live at the last collection) / stacks (MiB) | %.0f / %.0f (%.0f) / %.0f | |\n", m.name,
				mib("/memory/classes/total:bytes")-mib("/memory/classes/heap/released:bytes"), mib("/memory/classes/heap/objects:bytes"),
				mib("/gc/heap/live:bytes"), mib("/memory/classes/heap/stacks:bytes"))
		}
		for _, l := range m.libs {
			fmt.Printf("| idle, %s: of the file-backed, %s (MiB) | %.0f | |\n", m.name, l.name, float64(l.kb)/1024)
		}
	}
}

// procCPU is a process's user + system CPU time so far.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	const hz = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / hz, nil
}

// procRSS is a process's resident set in KiB.
func procRSS(pid int) int64 { return procStatus(pid, "VmRSS:") }

// procStatus is a KiB field of /proc/PID/status.
func procStatus(pid int, field string) int64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}

type libRSS struct {
	name string
	kb   int64
}

// procLibRSS is the resident size of the process's largest file mappings
// (the binary, the GL stack), from /proc/PID/smaps.
func procLibRSS(pid int) []libRSS {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	sizes := map[string]int64{}
	var name string
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":"):
			name = ""
			if len(f) >= 6 && strings.HasPrefix(f[5], "/") {
				name = filepath.Base(f[5])
			}
		case len(f) >= 2 && f[0] == "Rss:" && name != "":
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			sizes[name] += kb
		}
	}
	var out []libRSS
	for n, kb := range sizes {
		if kb >= 4096 {
			out = append(out, libRSS{n, kb})
		}
	}
	slices.SortFunc(out, func(a, b libRSS) int { return int(b.kb - a.kb) })
	return out
}
