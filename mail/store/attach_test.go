package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// TestMigrationLog (issue 42 item 9): opening the store says in one Info
// line what it did to the schema, not one per migration file (a first run
// logged fourteen); the files applied are at Debug.
func TestMigrationLog(t *testing.T) {
	ctx := context.Background()
	widgets := fstest.MapFS{"sql/0001_a.sql": {Data: []byte("CREATE TABLE w (x);")}, "sql/0002_b.sql": {Data: []byte("CREATE TABLE w2 (x);")}}
	widgetsV1 := fstest.MapFS{"sql/0001_a.sql": widgets["sql/0001_a.sql"]}
	init1, err := os.ReadFile("sql/migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		prepare func(path string) // the file before the logged Open
		attach  fstest.MapFS
		want    []string // the Info lines' messages and attributes
	}{
		{name: "new file", attach: widgets,
			want: []string{fmt.Sprintf(`msg="Created the store" component=store schemaVersion=%d`, store.SchemaVersion())}},
		{name: "current file", prepare: func(path string) { openAttach(t, path, widgets) }, attach: widgets},
		{name: "version 1 file", prepare: func(path string) {
			raw, err := sql.Open("sqlite", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			defer raw.Close()
			if _, err := raw.Exec(string(init1) + "; PRAGMA user_version = 1;"); err != nil {
				t.Fatal(err)
			}
		}, want: []string{fmt.Sprintf(`msg="Migrated the store" component=store fromVersion=1 toVersion=%d`, store.SchemaVersion())}},
		{name: "component upgrade", prepare: func(path string) { openAttach(t, path, widgetsV1) }, attach: widgets,
			want: []string{`msg="Migrated a component's tables" component=store tables=widgets fromVersion=1 toVersion=2`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "node.db")
			if tt.prepare != nil {
				tt.prepare(path)
			}
			var logs bytes.Buffer
			logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{
				ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
					if a.Key == slog.TimeKey {
						return slog.Attr{}
					}
					return a
				}}))
			s, err := store.Open(ctx, path, logger)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if tt.attach != nil {
				if _, err := s.Attach(ctx, "widgets", tt.attach); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for line := range strings.Lines(logs.String()) {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "level=INFO "); ok {
					got = append(got, rest)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Open and Attach logged at Info:\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// openAttach leaves a store at path with the component widgets attached.
func openAttach(t *testing.T, path string, widgets fstest.MapFS) {
	t.Helper()
	s, err := store.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Attach(context.Background(), "widgets", widgets); err != nil {
		t.Fatal(err)
	}
}
