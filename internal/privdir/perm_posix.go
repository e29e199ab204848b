//go:build !windows

package privdir

import (
	"fmt"
	"io/fs"
	"os"
)

// ensurePrivateDir closes dir (this user's) to others: mode 0700.
func ensurePrivateDir(dir string, fi fs.FileInfo) (bool, error) {
	perm := fi.Mode().Perm()
	if perm&0o077 == 0 {
		return false, nil
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return false, fmt.Errorf("%s is open to other users (mode %04o) and cannot be made private: %w", dir, perm, err)
	}
	return true, nil
}

// checkPublic refuses a file others may write.
func checkPublic(path string, fi fs.FileInfo) error {
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("%s may be changed by other users (mode %04o): remove it", path, perm)
	}
	return nil
}

// checkPrivate refuses a file others may read or write.
func checkPrivate(path string, fi fs.FileInfo) error {
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s is open to other users (mode %04o): whoever could read or change it may hold the secret; remove it, or make it 0600 if you know it is yours", path, perm)
	}
	return nil
}

// makePrivate makes a file of this user's 0600 if others may open it.
func makePrivate(path string, fi fs.FileInfo) (bool, error) {
	if fi.Mode().Perm()&0o077 == 0 {
		return false, nil
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return false, fmt.Errorf("%s is open to other users and cannot be made private: %w", path, err)
	}
	return true, nil
}

// setMode gives a file being written its mode.
func setMode(f *os.File, mode os.FileMode) error { return f.Chmod(mode) }
