package imapsync_test

import (
	"go.uber.org/goleak"

	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mailnode/mail/credential"
	"mailnode/mail/imapsync"
	"mailnode/mail/imaptest"
	"mailnode/mail/store"
)

// The crash helper: when the test binary runs with these variables set, it
// syncs once into the given database and exits. TestCrashMidSync kills it.
const (
	envCrashDB    = "MAILNODE_CRASH_HELPER_DB"
	envCrashAddr  = "MAILNODE_CRASH_HELPER_ADDR"
	envCrashUser  = "MAILNODE_CRASH_HELPER_USER"
	envCrashPass  = "MAILNODE_CRASH_HELPER_PASSWORD"
	syncingMarker = "syncing"
	storedMarker  = "stored"
)

// startHelper starts cmd and returns once it has begun syncing.
func startHelper(t *testing.T, cmd *exec.Cmd) (stored <-chan struct{}) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != syncingMarker {
		t.Fatalf("crash helper did not start syncing: %q, %v", line, err)
	}
	// stored is closed when the helper says a batch is in the store.
	ch := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		once := false
		for sc.Scan() {
			if sc.Text() == storedMarker && !once {
				once = true
				close(ch)
			}
		}
	}()
	return ch
}

func TestMain(m *testing.M) {
	if db := os.Getenv(envCrashDB); db != "" {
		os.Exit(crashHelper(db, os.Getenv(envCrashAddr)))
	}
	// No goroutine may outlive the tests: a syncer's fetch pipeline and
	// IDLE loop end with their context. The test IMAP server's connection
	// goroutines are not the syncer's: go-imap's Server.Close closes the
	// connections without waiting for them (one was caught in CI still
	// taking its encoder lock).
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/emersion/go-imap/v2/imapserver.(*Conn).serve"),
		// The AUTHENTICATE exchanges go-imap keeps waiting after a hostile
		// server broke them off (hostile_auth_test.go): left by design,
		// bounded by maxStuck per Syncer.
		goleak.IgnoreAnyFunction("mailnode/mail/imapsync.(*Syncer).authenticateOnce.func1"))
}

func crashHelper(dbPath, addr string) int {
	ctx := context.Background()
	st, err := store.Open(ctx, dbPath, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	s, err := imapsync.New(imapsync.Config{Account: "test", Address: addr, Security: imapsync.Plain,
		Username: os.Getenv(envCrashUser), Password: credential.Secret(os.Getenv(envCrashPass)), BatchMessages: 25,
		Progress: func(p imapsync.Progress) {
			if p.Done > 0 && !p.Finished {
				fmt.Fprintln(os.Stdout, storedMarker)
			}
		}}, st, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// Tell the parent the sync starts now, so its kill timing does not
	// depend on how long the process took to start (much longer under -race).
	fmt.Fprintln(os.Stdout, syncingMarker)
	if _, err := s.Sync(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestCrashMidSync kills a syncing process with SIGKILL at random moments.
// After every kill the database must open, pass SQLite's and FTS5's
// integrity checks, and hold only true copies of server messages; the next
// sync resumes and makes the store equal the server.
func TestCrashMidSync(t *testing.T) {
	servers(t, func(t *testing.T, srv *imaptest.Server) {
		r := rand.New(rand.NewPCG(seed(t), 3))
		m := newMailbox(t, srv, r)
		for range 400 {
			m.n++
			appendMsg(t, m.c, m.folders[r.IntN(len(m.folders))], genMessage(r, m.n), m.randomFlags())
		}
		dbPath := filepath.Join(t.TempDir(), "node.db")
		helper := func() *exec.Cmd {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), envCrashDB+"="+dbPath, envCrashAddr+"="+srv.Addr,
				envCrashUser+"="+srv.Username, envCrashPass+"="+srv.Password)
			return cmd
		}
		// How long a whole sync takes, to spread the kills over it.
		probe := filepath.Join(t.TempDir(), "probe.db")
		cmd := helper()
		cmd.Env = append(cmd.Env, envCrashDB+"="+probe) // the later value wins
		startHelper(t, cmd)
		start := time.Now()
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper sync: %v", err)
		}
		full := time.Since(start)

		serverTotal := func() int {
			n := 0
			for _, f := range m.allFolders(srv) {
				n += len(serverContents(t, m.c, f))
			}
			return n
		}
		kills, partial := 0, 0
		for round := range 12 {
			for range r.IntN(15) {
				m.step() // the server moves on between crashes too
			}
			if round%3 == 0 {
				// Start over now and then, so kills land in full syncs too.
				for _, suffix := range []string{"", "-wal", "-shm"} {
					os.Remove(dbPath + suffix)
				}
			}
			cmd := helper()
			stored := startHelper(t, cmd)
			exited := make(chan struct{})
			go func() { cmd.Wait(); close(exited) }()
			// Most kills land at a random moment of a sync; every third
			// right after a batch reached the store, so that some surely
			// interrupt a sync half-way, however fast syncs run here.
			wait := stored
			if round%3 != 1 {
				timer := make(chan struct{})
				time.AfterFunc(time.Duration(r.Int64N(int64(full))), func() { close(timer) })
				wait = timer
			}
			select {
			case <-wait:
				if cmd.Process.Signal(syscall.SIGKILL) == nil {
					kills++
				}
				<-exited
			case <-exited:
				// The sync beat the kill: the probe ran slower than syncs
				// run now (a loaded machine), so aim earlier.
				full = max(full/2, time.Millisecond)
			}

			st, err := store.Open(context.Background(), dbPath, nil)
			if err != nil {
				t.Fatalf("round %d: open after SIGKILL: %v", round, err)
			}
			if err := st.Check(context.Background()); err != nil {
				t.Fatalf("round %d: after SIGKILL: %v", round, err)
			}
			assertTrueCopies(t, m.c, st)
			if stats, _ := st.Stats(context.Background()); stats.Messages > 0 && stats.Messages < serverTotal() {
				partial++
			}
			st.Close()
		}
		if partial == 0 {
			t.Errorf("no kill interrupted a sync half-way; the test exercised nothing")
		}
		// A last, uninterrupted run must finish the job.
		if out, err := helper().CombinedOutput(); err != nil {
			t.Fatalf("final sync: %v\n%s", err, out)
		}
		st, err := store.Open(context.Background(), dbPath, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		assertMirror(t, m.c, st, m.allFolders(srv))
		t.Logf("%s: %d kills during syncs of about %v, %d of them half-way; the store stayed intact and recovered",
			srv.Kind, kills, full.Round(time.Millisecond), partial)
	})
}
