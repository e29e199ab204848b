package localca_test

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"mailnode/gateway/localca"
)

// fsizeEnv, set in a child process of TestFailedWrite, names the
// directory to create the CA in and the file size limit to do it under.
const fsizeEnv = "LOCALCA_TEST_FSIZE"

// TestFailedWrite: when writing the CA's key or certificate fails, Open
// says so and leaves neither a cut file in the CA's place nor a temporary
// file behind. The write is made to fail for real: a child process lowers
// its file size limit (RLIMIT_FSIZE), so write(2) returns EFBIG part way.
func TestFailedWrite(t *testing.T) {
	if v := os.Getenv(fsizeEnv); v != "" {
		failedWriteChild(v)
		return
	}
	for _, tc := range []struct {
		name    string
		limit   int // bytes
		wantKey bool
		wantErr string
	}{
		// The key's PEM is about 230 bytes, the certificate's about 560.
		{"the key's write fails", 64, false, "write ca-key.pem"},
		{"the certificate's write fails", 400, true, "write ca.pem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ca")
			cmd := exec.Command(os.Args[0], "-test.run=^TestFailedWrite$", "-test.count=1")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d:%s", fsizeEnv, tc.limit, dir))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			got, _, _ := strings.Cut(string(out), "\n")
			if !strings.HasPrefix(got, "error: ") || !strings.Contains(got, tc.wantErr) || !strings.Contains(got, "file too large") {
				t.Fatalf("Open under a %d-byte file size limit = %q, want an error saying %q failed", tc.limit, got, tc.wantErr)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				switch e.Name() {
				case "ca-key.pem":
					if !tc.wantKey {
						t.Errorf("ca-key.pem is in place after its write failed")
						continue
					}
					// Written whole before the certificate failed.
					b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
					blk, _ := pem.Decode(b)
					if blk == nil {
						t.Fatalf("ca-key.pem is cut: %q", b)
					}
					if _, err := x509.ParseECPrivateKey(blk.Bytes); err != nil {
						t.Errorf("ca-key.pem: %v", err)
					}
				default:
					t.Errorf("%s is in the CA's directory after a failed write", e.Name())
				}
			}
			// Without the limit, the next start makes a whole CA.
			ca, err := localca.Open(dir, nil, nil)
			if err != nil {
				t.Fatalf("Open after the failed write: %v", err)
			}
			if _, err := localca.Open(dir, nil, nil); err != nil || ca.Cert() == nil {
				t.Fatalf("reopen: %v", err)
			}
		})
	}
}

// failedWriteChild creates a CA under a file size limit and prints what
// Open returned. SIGXFSZ is ignored so the write returns EFBIG instead of
// the signal ending the process.
func failedWriteChild(v string) {
	limit, dir, _ := strings.Cut(v, ":")
	n, err := strconv.ParseUint(limit, 10, 64)
	if err != nil {
		fmt.Println("bad", fsizeEnv, v)
		os.Exit(2)
	}
	signal.Ignore(syscall.SIGXFSZ)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		fmt.Println("setrlimit:", err)
		os.Exit(2)
	}
	if _, err := localca.Open(dir, nil, nil); err != nil {
		fmt.Println("error:", err)
	} else {
		fmt.Println("ok")
	}
	os.Exit(0)
}
