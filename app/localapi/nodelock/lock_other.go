//go:build !windows

package nodelock

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// take opens path and takes an exclusive flock, failing at once when
// another open file holds it; the lock ends with the file, so a node that
// dies lets it go. (Unused by the node on these systems, whose socket is
// the lock; kept so the package and its test run everywhere.)
func take(path string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("node lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrHeld
		}
		return nil, fmt.Errorf("node lock: %w", err)
	}
	return &Lock{release: f.Close}, nil
}

// NoUnixSockets is false: these systems all have AF_UNIX sockets.
func NoUnixSockets(error) bool { return false }
