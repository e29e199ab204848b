//go:build linux || darwin

package localserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"mailnode/app/localapi"
	"mailnode/app/localapi/localclient"
	"mailnode/app/localapi/localserver"
	"mailnode/approvals"
)

// approvalsOnly answers the two calls the test makes: a read and a
// write. Any other would panic on the nil Backend.
type approvalsOnly struct{ localapi.Backend }

func (approvalsOnly) Pending(context.Context) ([]approvals.Approval, error) {
	return []approvals.Approval{{ID: "ap_1"}}, nil
}
func (approvalsOnly) Decide(_ context.Context, id string, _ bool) (approvals.Approval, error) {
	return approvals.Approval{ID: id}, nil
}

// childEnv names the socket's directory to the test binary run as
// another user.
const childEnv = "MAILNODE_LOCALAPI_PEER_CHILD"

// childAnswer is what the other user's calls got.
type childAnswer struct {
	ReadErr, WriteErr             string
	ReadForbidden, WriteForbidden bool
}

// TestPeerChild is the other user's side of TestOtherUserRefused; it
// does nothing in an ordinary run.
func TestPeerChild(t *testing.T) {
	dir := os.Getenv(childEnv)
	if dir == "" {
		return
	}
	c, err := localclient.Dial(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, rerr := c.Pending(context.Background())
	_, werr := c.Decide(context.Background(), "ap_1", true)
	var a childAnswer
	if rerr != nil {
		a.ReadErr, a.ReadForbidden = rerr.Error(), errors.Is(rerr, localapi.ErrForbidden)
	}
	if werr != nil {
		a.WriteErr, a.WriteForbidden = werr.Error(), errors.Is(werr, localapi.ErrForbidden)
	}
	json.NewEncoder(os.Stdout).Encode(a)
}

// TestOtherUserRefused: with the socket's mode loosened so that another
// user can connect (a mistake the per-request check is there for), that
// user's read and write are both refused, each with an error that says
// why and what to do and that is localapi.ErrForbidden on the client's
// side; the node's own user, on the same socket, reads and writes.
func TestOtherUserRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("running a caller as another user needs root (CI runs as root)")
	}
	const nobody = 65534
	dir, err := os.MkdirTemp("", "localapi-peer-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	ln, err := localserver.Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- localserver.Serve(ctx, ln, localserver.Handler(approvalsOnly{}, slog.New(slog.DiscardHandler)))
	}()
	t.Cleanup(func() { cancel(); <-done })
	// The mistake: anyone may reach the socket.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, localapi.SocketName), 0o666); err != nil {
		t.Fatal(err)
	}

	own, err := localclient.Dial(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := own.Pending(ctx); err != nil {
		t.Errorf("the owner's read: %v", err)
	}
	if _, err := own.Decide(ctx, "ap_1", true); err != nil {
		t.Errorf("the owner's write: %v", err)
	}

	// The other user runs this test binary, copied where it can read it.
	self, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer self.Close()
	bin := filepath.Join(dir, "peer.test")
	out, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, self); err != nil {
		t.Fatal(err)
	}
	out.Close()
	cmd := exec.Command(bin, "-test.run=^TestPeerChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("the other user's calls: %v\n%s", err, got)
	}
	var a childAnswer
	line, _, _ := strings.Cut(string(got), "\n")
	if err := json.Unmarshal([]byte(line), &a); err != nil {
		t.Fatalf("the other user's answer %q: %v", got, err)
	}
	for _, c := range []struct {
		what      string
		msg       string
		forbidden bool
		verb      string
	}{{"read", a.ReadErr, a.ReadForbidden, "to read"}, {"write", a.WriteErr, a.WriteForbidden, "to write"}} {
		if !c.forbidden {
			t.Errorf("the other user's %s: %q, want ErrForbidden", c.what, c.msg)
		}
		for _, want := range []string{"not permitted " + c.verb, "uid " + strconv.Itoa(os.Getuid()), "uid " + strconv.Itoa(nobody), "run the command as that user"} {
			if !strings.Contains(c.msg, want) {
				t.Errorf("the other user's %s got %q, which does not say %q", c.what, c.msg, want)
			}
		}
	}
}
