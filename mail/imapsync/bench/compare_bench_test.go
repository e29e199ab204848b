package bench_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mailnode/mail/imaptest"
)

// BenchmarkCompareSync runs `mailnode sync` of two or more builds on one
// generated mailbox, alternating them round by round, and prints each
// build's median wall time, CPU time and the time its process spent outside
// the sync pass (starting, opening the store, closing it). On a shared machine whose speed
// drifts over minutes, builds measured in separate runs of
// BenchmarkInitialSync differ by more than most changes do; alternating
// them in one run puts each round's drift on all of them alike.
//
// MAILNODE_BENCH_COMPARE names the binaries (space-separated), for
// example two commits built with `git worktree add` and `go build`;
// MAILNODE_BENCH_SIZES the mailbox sizes (default 10000);
// MAILNODE_BENCH_ROUNDS the measured rounds (default 5, after one that
// warms the page cache); MAILNODE_BENCH_CPUPROFILE a directory where each
// measured round writes its CPU profile (--dev-cpuprofile), named
// BUILD-messages-ROUND.pprof, for `go tool pprof` (-diff_base compares two
// builds). make bench-compare builds the binaries.
func BenchmarkCompareSync(b *testing.B) {
	bins := strings.Fields(os.Getenv("MAILNODE_BENCH_COMPARE"))
	if len(bins) < 2 {
		b.Skip("MAILNODE_BENCH_COMPARE names no two binaries (make bench-compare)")
	}
	rounds := 5
	if s := os.Getenv("MAILNODE_BENCH_ROUNDS"); s != "" {
		if _, err := fmt.Sscan(s, &rounds); err != nil || rounds < 1 {
			b.Fatalf("MAILNODE_BENCH_ROUNDS=%q", s)
		}
	}
	ns := []int{10000}
	if os.Getenv("MAILNODE_BENCH_SIZES") != "" {
		ns = sizes()
	}
	var rows []string
	for _, n := range ns {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			rows = append(rows, compareSize(b, bins, n, rounds)...)
		})
	}
	fmt.Println()
	fmt.Println("| messages | build | initial sync, median (s) | messages/s | CPU, median (s) | outside the pass (start, close), median (s) | rounds |")
	fmt.Println("|---:|---|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Println(r)
	}
}

func compareSize(b *testing.B, bins []string, n, rounds int) []string {
	d, err := imaptest.StartDovecot()
	if err != nil {
		b.Fatalf("start Dovecot: %v", err)
	}
	defer d.Close()
	if _, err := d.Fill(n); err != nil {
		b.Fatal(err)
	}
	warmUp(b, d.Server)
	type sample struct{ wall, cpu, tail []float64 }
	got := make([]sample, len(bins))
	for round := range rounds + 1 {
		for k, bin := range bins {
			data := filepath.Join(b.TempDir(), "node")
			args := []string{"sync"}
			if dir := os.Getenv("MAILNODE_BENCH_CPUPROFILE"); dir != "" && round > 0 {
				args = append(args, "--dev-cpuprofile", filepath.Join(dir, fmt.Sprintf("%s-%d-%d.pprof", filepath.Base(bin), n, round)))
			}
			cmd := mailnodeCmd(bin, d.Server, data, args...)
			start := time.Now()
			out, err := cmd.CombinedOutput()
			wall := time.Since(start)
			if err != nil {
				b.Fatalf("%s sync: %v\n%s", bin, err, out)
			}
			m := passRE.FindStringSubmatch(string(out))
			if m == nil {
				b.Fatalf("%s sync printed no pass duration: %s", bin, out)
			}
			pass, err := time.ParseDuration(m[1])
			if err != nil {
				b.Fatal(err)
			}
			if stored := storedCount(b, data, ""); stored != n {
				b.Fatalf("%s stored %d messages, want %d", bin, stored, n)
			}
			os.RemoveAll(data)
			cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			fmt.Printf("messages=%d round %d, %s: %.2f s, CPU %.2f s, pass %.2f s\n", n, round, filepath.Base(bin), wall.Seconds(), cpu.Seconds(), pass.Seconds())
			if round == 0 {
				continue // the page cache's first touch
			}
			got[k].wall = append(got[k].wall, wall.Seconds())
			got[k].cpu = append(got[k].cpu, cpu.Seconds())
			got[k].tail = append(got[k].tail, (wall - pass).Seconds())
		}
	}
	med := func(xs []float64) float64 {
		s := slices.Sorted(slices.Values(xs))
		return s[len(s)/2]
	}
	var rows []string
	for k, bin := range bins {
		w := med(got[k].wall)
		rows = append(rows, fmt.Sprintf("| %d | %s | %.2f | %.0f | %.2f | %.2f | %d |", n, filepath.Base(bin), w, float64(n)/w, med(got[k].cpu), med(got[k].tail), rounds))
	}
	return rows
}
