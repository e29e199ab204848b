package app_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"mailnode/app"
	"mailnode/app/apptest"
)

// TestDataDirectoryIsPrivate (hardening item 4): whatever the umask and
// whatever an older version left, the data directory is 0700 and the
// files holding mail and keys are 0600.
func TestDataDirectoryIsPrivate(t *testing.T) {
	old := syscall.Umask(0o022) // a usual desktop umask; main sets 077
	defer syscall.Umask(old)
	for _, tc := range []struct {
		name  string
		setup func(dir string)
	}{
		{"fresh", func(string) {}},
		{"existing 0755 directory", func(dir string) {
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"existing 0644 database", func(dir string) {
			n, err := app.New(apptest.Demo(t, app.Config{DataDir: dir}), nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := n.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			if _, err := n.Sync(context.Background()); err != nil {
				t.Fatal(err)
			}
			n.Stop()
			os.Chmod(dir, 0o755)
			filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					os.Chmod(p, 0o644)
				}
				return nil
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			tc.setup(dir)
			n, err := app.New(apptest.Demo(t, app.Config{DataDir: dir}), nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := n.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			defer n.Stop()
			if _, err := n.Sync(context.Background()); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("data directory mode = %v (%v), want 0700", fi.Mode().Perm(), err)
			}
			for _, f := range []string{"node.db", "node.db-wal", "node.db-shm"} {
				fi, err := os.Stat(filepath.Join(dir, f))
				if err != nil || fi.Mode().Perm() != 0o600 {
					t.Errorf("%s mode = %v (%v), want 0600", f, fi.Mode().Perm(), err)
				}
			}
		})
	}
}
