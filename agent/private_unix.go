//go:build !windows

package agent

import (
	"fmt"
	"os"
)

// checkPrivate refuses a key file that group or others can read.
func checkPrivate(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("key file: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("key file %s is readable by others (mode %v); chmod 600 it", path, fi.Mode().Perm())
	}
	return nil
}

// restrictNew has nothing to do here: the file was created 0600.
func restrictNew(string) error { return nil }
