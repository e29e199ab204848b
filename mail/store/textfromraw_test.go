package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"mailnode/mail/mime"
)

// TestTextFromRaw: a message of plain text alone keeps no text of its own
// (migration 0007) and reads the text its raw bytes parse to, the same as
// was indexed; a message with HTML or an attachment keeps its text; a row
// stored with its text before the migration still reads it.
func TestTextFromRaw(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := personalInbox(t, s)
	for _, tt := range []struct {
		name, raw string
		fromRaw   bool
	}{
		{"plain", "From: Ana <ana@example.net>\r\nSubject: Lunch\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nSee you at noon,\r\nAna — café Zürich\r\n", true},
		{"plain, quoted-printable", "From: Ana <ana@example.net>\r\nSubject: Lunch\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nCaf=E9 at noon=\r\n, then the station.\r\n", true},
		{"html", "From: Shop <news@shop.example>\r\nSubject: Sale\r\nContent-Type: text/html\r\n\r\n<p>Sale <b>today</b></p>\r\n", false},
		{"plain with an attachment", "From: Ana <ana@example.net>\r\nSubject: Notes\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nNotes attached.\r\n--b\r\nContent-Type: application/octet-stream; name=\"n.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\nAAEC\r\n--b--\r\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			uid := uint32(time.Now().UnixNano() % 1e9)
			if err := s.AddMessages(ctx, f.ID, []NewMessage{{UID: uid, InternalDate: time.Now(), Raw: []byte(tt.raw)}}, uid); err != nil {
				t.Fatal(err)
			}
			var id int64
			var fromRaw bool
			var kept []byte
			if err := s.db.QueryRowContext(ctx, `SELECT c.message_id, c.text_from_raw, c.text_s2 FROM message_content c
				JOIN messages m ON m.id = c.message_id WHERE m.uid = ?`, uid).Scan(&id, &fromRaw, &kept); err != nil {
				t.Fatal(err)
			}
			if fromRaw != tt.fromRaw || fromRaw && len(kept) != 0 {
				t.Errorf("text_from_raw = %v with %d bytes kept, want %v", fromRaw, len(kept), tt.fromRaw)
			}
			wantText, wantHTML := storedText(mime.Parse([]byte(tt.raw)))
			text, html, err := s.Text(ctx, id)
			if err != nil || text != wantText || html != wantHTML {
				t.Errorf("Text = %q, %q, %v; want %q, %q", text, html, err, wantText, wantHTML)
			}
			if tt.fromRaw && wantText == "" {
				t.Error("the case has no text to read")
			}
		})
	}
	// A row of before the migration: its text kept, the flag at its default.
	var id int64
	if err := s.db.QueryRowContext(ctx, `SELECT message_id FROM message_content WHERE text_from_raw = 1 LIMIT 1`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE message_content SET text_s2 = ?, text_from_raw = 0 WHERE message_id = ?`, compress([]byte("kept before 0007")), id); err != nil {
		t.Fatal(err)
	}
	if text, _, err := s.Text(ctx, id); err != nil || text != "kept before 0007" {
		t.Errorf("Text of a row kept before = %q, %v", text, err)
	}
}

// personalInbox is the INBOX of an account "personal" in s, made for a
// test.
func personalInbox(t *testing.T, s *Store) Folder {
	t.Helper()
	ctx := context.Background()
	acct, err := s.EnsureAccount(ctx, Account{Name: "personal", Server: "imap.example.com:993", Username: "me"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.EnsureFolder(ctx, acct.ID, "INBOX", "")
	if err != nil {
		t.Fatal(err)
	}
	return f
}
