//go:build unix

package connlimittest

import (
	"syscall"
	"testing"
)

// RaiseFileLimit raises the process's open-file limit to its hard limit
// and skips the test if even that is below need.
func RaiseFileLimit(t testing.TB, need uint64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			t.Fatal(err)
		}
	}
	if lim.Cur < need {
		t.Skipf("open-file limit %d is below the %d this test needs", lim.Cur, need)
	}
}
