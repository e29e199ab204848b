package store

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"
)

// walFrames is the WAL's length in frames, from a PASSIVE checkpoint.
func walFrames(t *testing.T, s *Store) int {
	t.Helper()
	var busy, frames, copied int
	if err := s.db.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil {
		t.Fatal(err)
	}
	return frames
}

// TestCheckpointRestartsLongWAL: a WAL that a PASSIVE checkpoint cannot
// copy back whole, because a reader holds an older snapshot, is restarted
// once that reader is done (within restartWait), so the next commit
// writes from the WAL's start. Without the restart the commit appends.
func TestCheckpointRestartsLongWAL(t *testing.T) {
	for _, restart := range []bool{false, true} {
		ctx := context.Background()
		s, err := Open(ctx, filepath.Join(t.TempDir(), "node.db"), slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		// The loop's own tick, after the reader below is gone, would copy
		// the whole WAL back and let the next commit restart it anyway.
		s.stopCheckpointer()
		s.walRestart = 1 << 30
		// The reader lets go after restartWait/5; a loaded machine may
		// wake it later than restartWait, which skipped the restart (a
		// flake seen once): the restart here waits long enough for it.
		s.restartWait = 30 * time.Second
		if restart {
			s.walRestart = 8
		}
		if err := s.exec(ctx, `CREATE TABLE scratch (b BLOB)`); err != nil {
			t.Fatal(err)
		}
		write := func(pages int) {
			for range pages {
				if err := s.exec(ctx, `INSERT INTO scratch VALUES (randomblob(?))`, pageSize); err != nil {
					t.Fatal(err)
				}
			}
		}
		conn, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(ctx, "BEGIN DEFERRED"); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM scratch").Scan(&n); err != nil {
			t.Fatal(err)
		}
		write(12) // past the reader's snapshot: PASSIVE cannot copy these yet
		// With the restart, the reader lets go while the checkpoint waits
		// for it; without, only once the WAL is measured: had it let go
		// before walFrames's own PASSIVE checkpoint on a loaded machine,
		// that copied the WAL back whole and the next commit started it
		// over, restart or not (CI 74: 69 frames, then 3).
		readerDone, release := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(readerDone)
			if restart {
				time.Sleep(restartWait / 5)
			} else {
				<-release
			}
			conn.ExecContext(ctx, "ROLLBACK")
			conn.Close()
		}()
		if err := s.checkpoint(ctx); err != nil {
			t.Fatal(err)
		}
		long := walFrames(t, s)
		write(1)
		got := walFrames(t, s)
		if restart && got > 4 {
			t.Errorf("with the restart: a WAL of %d frames, then one commit: %d frames, want it started over", long, got)
		}
		if !restart && got <= long {
			t.Errorf("without the restart: a WAL of %d frames, then one commit: %d frames; the test no longer tells them apart", long, got)
		}
		close(release)
		<-readerDone
		s.Close()
	}
}

// TestCheckpointRestartYieldsToReaders: a reader holding an old snapshot
// costs the restart, not the writers: the checkpoint gives up after
// restartWait and a write goes through.
func TestCheckpointRestartYieldsToReaders(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "node.db"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.walRestart = 1
	if err := s.exec(ctx, `CREATE TABLE scratch (b BLOB)`); err != nil {
		t.Fatal(err)
	}
	if err := s.exec(ctx, `INSERT INTO scratch VALUES (randomblob(1000))`); err != nil {
		t.Fatal(err)
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN DEFERRED"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM scratch").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if err := s.exec(ctx, `INSERT INTO scratch VALUES (randomblob(1000))`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s.checkpoint(ctx) // busy: the reader keeps its snapshot
	if took := time.Since(start); took > restartWait+time.Second {
		t.Fatalf("checkpoint waited %v for a reader", took)
	}
	done := make(chan error, 1)
	go func() { done <- s.exec(ctx, `INSERT INTO scratch VALUES (randomblob(1000))`) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a write waited behind the restart")
	}
	conn.ExecContext(ctx, "ROLLBACK")
}
