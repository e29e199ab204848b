package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"github.com/klauspost/compress/s2"
	"sort"
	"strings"
	"time"
	"unsafe"

	"mailnode/mail/mime"
)

// maxIndexedBody caps the text that goes into the full-text index per
// message; the stored text is not cut. What lies past the first 32 KiB of
// a mail is mostly footers and digests, and tokenising it is most of the
// index's cost at sync time.
const maxIndexedBody = 32 << 10

// NewMessage is one message fetched from the server, ready to store.
type NewMessage struct {
	UID          uint32
	ModSeq       uint64
	Flags        []string
	InternalDate time.Time
	Size         int64
	Raw          []byte

	parsed     *mime.Message
	compressed []byte // raw
	text, html []byte // parsed text, compressed
	// textFromRaw: the text is not kept but parsed again from raw when
	// read (textFromRaw, migration 0007); text is then empty.
	textFromRaw bool
	hooked      any // what the MessageHook's Prepare made of it
	prepared    bool
}

// Prepare does the CPU work of storing m (MIME parsing, compression) so
// that callers can run it on several cores; AddMessages then only writes.
// AddMessages prepares any message that was not.
func (s *Store) Prepare(m *NewMessage) {
	if m.prepared {
		return
	}
	m.parsed = mime.Parse(m.Raw)
	m.compressed = compress(m.Raw)
	text, html := storedText(m.parsed)
	if m.textFromRaw = textFromRaw(m.parsed, len(m.Raw)) && text == m.parsed.Text; m.textFromRaw {
		m.text = []byte{}
	} else {
		m.text = compressText(text)
	}
	m.html = compressText(html)
	if s.hook != nil {
		m.parsed.Arrived = m.InternalDate
		m.hooked = s.hook.Prepare(m.Raw, m.parsed)
	}
	m.prepared = true
}

// maxTextFromRaw bounds the raw size of a message whose text is parsed
// again when read rather than kept: a read then parses at most this much.
const maxTextFromRaw = 256 << 10

// textFromRaw reports whether a message's text is cheaper to parse again
// from its raw bytes when read than to keep: plain text only, with no
// HTML and no attachment (whose parsing, a PDF's text, costs more than
// reading it), and of a bounded size. Reads of a message's text are a
// tool's or a person's, one message at a time; the sync stores thousands.
func textFromRaw(p *mime.Message, rawSize int) bool {
	return p.HTMLText == "" && !p.HasHTML && len(p.Attachments) == 0 && rawSize <= maxTextFromRaw
}

// storedText is the text and the HTML's text kept of a message for
// reading and search: its own, with the text of the mails attached to it
// whole after the one that is read (the plain text, else the HTML's).
func storedText(p *mime.Message) (text, html string) {
	text, html = p.Text, p.HTMLText
	if extra := p.AttachedText(); extra != "" {
		if text != "" || html == "" {
			text = strings.TrimSpace(text + extra)
		} else {
			html += extra
		}
	}
	return text, html
}

// restoreAttachedText writes again the stored text and the index of the
// messages stored with a mail attached whole before the store kept the
// attached mails' text (migration 0006): their raw bytes are parsed
// again and storedText replaces what was kept.
func restoreAttachedText(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT message_id FROM attachments
		WHERE content_type IN ('message/rfc822', 'message/global') OR lower(filename) LIKE '%.eml'`)
	if err != nil {
		return err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		var raw []byte
		var subject, fromName, fromAddr string
		err := tx.QueryRowContext(ctx, `SELECT c.raw_s2, m.subject, m.from_name, m.from_addr
			FROM message_content c JOIN messages m ON m.id = c.message_id WHERE c.message_id = ?`, id).
			Scan(&raw, &subject, &fromName, &fromAddr)
		if err == sql.ErrNoRows {
			continue
		}
		if err != nil {
			return fmt.Errorf("message %d: %w", id, err)
		}
		b, err := decompress(raw)
		if err != nil {
			continue // a damaged message keeps the text it has
		}
		text, html := storedText(mime.Parse(b))
		if _, err := tx.ExecContext(ctx, `UPDATE message_content SET text_s2 = ?, html_s2 = ? WHERE message_id = ?`,
			compressText(text), compressText(html), id); err != nil {
			return fmt.Errorf("message %d: %w", id, err)
		}
		body := text
		if body == "" {
			body = html
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages_fts WHERE rowid = ?`, id); err != nil {
			return fmt.Errorf("message %d: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO messages_fts (rowid, subject, sender, body) VALUES (?, ?, ?, ?)`,
			id, subject, fromName+" "+fromAddr, indexableText(body, maxIndexedBody)); err != nil {
			return fmt.Errorf("message %d: %w", id, err)
		}
	}
	return nil
}

// compressText is compress of a text, read where it lies: S2 only reads
// its source, and a []byte conversion copied each message's text once
// more (two copies a message, of up to 1 MiB each).
func compressText(s string) []byte {
	return compress(unsafe.Slice(unsafe.StringData(s), len(s)))
}

func compress(b []byte) []byte {
	if len(b) == 0 {
		return []byte{}
	}
	return s2.Encode(nil, b)
}

// AddMessages stores msgs in folderID and raises the folder's last_uid to
// lastUID, in one transaction. A message already stored under its UID is
// left as it is, so replaying a batch after a crash is harmless.
func (s *Store) AddMessages(ctx context.Context, folderID int64, msgs []NewMessage, lastUID uint32) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		ins, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO messages (folder_id, uid, modseq, flags,
			internal_date, size, message_id, in_reply_to, refs, thread_id, subject, from_addr, from_name,
			to_addrs, cc_addrs, date, has_html, mime_problems)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		content, err := tx.PrepareContext(ctx, `INSERT INTO message_content (message_id, raw_s2, text_s2, html_s2, text_from_raw) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer content.Close()
		att, err := tx.PrepareContext(ctx, `INSERT INTO attachments (message_id, part, filename, content_type,
			disposition, size) VALUES (?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer att.Close()

		var specialUse string
		if err := tx.QueryRowContext(ctx, `SELECT special_use FROM folders WHERE id = ?`, folderID).Scan(&specialUse); err != nil {
			return fmt.Errorf("folder: %w", err)
		}
		stored := time.Now().Unix()
		senders := newSenderRows()
		var index ftsRows
		var added []Prepared
		for i := range msgs {
			m := &msgs[i]
			s.Prepare(m)
			p := m.parsed
			var fromAddr, fromName string
			if len(p.From) > 0 {
				fromAddr, fromName = p.From[0].Address, p.From[0].Name
			}
			var date int64
			if !p.Date.IsZero() {
				date = p.Date.Unix()
			}
			// Exec and the connection's last rowid rather than RETURNING,
			// which costs a result set per message on the sync's one writer.
			res, err := ins.ExecContext(ctx, folderID, m.UID, m.ModSeq, FlagString(m.Flags),
				m.InternalDate.Unix(), m.Size, p.MessageID, p.InReplyTo, strings.Join(p.References, " "),
				p.ThreadID(), p.Subject, fromAddr, fromName, addressJSON(p.To), addressJSON(p.Cc), date,
				p.HasHTML, strings.Join(p.Problems, "\n"))
			if err != nil {
				return fmt.Errorf("uid %d: %w", m.UID, err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return fmt.Errorf("uid %d: %w", m.UID, err)
			}
			if n == 0 {
				continue // already stored (OR IGNORE)
			}
			id, err := res.LastInsertId()
			if err != nil {
				return fmt.Errorf("uid %d: %w", m.UID, err)
			}
			if _, err := content.ExecContext(ctx, id, m.compressed, m.text, m.html, m.textFromRaw); err != nil {
				return fmt.Errorf("uid %d content: %w", m.UID, err)
			}
			if s.hook != nil {
				added = append(added, Prepared{ID: id, Value: m.hooked})
			}
			// The plain and HTML parts of a message nearly always say the same
			// thing; index one, the plain one when there is one.
			body, html := storedText(p)
			if body == "" {
				body = html
			}
			body = indexableText(body, maxIndexedBody)
			index.add(id, p.Subject, fromName+" "+fromAddr, body)
			internal := int64(0)
			if !m.InternalDate.IsZero() {
				internal = m.InternalDate.Unix()
			}
			senders.add(specialUse, fromAddr, arrival(internal, stored), p.To, p.Cc)
			for _, a := range p.Attachments {
				if _, err := att.ExecContext(ctx, id, a.Part, a.Filename, a.ContentType, a.Disposition, a.Size); err != nil {
					return fmt.Errorf("uid %d attachment: %w", m.UID, err)
				}
			}
		}
		if err := index.insert(ctx, tx); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if err := senders.insert(ctx, tx); err != nil {
			return err
		}
		if len(added) > 0 {
			if err := s.hook.Store(ctx, tx, folderID, added); err != nil {
				return fmt.Errorf("message hook: %w", err)
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE folders SET last_uid = max(last_uid, ?) WHERE id = ?`, lastUID, folderID)
		return err
	})
	if err != nil {
		return fmt.Errorf("add %d messages to folder %d: %w", len(msgs), folderID, err)
	}
	return nil
}

// ftsRows collects a batch's rows for the full-text index. FTS5 flushes its
// pending terms to a new index segment at every statement, so one INSERT
// per message would write one tiny segment each and spend the time saved
// merging them again; one multi-row INSERT per batch writes one segment.
type ftsRows struct {
	n    int
	args []any
}

// ftsChunk bounds the rows of one INSERT: 4 parameters each, far below
// SQLite's limit of 32766.
const ftsChunk = 500

func (r *ftsRows) add(id int64, subject, sender, body string) {
	r.args = append(r.args, id, subject, sender, body)
	r.n++
}

func (r *ftsRows) insert(ctx context.Context, tx *sql.Tx) error {
	for start := 0; start < r.n; start += ftsChunk {
		end := min(start+ftsChunk, r.n)
		q := "INSERT INTO messages_fts (rowid, subject, sender, body) VALUES " +
			strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?), ", end-start), ", ")
		if _, err := tx.ExecContext(ctx, q, r.args[start*4:end*4]...); err != nil {
			return err
		}
	}
	return nil
}

func addressJSON(as []mime.Address) string {
	if len(as) == 0 {
		return ""
	}
	b, _ := json.Marshal(as)
	return string(b)
}

// FlagString is the stored form of a flag list: sorted, deduplicated,
// space-separated. IMAP flags cannot contain spaces (RFC 9051 section 9).
func FlagString(flags []string) string {
	s := append([]string(nil), flags...)
	sort.Strings(s)
	out := s[:0]
	for i, f := range s {
		if i == 0 || f != s[i-1] {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}

// FlagUpdate is a flag change the server reported for one message.
type FlagUpdate struct {
	UID    uint32
	ModSeq uint64
	Flags  []string
}

// UpdateFlags applies flag changes in one transaction.
func (s *Store) UpdateFlags(ctx context.Context, folderID int64, updates []FlagUpdate) error {
	if len(updates) == 0 {
		return nil
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `UPDATE messages SET flags = ?, modseq = ? WHERE folder_id = ? AND uid = ?`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, u := range updates {
			if _, err := st.ExecContext(ctx, FlagString(u.Flags), u.ModSeq, folderID, u.UID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("update flags of %d messages in folder %d: %w", len(updates), folderID, err)
	}
	return nil
}

// RemoveUIDs deletes messages the server expunged.
func (s *Store) RemoveUIDs(ctx context.Context, folderID int64, uids []uint32) error {
	if len(uids) == 0 {
		return nil
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `DELETE FROM messages WHERE folder_id = ? AND uid = ?`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, uid := range uids {
			if _, err := st.ExecContext(ctx, folderID, uid); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("remove %d messages from folder %d: %w", len(uids), folderID, err)
	}
	return nil
}

// UIDs returns the stored UIDs of a folder, ascending.
func (s *Store) UIDs(ctx context.Context, folderID int64) ([]uint32, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT uid FROM messages WHERE folder_id = ? ORDER BY uid`, folderID)
	if err != nil {
		return nil, fmt.Errorf("list uids of folder %d: %w", folderID, err)
	}
	defer rows.Close()
	var out []uint32
	for rows.Next() {
		var u uint32
		if err := rows.Scan(&u); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// CountMessages returns how many messages of the folder are stored.
func (s *Store) CountMessages(ctx context.Context, folderID int64) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM messages WHERE folder_id = ?`, folderID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count messages of folder %d: %w", folderID, err)
	}
	return n, nil
}

// Flags returns the stored flags of every message of a folder by UID.
func (s *Store) Flags(ctx context.Context, folderID int64) (map[uint32]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT uid, flags FROM messages WHERE folder_id = ?`, folderID)
	if err != nil {
		return nil, fmt.Errorf("read flags of folder %d: %w", folderID, err)
	}
	defer rows.Close()
	out := make(map[uint32]string)
	for rows.Next() {
		var uid uint32
		var flags string
		if err := rows.Scan(&uid, &flags); err != nil {
			return nil, err
		}
		out[uid] = flags
	}
	return out, rows.Err()
}

// indexableText returns what of body the full-text index needs: lines
// quoted from earlier mail ("> ...") are left out, since the quoted mail is
// indexed itself, and the result is cut to at most max bytes.
func indexableText(body string, max int) string {
	if !strings.Contains(body, "\n>") && !strings.HasPrefix(body, ">") {
		if len(body) > max {
			return body[:max] // FTS5 tolerates a split rune at the end
		}
		return body
	}
	var b strings.Builder
	for line := range strings.Lines(body) {
		if strings.HasPrefix(line, ">") {
			continue
		}
		if b.Len()+len(line) > max {
			b.WriteString(line[:max-b.Len()])
			break
		}
		b.WriteString(line)
	}
	return b.String()
}
