package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mailnode/mail/store"
)

func openTemp(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

const sampleRaw = "From: Ana Gómez <ana@example.org>\r\nTo: me@example.com\r\nSubject: Your café order #1234\r\n" +
	"Message-ID: <a1@example.org>\r\nDate: Mon, 2 Nov 2026 10:00:00 +0100\r\n\r\nThe espresso machine ships tomorrow.\r\n"

// openInbox opens a temporary store with one account and its INBOX.
func openInbox(t *testing.T) (*store.Store, store.Account, store.Folder) {
	t.Helper()
	s := openTemp(t)
	acct, err := s.EnsureAccount(context.Background(), store.Account{Name: "personal", Server: "imap.example.com:993", Username: "me"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.EnsureFolder(context.Background(), acct.ID, "INBOX", "")
	if err != nil {
		t.Fatal(err)
	}
	return s, acct, f
}

func TestAddSearchRemove(t *testing.T) {
	ctx := context.Background()
	s, acct, f := openInbox(t)
	msg := store.NewMessage{UID: 7, Flags: []string{`\Seen`, `\Seen`, "$Label1"}, InternalDate: time.Now(), Raw: []byte(sampleRaw)}
	// The same batch twice must not duplicate anything.
	for range 2 {
		if err := s.AddMessages(ctx, f.ID, []store.NewMessage{msg}, 7); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := s.CountMessages(ctx, f.ID); n != 1 {
		t.Fatalf("CountMessages = %d, want 1", n)
	}
	folders, _ := s.Folders(ctx, acct.ID)
	if len(folders) != 1 || folders[0].LastUID != 7 {
		t.Fatalf("Folders = %+v, want one with LastUID 7", folders)
	}

	tests := []struct {
		query string
		want  int
	}{
		{"espresso", 1},
		{"cafe", 1},        // diacritics folded
		{"gomez", 1},       // sender name
		{"1234", 1},        // subject
		{"NEAR(x y", 0},    // FTS5 syntax is quoted, not parsed
		{`" OR 1=1 --`, 0}, // and so is anything else
		{"", 0},
	}
	for _, tt := range tests {
		hits, err := s.Search(ctx, tt.query, 10)
		if err != nil {
			t.Fatalf("Search(%q): %v", tt.query, err)
		}
		if len(hits) != tt.want {
			t.Errorf("Search(%q) = %d hits, want %d", tt.query, len(hits), tt.want)
		}
	}

	recent, _ := s.Recent(ctx, 1)
	if raw, err := s.Raw(ctx, recent[0].ID); err != nil || string(raw) != sampleRaw {
		t.Fatalf("Raw() = %q, %v; want the bytes that were stored", raw, err)
	}
	if text, html, err := s.Text(ctx, recent[0].ID); err != nil || text != "The espresso machine ships tomorrow." || html != "" {
		t.Fatalf("Text() = %q, %q, %v; want the parsed body and no HTML", text, html, err)
	}
	contents, _ := s.FolderContents(ctx, f.ID)
	if len(contents) != 1 || contents[0].Flags != `$Label1 \Seen` {
		t.Fatalf("FolderContents = %+v, want flags %q", contents, `$Label1 \Seen`)
	}

	if err := s.UpdateFlags(ctx, f.ID, []store.FlagUpdate{{UID: 7, Flags: nil}}); err != nil {
		t.Fatal(err)
	}
	contents, _ = s.FolderContents(ctx, f.ID)
	if contents[0].Flags != "" {
		t.Errorf("flags after update = %q, want empty", contents[0].Flags)
	}

	if err := s.RemoveUIDs(ctx, f.ID, []uint32{7}); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.Search(ctx, "espresso", 10); len(hits) != 0 {
		t.Errorf("Search after remove = %d hits, want 0 (FTS row must go with the message)", len(hits))
	}
	st, _ := s.Stats(ctx)
	if st.Messages != 0 || st.RawBytes != 0 {
		t.Errorf("Stats after remove = %+v, want no messages and no raw bytes", st)
	}
}

func TestResetFolderDropsEverything(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	acct, _ := s.EnsureAccount(ctx, store.Account{Name: "a", Server: "h:1", Username: "u"})
	f, _ := s.EnsureFolder(ctx, acct.ID, "INBOX", "")
	m := store.NewMessage{UID: 1, Raw: []byte(sampleRaw)}
	s.Prepare(&m)
	if err := s.AddMessages(ctx, f.ID, []store.NewMessage{m}, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.ResetFolder(ctx, f.ID, 99); err != nil {
		t.Fatal(err)
	}
	folders, _ := s.Folders(ctx, acct.ID)
	if folders[0].UIDValidity != 99 || folders[0].LastUID != 0 {
		t.Errorf("folder after reset = %+v, want UIDValidity 99 and LastUID 0", folders[0])
	}
	if hits, _ := s.Search(ctx, "espresso", 10); len(hits) != 0 {
		t.Errorf("Search after reset = %d hits, want 0", len(hits))
	}
	if err := s.DeleteFolder(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
}

func TestReopenKeepsSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "node.db")
	s, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnsureAccount(ctx, store.Account{Name: "a", Server: "h:1", Username: "u"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = store.Open(ctx, path, nil)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	st, _ := s.Stats(ctx)
	if st.Accounts != 1 {
		t.Errorf("Stats().Accounts after reopen = %d, want 1", st.Accounts)
	}
}

func TestQuotedTextIsNotIndexed(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	acct, _ := s.EnsureAccount(ctx, store.Account{Name: "a", Server: "h:1", Username: "u"})
	f, _ := s.EnsureFolder(ctx, acct.ID, "INBOX", "")
	raw := "From: b@example.com\r\nSubject: Re: plans\r\n\r\nSounds good.\r\n\r\n> Shall we meet at the zeppelin museum?\r\n>> older quote\r\n"
	if err := s.AddMessages(ctx, f.ID, []store.NewMessage{{UID: 1, Raw: []byte(raw)}}, 1); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]int{"sounds": 1, "zeppelin": 0, "older": 0} {
		if hits, _ := s.Search(ctx, q, 5); len(hits) != want {
			t.Errorf("Search(%q) = %d hits, want %d", q, len(hits), want)
		}
	}
	recent, _ := s.Recent(ctx, 1)
	if text, _, _ := s.Text(ctx, recent[0].ID); !strings.Contains(text, "zeppelin") {
		t.Errorf("stored text lost the quote: %q", text)
	}
}

func TestRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "node.db")
	s, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", store.SchemaVersion()+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := store.Open(ctx, path, nil); !errors.Is(err, store.ErrTooNew) {
		t.Errorf("Open(file from a newer version) = %v, want ErrTooNew", err)
	}
}
