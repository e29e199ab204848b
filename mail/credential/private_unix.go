//go:build !windows

package credential

import (
	"fmt"
	"os"
)

// checkPrivate refuses a password file that group or others can read.
func checkPrivate(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("password file: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("password file %s is readable by others (mode %v); chmod 600 it", path, fi.Mode().Perm())
	}
	return nil
}
