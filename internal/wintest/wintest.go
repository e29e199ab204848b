// Package wintest helps the tests of platform code run on Windows and
// under Wine, which runs them here (make test-windows): Wine lacks a few
// things Windows has, and a test names the one it cannot check there
// instead of failing on it, while the rest of it still runs.
//
// What Wine 8 (Debian 12's) lacks, found by these tests:
//   - bcryptprimitives.dll's ProcessPrng, which Go's runtime calls before
//     main: the harness builds a small one (testdata/bcryptprimitives.c)
//     with mingw-w64 into the Wine prefix;
//   - DACLs that read back: Wine derives a file's DACL from its unix
//     mode bits on each read (internal/privdir);
//   - AF_UNIX sockets (WSAEAFNOSUPPORT): the local API's socket;
//   - SIO_UDP_NETRESET, which Go sets on every UDP socket: no UDP
//     listener (the demo relay's DNS server);
//   - FileDispositionInformationEx, with which Go's os.RemoveAll deletes:
//     TempDir here removes file by file.
package wintest

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TempDir is t.TempDir for tests that run under Wine: its cleanup
// removes the tree one entry at a time with os.Remove, which Wine
// supports, where os.RemoveAll fails there ("Invalid function").
func TempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "mailnode-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		var paths []string
		filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
			paths = append(paths, p)
			return nil
		})
		slices.Reverse(paths) // children before their directory
		for _, p := range paths {
			os.Chmod(p, 0o700) // clears a read-only attribute on Windows
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				t.Logf("remove %s: %v", p, err)
			}
		}
	})
	return dir
}
