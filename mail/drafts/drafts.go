// Package drafts keeps the drafts agents write (create_draft,
// draft_reply) on the node, builds the exact message each one would send,
// and tracks sending so that a message is never handed to the server
// twice by accident.
//
// A draft's message is rebuilt from its stored fields byte for byte, so
// its SHA-256 (Hash) is stable: a send approval is bound to that hash,
// and any change to the draft voids the approval.
package drafts

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message/mail"

	"mailnode/mail/invisible"
)

// Migrations create the drafts table, for store.Attach.
//
//go:embed sql/*.sql
var Migrations embed.FS

// Limits of a draft, as the tools' schemas publish them.
const (
	MaxRecipients = 50
	MaxSubject    = 998
	MaxBody       = 100_000
	// MaxAddress is the longest addr-spec a path can carry (RFC 5321
	// section 4.5.3.1.3: a 256-octet path less its angle brackets).
	MaxAddress = 254
	// MaxDisplayName bounds a recipient's display name, in bytes: a name
	// is for the user to recognise, not a place for a message.
	MaxDisplayName = 128
)

// States of a draft.
const (
	StateDraft   = "draft"
	StateSending = "sending"
	StateSent    = "sent"
	StateFailed  = "failed"
	StateUnknown = "unknown"
)

// Draft is one stored draft.
type Draft struct {
	ID         string
	Agent      string // the agent domain that wrote it; only it may send it
	From       string // the user's identity, as an RFC 5322 address
	To, Cc     []string
	Subject    string
	Body       string
	InReplyTo  string   // Message-ID of the mail replied to, with angle brackets
	References []string // the thread, oldest first
	MessageID  string   // with angle brackets
	Created    time.Time
	Updated    time.Time
	State      string
	SentAt     time.Time
	Detail     string // the SMTP server's answer to the last attempt
}

// Recipients are every address the message goes to.
func (d Draft) Recipients() []string {
	out := make([]string, 0, len(d.To)+len(d.Cc))
	for _, a := range append(append([]string(nil), d.To...), d.Cc...) {
		if p, err := mail.ParseAddress(a); err == nil {
			out = append(out, p.Address)
		}
	}
	return out
}

// Message returns the exact bytes the draft sends: the same bytes every
// time for the same stored draft.
func (d Draft) Message() ([]byte, error) {
	from, err := mail.ParseAddress(d.From)
	if err != nil {
		return nil, fmt.Errorf("draft %s: from: %w", d.ID, err)
	}
	to, err := parseList(d.To)
	if err != nil {
		return nil, fmt.Errorf("draft %s: to: %w", d.ID, err)
	}
	cc, err := parseList(d.Cc)
	if err != nil {
		return nil, fmt.Errorf("draft %s: cc: %w", d.ID, err)
	}
	// Fields are written last-added first: added here in reverse, they
	// read From, To, Cc, Subject, Date... as mail clients write them.
	var h mail.Header
	h.Set("Content-Transfer-Encoding", "quoted-printable")
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("MIME-Version", "1.0")
	if len(d.References) > 0 {
		h.Set("References", strings.Join(d.References, " "))
	}
	if d.InReplyTo != "" {
		h.Set("In-Reply-To", d.InReplyTo)
	}
	h.Set("Message-ID", d.MessageID)
	h.SetDate(d.Updated.UTC())
	h.SetSubject(d.Subject)
	if len(cc) > 0 {
		h.SetAddressList("Cc", cc)
	}
	h.SetAddressList("To", to)
	h.SetAddressList("From", []*mail.Address{from})
	var buf bytes.Buffer
	w, err := mail.CreateSingleInlineWriter(&buf, h)
	if err != nil {
		return nil, fmt.Errorf("draft %s: %w", d.ID, err)
	}
	body := strings.ReplaceAll(strings.ReplaceAll(d.Body, "\r\n", "\n"), "\n", "\r\n")
	if _, err := w.Write([]byte(body)); err != nil {
		return nil, fmt.Errorf("draft %s: %w", d.ID, err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("draft %s: %w", d.ID, err)
	}
	return buf.Bytes(), nil
}

// Hash is the hex SHA-256 of Message: what a send approval is bound to.
func (d Draft) Hash() (string, error) {
	m, err := d.Message()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(m)
	return hex.EncodeToString(sum[:]), nil
}

// Readable is the draft as the phone shows it before a send: the
// recipients on labelled lines, the subject and the full body.
func (d Draft) Readable() string {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\n", d.From)
	for _, a := range d.To {
		fmt.Fprintf(&b, "To: %s\n", a)
	}
	for _, a := range d.Cc {
		fmt.Fprintf(&b, "Cc: %s\n", a)
	}
	if d.InReplyTo != "" {
		fmt.Fprintf(&b, "In reply to: %s\n", d.InReplyTo)
	}
	fmt.Fprintf(&b, "Subject: %s\n\n%s", d.Subject, d.Body)
	return b.String()
}

func parseList(addrs []string) ([]*mail.Address, error) {
	out := make([]*mail.Address, len(addrs))
	for i, a := range addrs {
		p, err := mail.ParseAddress(a)
		if err != nil {
			return nil, fmt.Errorf("%q is not an address", a)
		}
		out[i] = p
	}
	return out, nil
}

// Errors of the store. Their texts are for the agent: they name nothing
// but the draft.
var (
	ErrNotFound    = errors.New("no such draft")
	ErrChanged     = errors.New("the draft changed after the user approved sending it; the approval is void")
	ErrAlreadySent = errors.New("the draft was already sent")
	ErrInFlight    = errors.New("the draft is being sent")
	// ErrUncertain is a draft whose last send broke off after the server
	// had the message: it may have been delivered, so it is not sent
	// again by itself.
	ErrUncertain = errors.New("the last attempt to send this draft broke off after the server had it; it may have been delivered, so it is not sent again")
)

// InvalidError is a draft the store refuses, with a message for the
// agent.
type InvalidError struct{ Msg string }

func (e *InvalidError) Error() string { return e.Msg }

// File is the node's SQLite file as store.Attach hands it out.
type File interface {
	DB() *sql.DB
	WriteTx(ctx context.Context, f func(*sql.Tx) error) error
}

// Store keeps the drafts.
type Store struct {
	file File
	log  *slog.Logger
	now  func() time.Time
}

// New returns the store on file, whose tables Migrations created. now may
// be nil.
func New(file File, logger *slog.Logger, now func() time.Time) *Store {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	return &Store{file: file, log: logger.With("component", "drafts"), now: now}
}

// Input is a draft to create.
type Input struct {
	Agent, From string
	To, Cc      []string
	Subject     string
	Body        string
	InReplyTo   string
	References  []string
}

func validate(n Input) error {
	if len(n.To) == 0 {
		return &InvalidError{"a draft needs at least one recipient in to"}
	}
	if len(n.To)+len(n.Cc) > MaxRecipients {
		return &InvalidError{fmt.Sprintf("a draft has at most %d recipients", MaxRecipients)}
	}
	for _, a := range append(append([]string(nil), n.To...), n.Cc...) {
		p, err := mail.ParseAddress(a)
		switch {
		case err != nil || !strings.Contains(p.Address, "@") || strings.ContainsAny(a, "\r\n"):
			return &InvalidError{fmt.Sprintf("%q is not an e-mail address", clip(a, 80))}
		case len(p.Address) > MaxAddress:
			return &InvalidError{fmt.Sprintf("an address is at most %d bytes", MaxAddress)}
		case len(p.Name) > MaxDisplayName:
			return &InvalidError{fmt.Sprintf("a display name is at most %d bytes", MaxDisplayName)}
		case invisible.Has(a):
			// The user must see every recipient as it is.
			return &InvalidError{"an address or display name holds an invisible character (zero-width, soft hyphen, bidi control or the like)"}
		}
	}
	if strings.ContainsAny(n.Subject, "\r\n") {
		return &InvalidError{"the subject is one line"}
	}
	if invisible.Has(n.Subject) {
		return &InvalidError{"the subject holds an invisible character (zero-width, soft hyphen, bidi control or the like)"}
	}
	if len(n.Subject) > MaxSubject || !utf8.ValidString(n.Subject) {
		return &InvalidError{fmt.Sprintf("the subject is valid UTF-8 of at most %d bytes", MaxSubject)}
	}
	if len(n.Body) > MaxBody || !utf8.ValidString(n.Body) {
		return &InvalidError{fmt.Sprintf("the body is valid UTF-8 of at most %d bytes", MaxBody)}
	}
	if _, err := mail.ParseAddress(n.From); err != nil {
		return fmt.Errorf("the user's own address %q is not an address", n.From)
	}
	return nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func randomID(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Create stores a new draft.
func (s *Store) Create(ctx context.Context, n Input) (Draft, error) {
	if err := validate(n); err != nil {
		return Draft{}, err
	}
	from, _ := mail.ParseAddress(n.From)
	_, domain, _ := strings.Cut(from.Address, "@")
	now := time.Unix(s.now().Unix(), 0)
	d := Draft{
		ID: "d_" + randomID(12), Agent: n.Agent, From: from.String(), To: n.To, Cc: n.Cc,
		Subject: n.Subject, Body: n.Body, InReplyTo: n.InReplyTo, References: n.References,
		MessageID: "<" + randomID(18) + "@" + domain + ">", Created: now, Updated: now, State: StateDraft,
	}
	if _, err := d.Message(); err != nil {
		return Draft{}, &InvalidError{"the draft cannot be written as a message: " + err.Error()}
	}
	to, _ := json.Marshal(d.To)
	cc, _ := json.Marshal(nonNil(d.Cc))
	refs, _ := json.Marshal(nonNil(d.References))
	err := s.file.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO drafts (id, agent, from_addr, to_addrs, cc_addrs, subject, body,
			in_reply_to, refs, message_id, created_at, updated_at, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			d.ID, d.Agent, d.From, string(to), string(cc), d.Subject, d.Body, d.InReplyTo, string(refs), d.MessageID,
			d.Created.Unix(), d.Updated.Unix(), d.State)
		return err
	})
	if err != nil {
		return Draft{}, fmt.Errorf("store draft: %w", err)
	}
	s.log.Info("Draft created", "draft", d.ID, "agent", d.Agent, "recipients", len(d.To)+len(d.Cc))
	return d, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

const cols = "id, agent, from_addr, to_addrs, cc_addrs, subject, body, in_reply_to, refs, message_id, created_at, updated_at, state, sent_at, detail"

func scan(row interface{ Scan(...any) error }) (Draft, error) {
	var d Draft
	var to, cc, refs string
	var created, updated, sent int64
	err := row.Scan(&d.ID, &d.Agent, &d.From, &to, &cc, &d.Subject, &d.Body, &d.InReplyTo, &refs, &d.MessageID,
		&created, &updated, &d.State, &sent, &d.Detail)
	if errors.Is(err, sql.ErrNoRows) {
		return d, ErrNotFound
	}
	if err != nil {
		return d, fmt.Errorf("read draft: %w", err)
	}
	json.Unmarshal([]byte(to), &d.To)
	json.Unmarshal([]byte(cc), &d.Cc)
	json.Unmarshal([]byte(refs), &d.References)
	if len(d.Cc) == 0 {
		d.Cc = nil
	}
	if len(d.References) == 0 {
		d.References = nil
	}
	d.Created, d.Updated = time.Unix(created, 0), time.Unix(updated, 0)
	if sent != 0 {
		d.SentAt = time.Unix(sent, 0)
	}
	return d, nil
}

// Find returns the draft id whoever wrote it, for the user.
func (s *Store) Find(ctx context.Context, id string) (Draft, error) {
	return scan(s.file.DB().QueryRowContext(ctx, "SELECT "+cols+" FROM drafts WHERE id = ?", id))
}

// Get returns the draft id if agent wrote it. Another agent's draft is
// ErrNotFound: an agent cannot learn of, or send, what it did not write.
func (s *Store) Get(ctx context.Context, agent, id string) (Draft, error) {
	d, err := s.Find(ctx, id)
	if err != nil {
		return Draft{}, err
	}
	if d.Agent != agent {
		return Draft{}, ErrNotFound
	}
	return d, nil
}

// List returns every draft, newest first, for the user.
func (s *Store) List(ctx context.Context, limit int) ([]Draft, error) {
	rows, err := s.file.DB().QueryContext(ctx, "SELECT "+cols+" FROM drafts ORDER BY created_at DESC, id LIMIT ?", limit)
	if err != nil {
		return nil, fmt.Errorf("list drafts: %w", err)
	}
	defer rows.Close()
	var out []Draft
	for rows.Next() {
		d, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// Edit changes a draft that has not been sent: the user's correction of
// subject or body (nil leaves it). Any approval to send the old text is
// void from then on, as the message's hash changes.
func (s *Store) Edit(ctx context.Context, id string, subject, body *string) (Draft, error) {
	var d Draft
	err := s.file.WriteTx(ctx, func(tx *sql.Tx) error {
		var err error
		if d, err = scan(tx.QueryRowContext(ctx, "SELECT "+cols+" FROM drafts WHERE id = ?", id)); err != nil {
			return err
		}
		if d.State != StateDraft && d.State != StateFailed {
			return fmt.Errorf("draft %s is %s and can no longer be edited", id, d.State)
		}
		n := Input{Agent: d.Agent, From: d.From, To: d.To, Cc: d.Cc, Subject: d.Subject, Body: d.Body}
		if subject != nil {
			n.Subject = *subject
		}
		if body != nil {
			n.Body = *body
		}
		if err := validate(n); err != nil {
			return err
		}
		d.Subject, d.Body = n.Subject, n.Body
		d.Updated = time.Unix(s.now().Unix(), 0)
		_, err = tx.ExecContext(ctx, "UPDATE drafts SET subject = ?, body = ?, updated_at = ? WHERE id = ?", d.Subject, d.Body, d.Updated.Unix(), id)
		return err
	})
	return d, err
}

// BeginSend marks the agent's draft id as being sent, if its message
// still hashes to approved, the hash the user approved. Only one caller
// can begin a send of a draft; the draft stays "sending" until
// FinishSend.
func (s *Store) BeginSend(ctx context.Context, agent, id, approved string) (Draft, []byte, error) {
	var d Draft
	var msg []byte
	err := s.file.WriteTx(ctx, func(tx *sql.Tx) error {
		var err error
		if d, err = scan(tx.QueryRowContext(ctx, "SELECT "+cols+" FROM drafts WHERE id = ?", id)); err != nil {
			return err
		}
		if d.Agent != agent {
			return ErrNotFound
		}
		switch d.State {
		case StateSent:
			return ErrAlreadySent
		case StateSending:
			return ErrInFlight
		case StateUnknown:
			return ErrUncertain
		}
		if msg, err = d.Message(); err != nil {
			return err
		}
		sum := sha256.Sum256(msg)
		if hex.EncodeToString(sum[:]) != approved {
			return ErrChanged
		}
		d.State = StateSending
		_, err = tx.ExecContext(ctx, "UPDATE drafts SET state = ? WHERE id = ?", StateSending, id)
		return err
	})
	if err != nil {
		return Draft{}, nil, err
	}
	return d, msg, nil
}

// FinishSend records the outcome of a send: StateSent, StateFailed or
// StateUnknown, and the server's answer.
func (s *Store) FinishSend(ctx context.Context, id, state, detail string) error {
	sent := int64(0)
	if state == StateSent {
		sent = s.now().Unix()
	}
	err := s.file.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE drafts SET state = ?, detail = ?, sent_at = ? WHERE id = ? AND state = ?",
			state, clip(detail, 500), sent, id, StateSending)
		return err
	})
	if err != nil {
		return fmt.Errorf("record send of %s: %w", id, err)
	}
	s.log.Info("Draft send finished", "draft", id, "state", state)
	return nil
}

// Recover marks drafts left "sending" by a node that stopped mid-send as
// "unknown": whether the server took them cannot be known, and they are
// not sent again by themselves. Run it at start, before any send.
func (s *Store) Recover(ctx context.Context) (int, error) {
	var n int64
	err := s.file.WriteTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE drafts SET state = ?, detail = ? WHERE state = ?",
			StateUnknown, "the node stopped while sending", StateSending)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("recover drafts: %w", err)
	}
	if n > 0 {
		s.log.Warn("Drafts left mid-send by a stopped node are marked unknown", "count", n)
	}
	return int(n), nil
}
