package bench_test

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	_ "modernc.org/sqlite"

	"mailnode/mail/imaptest"
)

// sizes are the mailbox sizes to measure; MAILNODE_BENCH_SIZES overrides
// them (comma-separated). Two sizes show whether memory is flat in size.
func sizes() []int {
	s := os.Getenv("MAILNODE_BENCH_SIZES")
	if s == "" {
		s = "10000,50000"
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}

const reps = 3 // initial syncs per tool; medians are reported

// BenchmarkInitialSync reproduces docs/benchmarks.md. It needs Dovecot and
// mbsync (make bench installs both) and takes several minutes.
func BenchmarkInitialSync(b *testing.B) {
	if _, err := exec.LookPath("mbsync"); err != nil {
		b.Skip("mbsync not installed (Debian package isync); run make bench")
	}
	bin := filepath.Join(b.TempDir(), "mailnode")
	if out, err := exec.Command("go", "build", "-o", bin, "mailnode/cmd/mailnode").CombinedOutput(); err != nil {
		b.Fatalf("build mailnode: %v\n%s", err, out)
	}
	var rows []string
	for _, n := range sizes() {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			rows = append(rows, benchSize(b, bin, n)...)
		})
	}
	fmt.Println()
	fmt.Println("| messages | measure | mailnode | mbsync (defaults) | mbsync (FSync no) |")
	fmt.Println("|---:|---|---:|---:|---:|")
	for _, r := range rows {
		fmt.Println(r)
	}
}

type run struct {
	wall   time.Duration
	maxRSS int64 // KiB
	// cpu is the process's user and system time: on a machine whose
	// speed drifts between runs, what a change costs in work shows here
	// more steadily than in wall time.
	cpu time.Duration
}

func benchSize(b *testing.B, bin string, n int) []string {
	d, err := imaptest.StartDovecot()
	if err != nil {
		b.Fatalf("start Dovecot: %v", err)
	}
	defer d.Close()
	genStart := time.Now()
	bytes, err := d.Fill(n)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("generated %d messages, %.0f MiB, in %v", n, float64(bytes)/(1<<20), time.Since(genStart).Round(time.Millisecond))
	// Let Dovecot index the folders and the page cache hold the files, so
	// neither tool pays for the other's first touch.
	warm := time.Now()
	warmUp(b, d.Server)
	b.Logf("warm-up read of the whole mailbox: %v", time.Since(warm).Round(time.Millisecond))

	work := b.TempDir()
	var mine, mbDefault, mbNoFsync []run
	var lastData string
	for rep := range reps {
		mbDefault = append(mbDefault, runMbsync(b, d.Server, filepath.Join(work, fmt.Sprintf("mb-%d", rep)), true, n))
		mbNoFsync = append(mbNoFsync, runMbsync(b, d.Server, filepath.Join(work, fmt.Sprintf("mbnf-%d", rep)), false, n))
		lastData = filepath.Join(work, fmt.Sprintf("node-%d", rep))
		mine = append(mine, runMailnode(b, bin, d.Server, lastData, n))
	}

	// No-change incremental sync on the last data directory.
	var passes, walls []time.Duration
	for range 7 {
		start := time.Now()
		out := mailnodeSync(b, bin, d.Server, lastData)
		walls = append(walls, time.Since(start))
		passes = append(passes, parsePass(b, out))
	}
	idle := idleLatency(b, bin, d.Server, lastData)

	med := func(rs []run) run {
		ws := make([]time.Duration, len(rs))
		cs := make([]time.Duration, len(rs))
		ms := make([]int64, len(rs))
		for i, r := range rs {
			ws[i], cs[i], ms[i] = r.wall, r.cpu, r.maxRSS
		}
		return run{median(ws), slices.Max(ms), median(cs)}
	}
	m, md, mn := med(mine), med(mbDefault), med(mbNoFsync)
	rate := func(r run) string { return fmt.Sprintf("%.0f", float64(n)/r.wall.Seconds()) }
	b.ReportMetric(float64(n)/m.wall.Seconds(), "msgs/s")
	b.ReportMetric(m.wall.Seconds()/md.wall.Seconds(), "ratio-vs-mbsync")
	return []string{
		fmt.Sprintf("| %d | initial sync, median of %d (s) | %.2f | %.2f | %.2f |", n, reps, m.wall.Seconds(), md.wall.Seconds(), mn.wall.Seconds()),
		fmt.Sprintf("| %d | messages/s | %s | %s | %s |", n, rate(m), rate(md), rate(mn)),
		fmt.Sprintf("| %d | wall-time ratio mailnode / mbsync | | %.2f | %.2f |", n, m.wall.Seconds()/md.wall.Seconds(), m.wall.Seconds()/mn.wall.Seconds()),
		fmt.Sprintf("| %d | CPU time (user + system), median of %d (s) | %.2f | %.2f | %.2f |", n, reps, m.cpu.Seconds(), md.cpu.Seconds(), mn.cpu.Seconds()),
		fmt.Sprintf("| %d | peak RSS, max of %d (MiB) | %.0f | %.0f | %.0f |", n, reps, float64(m.maxRSS)/1024, float64(md.maxRSS)/1024, float64(mn.maxRSS)/1024),
		fmt.Sprintf("| %d | no-change sync pass, median of 7 (ms) | %.1f | | |", n, ms(median(passes))),
		fmt.Sprintf("| %d | no-change `mailnode sync` process incl. start and login, median of 7 (ms) | %.1f | | |", n, ms(median(walls))),
		fmt.Sprintf("| %d | IDLE: delivery to stored, median / max of %d (ms) | %.0f / %.0f | | |", n, len(idle), ms(median(idle)), ms(slices.Max(idle))),
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func rusage(cmd *exec.Cmd) int64 {
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}

func warmUp(b *testing.B, srv *imaptest.Server) {
	c, err := imapclient.DialInsecure(srv.Addr, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(srv.Username, srv.Password).Wait(); err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"INBOX", "Archive"} {
		if _, err := c.Select(f, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
			b.Fatal(err)
		}
		var all imap.SeqSet
		all.AddRange(1, 0)
		cmd := c.Fetch(all, &imap.FetchOptions{UID: true, Flags: true, RFC822Size: true,
			BodySection: []*imap.FetchItemBodySection{{Peek: true}}})
		for m := cmd.Next(); m != nil; m = cmd.Next() {
			m.Collect()
		}
		if err := cmd.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func runMbsync(b *testing.B, srv *imaptest.Server, dir string, fsync bool, n int) run {
	os.MkdirAll(filepath.Join(dir, "mail"), 0o700)
	host, port, _ := strings.Cut(srv.Addr, ":")
	conf := fmt.Sprintf(`IMAPAccount bench
Host %s
Port %s
User %s
Pass %s
SSLType None
AuthMechs LOGIN

IMAPStore remote
Account bench

MaildirStore local
Path %[5]s/mail/
Inbox %[5]s/mail/INBOX
SubFolders Verbatim

Channel bench
Far :remote:
Near :local:
Patterns *
Create Near
SyncState *
`, host, port, srv.Username, srv.Password, dir)
	if !fsync {
		conf = "FSync no\n\n" + conf
	}
	rc := filepath.Join(dir, "mbsyncrc")
	os.WriteFile(rc, []byte(conf), 0o600)
	cmd := exec.Command("mbsync", "-q", "-c", rc, "-a")
	cmd.Env = append(os.Environ(), "HOME="+dir)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	r := run{wall: time.Since(start), maxRSS: rusage(cmd), cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if err != nil {
		b.Fatalf("mbsync: %v\n%s", err, out)
	}
	got := 0
	filepath.WalkDir(filepath.Join(dir, "mail"), func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && (filepath.Base(filepath.Dir(p)) == "cur" || filepath.Base(filepath.Dir(p)) == "new") {
			got++
		}
		return nil
	})
	if got != n {
		b.Fatalf("mbsync copied %d messages, want %d", got, n)
	}
	os.RemoveAll(dir) // keep the disk footprint of 3 repetitions down
	return r
}

func mailnodeCmd(bin string, srv *imaptest.Server, data string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, append(args, "--data-dir", data, "--imap-server", srv.Addr, "--imap-security", "plain",
		"--imap-user", srv.Username)...)
	cmd.Env = append(os.Environ(), "MAILNODE_IMAP_PASSWORD="+srv.Password)
	return cmd
}

func runMailnode(b *testing.B, bin string, srv *imaptest.Server, data string, n int) run {
	cmd := mailnodeCmd(bin, srv, data, "sync")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	r := run{wall: time.Since(start), maxRSS: rusage(cmd), cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if err != nil {
		b.Fatalf("mailnode sync: %v\n%s", err, out)
	}
	if got := storedCount(b, data, ""); got != n {
		b.Fatalf("mailnode stored %d messages, want %d\n%s", got, n, out)
	}
	return r
}

func mailnodeSync(b *testing.B, bin string, srv *imaptest.Server, data string) string {
	out, err := mailnodeCmd(bin, srv, data, "sync").CombinedOutput()
	if err != nil {
		b.Fatalf("mailnode sync: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), ": 0 new, 0 flag changes, 0 removed") {
		b.Fatalf("no-change sync changed something: %s", out)
	}
	return string(out)
}

var passRE = regexp.MustCompile(`folders in ([0-9.]+[µmn]?s)`)

func parsePass(b *testing.B, out string) time.Duration {
	m := passRE.FindStringSubmatch(out)
	if m == nil {
		b.Fatalf("no pass duration in %q", out)
	}
	d, err := time.ParseDuration(m[1])
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func storedCount(b *testing.B, data, messageID string) int {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(data, "node.db")+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var n int
	q, args := `SELECT count(*) FROM messages`, []any{}
	if messageID != "" {
		q, args = `SELECT count(*) FROM messages WHERE message_id = ?`, []any{messageID}
	}
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

// idleLatency runs `mailnode serve`, delivers mails by APPEND as a delivery
// agent would, and measures how long each takes to appear in the store.
func idleLatency(b *testing.B, bin string, srv *imaptest.Server, data string) []time.Duration {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := mailnodeCmd(bin, srv, data, "serve", "--log-level", "debug")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := false
		for sc.Scan() {
			if !once && strings.Contains(sc.Text(), "Sync pass done") {
				once = true
				close(ready)
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case <-ready:
	case <-time.After(2 * time.Minute):
		b.Fatal("mailnode serve did not finish its first pass")
	}
	time.Sleep(500 * time.Millisecond) // let it enter IDLE

	c, err := imapclient.DialInsecure(srv.Addr, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	c.Login(srv.Username, srv.Password).Wait()
	var out []time.Duration
	for i := range 10 {
		id := fmt.Sprintf("idle-%d-%d@example.com", i, time.Now().UnixNano())
		raw := fmt.Sprintf("From: a@example.com\r\nTo: demo@example.org\r\nSubject: idle %d\r\nMessage-ID: <%s>\r\n\r\nhello\r\n", i, id)
		delivered := time.Now()
		app := c.Append("INBOX", int64(len(raw)), nil)
		app.Write([]byte(raw))
		app.Close()
		if _, err := app.Wait(); err != nil {
			b.Fatal(err)
		}
		for storedCount(b, data, id) == 0 {
			if time.Since(delivered) > 30*time.Second || ctx.Err() != nil {
				b.Fatalf("mail %d not stored within 30s", i)
			}
			time.Sleep(5 * time.Millisecond)
		}
		out = append(out, time.Since(delivered))
		time.Sleep(200 * time.Millisecond)
	}
	return out
}

// chownLike gives every file under dir the owner of ref: the generated
// Maildir must belong to the user Dovecot runs as.
