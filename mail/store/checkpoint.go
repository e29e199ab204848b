package store

import (
	"context"
	"fmt"
	"time"
)

// checkpointEvery is how often the checkpointer copies the WAL back into
// the database file.
const checkpointEvery = time.Second

// walRestartFrames is the WAL's length, in frames (pages), past which the
// checkpointer also restarts it: 1,024 pages of 64 KiB, 64 MiB.
const walRestartFrames = 64 << 20 / pageSize

// The file is opened with automatic checkpoints off (wal_autocheckpoint=0)
// and checkpointed here instead. SQLite's automatic checkpoint runs inside
// the commit that crosses the threshold, with an fsync of the WAL and of
// the database, and that commit's caller waits for it: measured on this
// project's machines, 55-65 ms for a one-row nonce commit, which every
// request queued behind it paid too. A PASSIVE checkpoint from its own
// goroutine blocks neither writers nor readers.
//
// But a PASSIVE checkpoint alone never lets a busy writer start the WAL
// over: the writer restarts it only when every frame has been copied back,
// and while a sync writes, frames come in faster than that. The WAL then
// grew through a whole initial sync (290 MB for 10,000 messages), each
// commit appending to the file, and truncating it at Close took 0.4 s.
// So when the WAL is long, the checkpointer takes the writers' turn and
// finishes with a RESTART checkpoint: the PASSIVE one has copied most of
// it already, the writers wait only for the rest and the database's fsync,
// and the next commit writes from the WAL's start again.
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
		err := s.checkpoint(context.Background())
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

// stopCheckpointer stops checkpointLoop and waits for it; Close calls it,
// and tests that checkpoint by hand, so that no tick of the loop changes
// the WAL under them.
func (s *Store) stopCheckpointer() {
	s.stopCheckpoints.Do(func() {
		close(s.checkpointStop)
		<-s.checkpointDone
	})
}

// checkpoint copies the WAL back into the database file, and restarts the
// WAL when it is longer than walRestartFrames.
func (s *Store) checkpoint(ctx context.Context) error {
	var busy, frames, copied int
	if err := s.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil {
		return err
	}
	if frames < s.walRestart {
		return nil
	}
	// The restart waits for readers of older snapshots to finish, with the
	// writers held: on a connection of its own that waits at most
	// restartWait, so that a long read costs a skipped restart, not a
	// stalled sync; the next tick tries again.
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", s.restartWait.Milliseconds())); err != nil {
		return err
	}
	defer conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", busyTimeout.Milliseconds()))
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	_, err = conn.ExecContext(ctx, "PRAGMA wal_checkpoint(RESTART)")
	return err
}

// restartWait bounds how long a restart waits for readers.
const restartWait = 100 * time.Millisecond
