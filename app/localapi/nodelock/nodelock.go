// Package nodelock keeps a data directory to one node where the local
// API's socket cannot: on Windows without AF_UNIX sockets (before
// Windows 10 1803, and under Wine), a node takes an exclusive lock on a
// file in its data directory instead, and a command finds the node there
// by that lock. Everywhere else the socket is the lock: a node answering
// on it is the node (localserver.Listen), and this package is not used.
package nodelock

import (
	"errors"
	"path/filepath"
)

// FileName is the lock file's name in the data directory.
const FileName = "mailnode.lock"

// ErrHeld: another process holds the data directory's lock.
var ErrHeld = errors.New("another node holds this data directory's lock")

// Lock is a held lock; Release lets it go.
type Lock struct{ release func() error }

// Release lets the lock go. It is safe to call more than once.
func (l *Lock) Release() error {
	if l == nil || l.release == nil {
		return nil
	}
	r := l.release
	l.release = nil
	return r()
}

// Take takes the lock of dataDir at once, or returns ErrHeld.
func Take(dataDir string) (*Lock, error) { return take(filepath.Join(dataDir, FileName)) }

// Held reports whether a process holds dataDir's lock now.
func Held(dataDir string) bool {
	l, err := Take(dataDir)
	if err != nil {
		return errors.Is(err, ErrHeld)
	}
	l.Release()
	return false
}
