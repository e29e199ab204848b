package store

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"time"

	"github.com/klauspost/compress/s2"

	"mailnode/mail/mime"
)

// MessageState is what must match the server for one stored message.
type MessageState struct {
	UID       uint32
	Flags     string // FlagString form
	RawSHA256 [32]byte
}

// FolderContents returns the state of every stored message of a folder,
// by ascending UID. Tests compare it with the server.
func (s *Store) FolderContents(ctx context.Context, folderID int64) ([]MessageState, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT m.uid, m.flags, c.raw_s2 FROM messages m
		JOIN message_content c ON c.message_id = m.id WHERE m.folder_id = ? ORDER BY m.uid`, folderID)
	if err != nil {
		return nil, fmt.Errorf("read folder %d: %w", folderID, err)
	}
	defer rows.Close()
	var out []MessageState
	for rows.Next() {
		var st MessageState
		var compressed []byte
		if err := rows.Scan(&st.UID, &st.Flags, &compressed); err != nil {
			return nil, err
		}
		raw, err := decompress(compressed)
		if err != nil {
			return nil, fmt.Errorf("read folder %d uid %d: %w", folderID, st.UID, err)
		}
		st.RawSHA256 = sha256.Sum256(raw)
		out = append(out, st)
	}
	return out, rows.Err()
}

// Stats summarises the store.
type Stats struct {
	Accounts    int
	Folders     int
	Messages    int
	Attachments int
	RawBytes    int64
	WithProblem int // messages with a MIME part that could not be decoded
}

// Stats counts what the store holds.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	var st Stats
	err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM accounts),
		(SELECT count(*) FROM folders),
		(SELECT count(*) FROM messages),
		(SELECT count(*) FROM attachments),
		(SELECT coalesce(sum(size), 0) FROM messages),
		(SELECT count(*) FROM messages WHERE mime_problems != '')`).
		Scan(&st.Accounts, &st.Folders, &st.Messages, &st.Attachments, &st.RawBytes, &st.WithProblem)
	if err != nil {
		return Stats{}, fmt.Errorf("store stats: %w", err)
	}
	return st, nil
}

// Summary is a message as a listing shows it: no body.
type Summary struct {
	ID          int64
	Folder      string
	UID         uint32
	Date        time.Time
	From        string
	Subject     string
	Flags       string
	Attachments int
}

// Recent lists the newest messages across folders, newest first.
func (s *Store) Recent(ctx context.Context, limit int) ([]Summary, error) {
	return s.summaries(ctx, `SELECT m.id, f.name, m.uid, m.date, m.from_addr, m.subject, m.flags,
		(SELECT count(*) FROM attachments a WHERE a.message_id = m.id)
		FROM messages m JOIN folders f ON f.id = m.folder_id
		ORDER BY m.date DESC, m.id DESC LIMIT ?`, limit)
}

// Search runs a full-text query over subject, sender and text and returns
// the best matches first (BM25). The query is treated as plain words, not
// FTS5 syntax, so user or agent input cannot inject operators.
func (s *Store) Search(ctx context.Context, query string, limit int) ([]Summary, error) {
	match := ftsQuery(query)
	if match == "" {
		return nil, nil
	}
	return s.summaries(ctx, `SELECT m.id, f.name, m.uid, m.date, m.from_addr, m.subject, m.flags,
		(SELECT count(*) FROM attachments a WHERE a.message_id = m.id)
		FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN folders f ON f.id = m.folder_id
		WHERE messages_fts MATCH ? ORDER BY bm25(messages_fts, 5.0, 2.0, 1.0) LIMIT ?`, match, limit)
}

// ftsQuery quotes every word so FTS5 reads them as terms joined by AND.
func ftsQuery(q string) string {
	var terms []string
	for _, w := range strings.Fields(q) {
		w = strings.ReplaceAll(w, `"`, `""`)
		terms = append(terms, `"`+w+`"`)
	}
	return strings.Join(terms, " ")
}

func (s *Store) summaries(ctx context.Context, query string, args ...any) ([]Summary, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list messages: %w", err)
	}
	defer rows.Close()
	var out []Summary
	for rows.Next() {
		var m Summary
		var date int64
		if err := rows.Scan(&m.ID, &m.Folder, &m.UID, &date, &m.From, &m.Subject, &m.Flags, &m.Attachments); err != nil {
			return nil, fmt.Errorf("list messages: %w", err)
		}
		if date != 0 {
			m.Date = time.Unix(date, 0)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Raw returns the raw bytes of a stored message.
func (s *Store) Raw(ctx context.Context, messageID int64) ([]byte, error) {
	var compressed []byte
	if err := s.db.QueryRowContext(ctx, `SELECT raw_s2 FROM message_content WHERE message_id = ?`, messageID).Scan(&compressed); err != nil {
		return nil, fmt.Errorf("read raw message %d: %w", messageID, err)
	}
	raw, err := decompress(compressed)
	if err != nil {
		return nil, fmt.Errorf("decompress raw message %d: %w", messageID, err)
	}
	return raw, nil
}

// Text returns the parsed plain text and the text rendered from HTML of a
// stored message. A plain-text message's text was not kept (textFromRaw):
// it is parsed again from the raw bytes, by the code that made it.
func (s *Store) Text(ctx context.Context, messageID int64) (text, html string, err error) {
	var t, h, raw []byte
	err = s.db.QueryRowContext(ctx, `SELECT text_s2, html_s2, CASE WHEN text_from_raw THEN raw_s2 ELSE x'' END
		FROM message_content WHERE message_id = ?`, messageID).Scan(&t, &h, &raw)
	if err != nil {
		return "", "", fmt.Errorf("read text of message %d: %w", messageID, err)
	}
	if len(raw) > 0 {
		b, err := decompress(raw)
		if err != nil {
			return "", "", fmt.Errorf("read text of message %d: %w", messageID, err)
		}
		text, html := storedText(mime.Parse(b))
		return text, html, nil
	}
	tb, err := decompress(t)
	if err != nil {
		return "", "", fmt.Errorf("read text of message %d: %w", messageID, err)
	}
	hb, err := decompress(h)
	if err != nil {
		return "", "", fmt.Errorf("read text of message %d: %w", messageID, err)
	}
	return string(tb), string(hb), nil
}

func decompress(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, nil
	}
	return s2.Decode(nil, b)
}

// Check verifies the database file and the full-text index. It is slow on
// a large store: for tests and for a user who suspects damage.
func (s *Store) Check(ctx context.Context) error {
	var res string
	if err := s.db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&res); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if res != "ok" {
		return fmt.Errorf("integrity check: %s", res)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')`); err != nil {
		return fmt.Errorf("full-text index check: %w", err)
	}
	return nil
}
