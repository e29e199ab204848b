package relaystore

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"mailnode/relay/relaystore/pgtest"
)

// TestQueueMigration: a store whose queue was made before issue 40 keeps
// its envelopes (waiting and delivered) through the migration that counts
// delivered ones and client networks, on SQLite and on PostgreSQL.
func TestQueueMigration(t *testing.T) {
	ctx := context.Background()
	now := time.UnixMilli(1_800_000_000_000)
	old := []string{
		"INSERT INTO queue(id, label, sealed, created, expires, reply) VALUES ('waiting', 'nodea', 'sealed bytes', %d, %d, NULL)",
		"INSERT INTO queue(id, label, sealed, created, expires, reply) VALUES ('answered', 'nodea', NULL, %d, %d, 'a reply')",
	}
	check := func(t *testing.T, s Store) {
		e, err := s.QueueEntry(ctx, "waiting", now)
		if err != nil || !bytes.Equal(e.Sealed, []byte("sealed bytes")) || e.Label != "nodea" {
			t.Errorf("waiting envelope after the migration = %+v, %v", e, err)
		}
		if r, err := s.QueueReply(ctx, "answered", now); err != nil || string(r) != "a reply" {
			t.Errorf("answered envelope's reply = %q, %v", r, err)
		}
		// Both hold a place: one more fits a limit of 3, not two more.
		if _, err := s.Enqueue(ctx, Envelope{ID: "new", Label: "nodea", Net: []byte("n"), Sealed: []byte("x"), Created: now, Expires: now.Add(time.Hour)}, 3, 3); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Enqueue(ctx, Envelope{ID: "newer", Label: "nodea", Net: []byte("n"), Sealed: []byte("x"), Created: now, Expires: now.Add(time.Hour)}, 3, 3); err != ErrQueueFull {
			t.Errorf("fourth envelope after the migration = %v, want ErrQueueFull", err)
		}
	}

	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "relay.db"))
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range migrations[:3] {
			if _, err := db.Exec(m); err != nil {
				t.Fatalf("migration %d: %v", i+1, err)
			}
		}
		for _, q := range old {
			if _, err := db.Exec(fmt.Sprintf(q, now.Add(-time.Hour).UnixMilli(), now.Add(time.Hour).UnixMilli())); err != nil {
				t.Fatal(err)
			}
		}
		db.Exec("PRAGMA user_version = 3")
		db.Close()
		s, err := OpenSQLite(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		check(t, s)
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.Need(t)
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range pgMigrations[:2] {
			if _, err := c.Exec(ctx, m); err != nil {
				t.Fatalf("migration %d: %v", i+1, err)
			}
		}
		for _, q := range old {
			if _, err := c.Exec(ctx, fmt.Sprintf(q, now.Add(-time.Hour).UnixMilli(), now.Add(time.Hour).UnixMilli())); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := c.Exec(ctx, "CREATE TABLE schema_version (v INTEGER NOT NULL); INSERT INTO schema_version VALUES (2)"); err != nil {
			t.Fatal(err)
		}
		c.Close(ctx)
		s, err := OpenPostgres(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		check(t, s)
	})
}

// TestMigrateCodes: a relay.db of schema 3 (pending registrations with
// their code hash, issue 40 before) opens at the newest schema: the old pending
// rows are gone (their nodes ask again) and codes can be issued.
func TestMigrateCodes(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "relay.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:3] {
		if _, err := db.Exec(m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO pending(address, node_key, box_key, code_hash, expires, attempts)
		VALUES ('old@example.com', x'01', x'02', x'03', 4000000000, 2); PRAGMA user_version = 3`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s, err := OpenSQLite(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var v int
	s.db.QueryRow("PRAGMA user_version").Scan(&v)
	if v != len(migrations) {
		t.Fatalf("schema version %d, want %d", v, len(migrations))
	}
	if _, err := s.PendingFor(t.Context(), "old@example.com", []byte{1}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("old pending registration = %v, want gone", err)
	}
	now := time.Unix(1_800_000_000, 0)
	if _, issued, err := s.IssueCode(t.Context(), Code{Address: "old@example.com", ID: "x", Hash: []byte{4}, Issued: now, Expires: now.Add(time.Hour)}, 6, 100); err != nil || !issued {
		t.Fatalf("IssueCode after migration = %v, %v", issued, err)
	}
}
