package store

import (
	"context"
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
