package store

import (
	"context"
	"time"
)

// checkpointEvery is how often the checkpointer copies the WAL back into
// the database file.
const checkpointEvery = time.Second

// The file is opened with automatic checkpoints off (wal_autocheckpoint=0)
// and checkpointed here instead. SQLite's automatic checkpoint runs inside
// the commit that crosses the threshold, with an fsync of the WAL and of
// the database, and that commit's caller waits for it: measured on this
// project's machines, 55-65 ms for a one-row nonce commit, which every
// request queued behind it paid too. A PASSIVE checkpoint from its own
// goroutine blocks neither writers nor readers.
func (s *Store) checkpointLoop() {
	defer close(s.checkpointDone)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	warned := false
	for {
		select {
		case <-s.checkpointStop:
			return
		case <-t.C:
		}
		_, err := s.db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
		switch {
		case err != nil && !warned:
			s.log.Warn("Checkpoint failed", "err", err)
			warned = true
		case err != nil:
			s.log.Debug("Checkpoint failed", "err", err)
		default:
			warned = false
		}
	}
}
