package nodelock

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// NoUnixSockets reports whether err says the system has no AF_UNIX
// sockets (WSAEAFNOSUPPORT): Windows before 10 1803, and Wine.
func NoUnixSockets(err error) bool { return errors.Is(err, windows.WSAEAFNOSUPPORT) }

// take opens path and locks its first byte exclusively, failing at once
// when another handle holds it (LockFileEx); the lock ends with the
// handle, so a node that dies lets it go.
func take(path string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("node lock: %w", err)
	}
	ol := new(windows.Overlapped)
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return nil, ErrHeld
		}
		return nil, fmt.Errorf("node lock: %w", err)
	}
	return &Lock{release: func() error {
		windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
		return f.Close()
	}}, nil
}
