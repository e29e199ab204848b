package store

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"testing"
)

// TestReleaseMemory: the idle connections close, and the next queries
// open new ones with the store's settings (foreign keys enforced).
func TestReleaseMemory(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "node.db"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Two connections at once, both idle afterwards.
	a, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	b.Close()
	if idle := s.db.Stats().Idle; idle < 2 {
		t.Fatalf("%d idle connections before, want 2", idle)
	}
	closed := s.db.Stats().MaxIdleClosed
	s.ReleaseMemory()
	st := s.db.Stats()
	if st.Idle != 0 || st.MaxIdleClosed < closed+2 {
		t.Fatalf("after ReleaseMemory: %d idle, %d closed for the idle limit (%d before)", st.Idle, st.MaxIdleClosed, closed)
	}
	var fk int
	if err := s.db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("foreign_keys on a new connection: %d, %v", fk, err)
	}
	if idle := s.db.Stats().Idle; idle != 1 {
		t.Errorf("%d idle connections after a query, want the pool to keep it", idle)
	}
}

// TestWritesShareOneConnection: the store's writes go through one
// connection, whose page cache stays warm from one write to the next (a
// connection beginning after another one wrote drops its cache), while a
// reader holds another connection; ReleaseMemory lets that connection go
// too. A TEMP table lives only on the connection that made it.
func TestWritesShareOneConnection(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "node.db"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "CREATE TEMP TABLE mark (x)")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// A reader busy on a connection of its own meanwhile: the pool would
	// hand the next write whichever connection is free.
	r, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	hasMark := func(exec func(string) error) bool {
		return exec("INSERT INTO temp.mark VALUES (1)") == nil
	}
	for i := range 3 {
		if !hasMark(func(q string) error {
			return s.inTx(ctx, func(tx *sql.Tx) error { _, err := tx.ExecContext(ctx, q); return err })
		}) {
			t.Fatalf("write %d ran on another connection than the first", i)
		}
		if !hasMark(func(q string) error { return s.exec(ctx, q) }) {
			t.Fatalf("exec %d ran on another connection than the first", i)
		}
	}
	s.ReleaseMemory()
	if hasMark(func(q string) error { return s.exec(ctx, q) }) {
		t.Error("after ReleaseMemory, the writes still ran on the old connection")
	}
}
