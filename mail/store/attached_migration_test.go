package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRestoreAttachedText: mail stored with a mail attached whole before
// the store kept the attached mail's text (schema 5) is found by search
// and read with that text once migration 0006 has run.
func TestRestoreAttachedText(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "node.db")
	s, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := personalInbox(t, s)
	inner := "From: Rail Co <tickets@rail.example>\r\nDate: Mon, 2 Nov 2026 10:00:00 +0100\r\n" +
		"Subject: Your ticket\r\nContent-Type: text/plain\r\n\r\nBooking QX7781, Bern to Basel.\r\n"
	raw := "From: Sam <sam@example.net>\r\nSubject: Fwd: ticket\r\nMessage-ID: <f1@example.net>\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n" +
		"--b\r\nContent-Type: text/plain\r\n\r\nFor Friday.\r\n--b\r\nContent-Type: message/rfc822\r\n\r\n" + inner + "\r\n--b--\r\n"
	plain := "From: Sam <sam@example.net>\r\nSubject: Plain\r\nMessage-ID: <p1@example.net>\r\n\r\nNothing attached, QX7781 named.\r\n"
	msgs := []NewMessage{{UID: 1, InternalDate: time.Now(), Raw: []byte(raw)}, {UID: 2, InternalDate: time.Now(), Raw: []byte(plain)}}
	if err := s.AddMessages(ctx, f.ID, msgs, 2); err != nil {
		t.Fatal(err)
	}
	// As the store of schema 5 kept it: the forwarder's text only.
	var id int64
	if err := s.db.QueryRowContext(ctx, `SELECT id FROM messages WHERE uid = 1`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE message_content SET text_s2 = ? WHERE message_id = ?`, []any{compress([]byte("For Friday.")), id}},
		{`DELETE FROM messages_fts WHERE rowid = ?`, []any{id}},
		{`INSERT INTO messages_fts (rowid, subject, sender, body) VALUES (?, 'Fwd: ticket', 'Sam sam@example.net', 'For Friday.')`, []any{id}},
		// Schema 5 kept every message's text (migration 0007 came after).
		{`UPDATE message_content SET text_s2 = ? WHERE message_id = (SELECT id FROM messages WHERE uid = 2)`, []any{compress([]byte("Nothing attached, QX7781 named."))}},
		{`ALTER TABLE message_content DROP COLUMN text_from_raw`, nil},
		{`PRAGMA user_version = 5`, nil},
	} {
		if _, err := s.db.ExecContext(ctx, q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	if hits, _ := s.Search(ctx, "QX7781", 10); len(hits) != 1 {
		t.Fatalf("before the migration: %d hits, want only the plain mail's", len(hits))
	}
	s.Close()

	s, err = Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hits, err := s.Search(ctx, "QX7781", 10)
	if err != nil || len(hits) != 2 {
		t.Fatalf("Search = %d hits, %v; want the forward and the plain mail", len(hits), err)
	}
	text, _, err := s.Text(ctx, id)
	if err != nil || !strings.Contains(text, "For Friday.") || !strings.Contains(text, "Booking QX7781") {
		t.Errorf("Text = %q, %v; want the forwarder's and the attached mail's", text, err)
	}
}
