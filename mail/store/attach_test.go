package store_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"mailnode/mail/store"
)

func TestAttachMigratesEachComponentOnce(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "node.db")
	v1 := fstest.MapFS{
		"sql/0001_init.sql": {Data: []byte("CREATE TABLE widgets (id INTEGER PRIMARY KEY, name TEXT);")},
	}
	v2 := fstest.MapFS{
		"sql/0001_init.sql":  v1["sql/0001_init.sql"],
		"sql/0002_more.sql":  {Data: []byte("ALTER TABLE widgets ADD COLUMN size INTEGER;")},
		"sql/0003_index.sql": {Data: []byte("CREATE INDEX widgets_size ON widgets(size);")},
	}

	s, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := s.Attach(ctx, "widgets", v1)
	if err != nil {
		t.Fatalf("Attach(v1) = %v", err)
	}
	err = tables.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO widgets (name) VALUES ('a')")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// Attaching again applies nothing (a second CREATE TABLE would fail).
	if _, err := s.Attach(ctx, "widgets", v1); err != nil {
		t.Fatalf("Attach(v1) again = %v", err)
	}
	s.Close()

	s, err = store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tables, err = s.Attach(ctx, "widgets", v2)
	if err != nil {
		t.Fatalf("Attach(v2) = %v", err)
	}
	var name string
	var size sql.NullInt64
	if err := tables.DB().QueryRowContext(ctx, "SELECT name, size FROM widgets").Scan(&name, &size); err != nil || name != "a" {
		t.Fatalf("row after migration = %q, %v", name, err)
	}
	// An older binary (knowing only v1) refuses the newer tables.
	if _, err := s.Attach(ctx, "widgets", v1); !errors.Is(err, store.ErrTooNew) {
		t.Fatalf("Attach(v1) after v2 = %v, want ErrTooNew", err)
	}
	// A broken migration changes nothing.
	bad := fstest.MapFS{"sql/0001_init.sql": {Data: []byte("CREATE TABLE gadgets (id INTEGER); SELECT nonsense FROM nowhere;")}}
	if _, err := s.Attach(ctx, "gadgets", bad); err == nil {
		t.Fatal("Attach(bad) = nil error")
	}
	if err := tables.DB().QueryRowContext(ctx, "SELECT count(*) FROM gadgets").Scan(new(int)); err == nil {
		t.Fatal("table of a failed migration exists")
	}
}

// TestMigrateFromVersion1 opens a file at schema version 1 (built from the
// shipped 0001 migration, as a binary of that version left it) and checks
// that it is upgraded and keeps its mail.
func TestMigrateFromVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "node.db")
	init1, err := os.ReadFile("sql/migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(string(init1) + "; PRAGMA user_version = 1;" +
		"INSERT INTO accounts (name, server, username) VALUES ('old', 'imap.example.com:993', 'me');"); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	s, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatalf("Open(v1 file) = %v", err)
	}
	defer s.Close()
	acct, err := s.EnsureAccount(ctx, store.Account{Name: "old", Server: "imap.example.com:993", Username: "me"})
	if err != nil || acct.ID != 1 {
		t.Fatalf("EnsureAccount after migration = %+v, %v; want the existing account 1", acct, err)
	}
	if _, err := s.Attach(ctx, "widgets", fstest.MapFS{"sql/0001_a.sql": {Data: []byte("CREATE TABLE w (x);")}}); err != nil {
		t.Fatalf("Attach after migration = %v", err)
	}
}
