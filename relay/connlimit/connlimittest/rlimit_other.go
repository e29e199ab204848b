//go:build !unix

package connlimittest

import "testing"

// RaiseFileLimit skips the test: the floods are measured on Unix.
func RaiseFileLimit(t testing.TB, need uint64) {
	t.Skipf("no open-file limit to raise for %d descriptors here", need)
}
