package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"mailnode/internal/wintest"
	"mailnode/mail/store"
)

// TestOpenWindows: the store opens at a Windows path (a drive letter,
// backslashes, a space) through SQLite's URI form, survives a close and
// a second open, and its file passes as private.
func TestOpenWindows(t *testing.T) {
	dir := filepath.Join(wintest.TempDir(t), "Mail Node")
	path := filepath.Join(dir, "node.db")
	ctx := context.Background()
	for i := range 2 {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		s, err := store.Open(ctx, path, nil)
		if err != nil {
			t.Fatalf("Open #%d(%s): %v", i+1, path, err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("Close #%d: %v", i+1, err)
		}
	}
}
