package store

import (
	"fmt"
	"path/filepath"

	"mailnode/internal/privdir"
)

// private gives the database file and its -wal and -shm files a DACL for
// this user alone if others may open them: they hold the whole mailbox
// and the node's keys. Mode bits mean only read-only on Windows; a file
// made in the node's data directory inherits its private DACL already,
// so this closes a file made elsewhere or by hand.
func private(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if _, err := privdir.MakePrivate(p); err != nil {
			return fmt.Errorf("make %s private: %w", filepath.Base(p), err)
		}
	}
	return nil
}
