//go:build !windows

package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// private makes the database file and its -wal and -shm files readable
// by their owner only: they hold the whole mailbox and the node's keys.
// A file made by an older version with the process's umask is tightened.
func private(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(p, 0o600); err != nil {
				return fmt.Errorf("make %s private: %w", filepath.Base(p), err)
			}
		}
	}
	return nil
}
