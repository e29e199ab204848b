// Package pgtest starts a real PostgreSQL server for tests: Debian's
// binaries, a fresh cluster in a temporary directory, on a loopback port,
// run as an unprivileged user when the tests run as root (PostgreSQL
// refuses root), as mail/imaptest does for Dovecot.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// unprivilegedUser runs the server when the tests run as root.
const unprivilegedUser = "mailnode-test"

// Server is a running PostgreSQL.
type Server struct {
	// URL reaches the server's postgres database as its superuser.
	URL  string
	Addr string
	cmd  *exec.Cmd
	dir  string
}

// Bin finds the directory of Debian's PostgreSQL server binaries, the
// newest version first; "" if none is installed.
func Bin() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi > vj
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "postgres")); err == nil {
			return d
		}
	}
	if p, err := exec.LookPath("postgres"); err == nil {
		return filepath.Dir(p)
	}
	return ""
}

// Start initialises a cluster and starts a server on 127.0.0.1.
func Start() (*Server, error) {
	bin := Bin()
	if bin == "" {
		return nil, errors.New("no PostgreSQL server binaries (Debian: apt-get install postgresql)")
	}
	cred, err := runAs()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(worldTraversableTemp(), "mailnode-pg-")
	if err != nil {
		return nil, err
	}
	os.Chmod(dir, 0o755)
	data := filepath.Join(dir, "data")
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-h", "127.0.0.1", "-p", port, "-k", dir,
		"-c", "max_connections=200", "-c", "shared_buffers=128MB")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
	logf, _ := os.Create(filepath.Join(dir, "postgres.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start postgres: %w", err)
	}
	s := &Server{URL: "postgres://postgres@" + addr + "/postgres?sslmode=disable", Addr: addr, cmd: cmd, dir: dir}
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := pgx.Connect(context.Background(), s.URL)
		if err == nil {
			c.Close(context.Background())
			return s, nil
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "postgres.log"))
			s.Close()
			return nil, fmt.Errorf("postgres did not come up: %v\n%s", err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Close stops the server and removes its cluster.
func (s *Server) Close() {
	s.cmd.Process.Signal(syscall.SIGINT) // fast shutdown
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	os.RemoveAll(s.dir)
}

// Kill stops the server at once, as a crash does, and keeps its files.
func (s *Server) Kill() {
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	s.cmd.Wait()
}

// Database creates a fresh database and returns its URL.
func (s *Server) Database(ctx context.Context) (string, error) {
	b := make([]byte, 6)
	rand.Read(b)
	name := "t_" + hex.EncodeToString(b)
	c, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		return "", err
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return "postgres://postgres@" + s.Addr + "/" + name + "?sslmode=disable", nil
}

var (
	shared     *Server
	sharedErr  error
	sharedOnce sync.Once
)

// Need returns a fresh database on a server shared by the package's tests
// (stopped by the caller's TestMain through Stop). Without PostgreSQL it
// skips, unless MAILNODE_TEST_POSTGRES=1 (CI, make test), where it fails.
func Need(t testing.TB) string {
	t.Helper()
	sharedOnce.Do(func() { shared, sharedErr = Start() })
	if sharedErr != nil {
		if os.Getenv("MAILNODE_TEST_POSTGRES") == "1" {
			t.Fatalf("PostgreSQL: %v", sharedErr)
		}
		t.Skipf("PostgreSQL: %v", sharedErr)
	}
	url, err := shared.Database(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// Stop stops the shared server, if one was started.
func Stop() {
	if shared != nil {
		shared.Close()
	}
}

// runAs is who the server runs as: the current user, or when that is root,
// an unprivileged system user created for the purpose (nil: no change).
func runAs() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup(unprivilegedUser)
	if err != nil {
		out, aerr := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", unprivilegedUser).CombinedOutput()
		if aerr != nil {
			return nil, fmt.Errorf("create user %s for PostgreSQL: %v: %s", unprivilegedUser, aerr, out)
		}
		if u, err = user.Lookup(unprivilegedUser); err != nil {
			return nil, err
		}
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// worldTraversableTemp returns $TMPDIR if every directory on its path lets
// others through, else /tmp.
func worldTraversableTemp() string {
	dir := os.TempDir()
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return "/tmp"
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}
