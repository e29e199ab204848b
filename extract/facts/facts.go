// Package facts keeps the extractors' results in the node's store file and
// keeps them current: a pass reads every message the extractors have not
// read at their current version (new mail, or all mail after an extractor
// change, from the kept raw bytes), stores its facts, and rebuilds the
// merged trips, orders and bills the read tools answer from.
//
// Tables (sql/): facts_extracted (message → extractor version and sender
// authentication), facts (one extract.Record per row, as JSON) and
// facts_merged (the merged state, indexed by trip end and bill due date).
// Facts reference messages(id) and go with their message.
package facts

import (
	"cmp"
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"mailnode/extract"
	"mailnode/extract/places"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
	"mailnode/mail/store"
	"mailnode/mail/trust"
)

// Migrations are the facts tables' migrations (sql/NNNN_name.sql), for
// store.Attach.
//
//go:embed sql/*.sql
var Migrations embed.FS

// File is the node's SQLite file as store.Attach hands it to a component.
type File interface {
	DB() *sql.DB
	WriteTx(ctx context.Context, f func(*sql.Tx) error) error
}

// Source gives the raw bytes of a stored message, and what the store
// knows of messages' senders (for trusted_sender).
type Source interface {
	Raw(ctx context.Context, messageID int64) ([]byte, error)
	Senders(ctx context.Context, ids []int64) (map[int64]store.Sender, error)
}

// Store is the facts tables.
type Store struct {
	file File
	src  Source
	auth msgauth.Checker
	log  *slog.Logger

	passMu   sync.Mutex // one pass at a time
	batch    int        // messages a pass reads per transaction
	progress func(Progress)
	// mergeEvery is how long a pass runs between merges: a long pass
	// (every message after an extractor upgrade) shows the messages it
	// has redone, and the mail the sync stored meanwhile, before it ends.
	mergeEvery time.Duration

	namesMu sync.RWMutex // guards names
	names   *nameIndex   // nil until loaded
}

// New returns the facts store over file, whose tables Migrations created.
// logger may be nil.
func New(file File, src Source, auth msgauth.Checker, logger *slog.Logger) *Store {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Store{file: file, src: src, auth: auth, log: logger.With("component", "facts"),
		batch: defaultBatch, mergeEvery: defaultMergeEvery}
}

// SetProgress has every pass report its progress to f, from the pass's
// goroutine: once when it has counted what it will read, after each
// batch is stored, and once at its end. Set it before the first pass.
func (s *Store) SetProgress(f func(Progress)) { s.progress = f }

// Progress is how far a pass has come.
type Progress struct {
	// Done of Total messages are read and stored. Total is what was
	// unread when the pass began, plus what it met since.
	Done, Total int
	// Finished is set on the pass's last report, also when it failed.
	Finished bool
}

// defaultBatch is how many messages a pass reads per transaction: each
// batch's messages get their new facts at once, in one commit, so a pass
// stopped midway resumes after the last batch it stored.
const defaultBatch = 256

// defaultMergeEvery bounds how stale the merged facts get during a
// pass. A merge reads every fact, so it is not done after every batch.
const defaultMergeEvery = 30 * time.Second

// skipFolders are not read: mail the user threw away or the provider
// judged spam states nothing the user relies on.
const skipFolders = `'\Junk', '\Trash'`

// PassStats says what a pass did.
type PassStats struct {
	Read   int // messages read
	Facts  int // facts stored
	Merged bool
}

// Pass reads every message not yet read by this version of the
// extractors, then merges if anything changed. It is safe to call at any
// time; concurrent calls wait for each other.
//
// A pass is background work: after an extractor upgrade it reads the
// whole mailbox again while the node serves agents, who are answered
// from the facts as they stand (a message's old facts until its new ones
// replace them, in one transaction, and the merged state of the last
// merge). So it runs, as the sync's parse workers and writer do, on
// threads of lower priority (background), and reports its progress
// (SetProgress). A pass stopped midway (ctx) has stored every batch it
// finished; the next one reads only the rest.
func (s *Store) Pass(ctx context.Context) (PassStats, error) {
	s.passMu.Lock()
	defer s.passMu.Unlock()
	var st PassStats
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		background()
		st, err = s.pass(ctx)
	}()
	<-done
	return st, err
}

func (s *Store) pass(ctx context.Context) (st PassStats, err error) {
	total, err := s.countPending(ctx)
	if err != nil {
		return st, err
	}
	report := func(p Progress) {
		if s.progress != nil && total > 0 {
			s.progress(p)
		}
	}
	defer func() { report(Progress{Done: st.Read, Total: max(total, st.Read), Finished: true}) }()
	report(Progress{Total: total})
	var after int64 // the pass goes once through the messages, in id order
	lastMerge := time.Now()
	var unmerged int
	for {
		ids, err := s.pending(ctx, after)
		if err != nil {
			return st, err
		}
		if len(ids) == 0 {
			break
		}
		n, changed, err := s.read(ctx, ids)
		if err != nil {
			return st, err
		}
		after = ids[len(ids)-1]
		st.Read += len(ids)
		st.Facts += n
		if changed {
			unmerged++
		}
		total = max(total, st.Read)
		if unmerged > 0 && time.Since(lastMerge) >= s.mergeEvery {
			if err := s.merge(ctx); err != nil {
				return st, err
			}
			st.Merged, unmerged, lastMerge = true, 0, time.Now()
		}
		report(Progress{Done: st.Read, Total: total})
	}
	var dirty bool
	if err := s.file.DB().QueryRowContext(ctx, `SELECT dirty FROM facts_state WHERE id = 1`).Scan(&dirty); err != nil {
		return st, fmt.Errorf("read facts state: %w", err)
	}
	if dirty || unmerged > 0 {
		if err := s.merge(ctx); err != nil {
			return st, err
		}
		st.Merged = true
	}
	if st.Read > 0 {
		s.log.Info("Read mail for facts", "messages", st.Read, "facts", st.Facts)
	}
	return st, nil
}

// unreadWhere selects the messages a pass reads: those no extractor of
// this version has read, outside Junk and Trash. Its one parameter is
// extract.Version.
const unreadWhere = `FROM messages m
		JOIN folders f ON f.id = m.folder_id
		LEFT JOIN facts_extracted e ON e.message_id = m.id
		WHERE (e.message_id IS NULL OR e.version != ?) AND f.special_use NOT IN (` + skipFolders + `)`

// countPending counts what a pass will read, for its progress.
func (s *Store) countPending(ctx context.Context) (int, error) {
	var n int
	if err := s.file.DB().QueryRowContext(ctx, `SELECT count(*) `+unreadWhere, extract.Version).Scan(&n); err != nil {
		return 0, fmt.Errorf("count messages to read: %w", err)
	}
	return n, nil
}

// pending lists the next batch of messages to read after the message
// id after.
func (s *Store) pending(ctx context.Context, after int64) ([]int64, error) {
	rows, err := s.file.DB().QueryContext(ctx, `SELECT m.id `+unreadWhere+` AND m.id > ?
		ORDER BY m.id LIMIT ?`, extract.Version, after, s.batch)
	if err != nil {
		return nil, fmt.Errorf("list messages to read: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

type readResult struct {
	id      int64
	res     extract.Result
	date    time.Time
	tiebrk  string
	relayed bool // mail/trust.Relayed
	readErr error
}

// read extracts ids on every core, one worker a core as the sync's parse
// workers (imapsync's prepareAll), and stores the results in one
// transaction.
// It returns how many facts it stored and whether any fact changed (was
// stored, or removed from a message that no longer states it).
func (s *Store) read(ctx context.Context, ids []int64) (int, bool, error) {
	results := make([]readResult, len(ids))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), runtime.NumCPU(), len(ids)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			background()
			for i := range work {
				results[i] = s.extractOne(ctx, ids[i])
			}
		}()
	}
	for i := range ids {
		work <- i
	}
	close(work)
	wg.Wait()

	var n int
	var changed bool
	err := s.file.WriteTx(ctx, func(tx *sql.Tx) error {
		var err error
		n, changed, err = s.write(ctx, tx, results)
		return err
	})
	if err != nil {
		return 0, false, fmt.Errorf("store facts of %d messages: %w", len(ids), err)
	}
	return n, changed, nil
}

// write stores the facts of results in tx in place of their messages'
// old ones, marks their messages read at this extractor version, and
// marks the merged state dirty when any fact was stored or removed. It
// returns how many facts it stored and whether any changed.
func (s *Store) write(ctx context.Context, tx *sql.Tx, results []readResult) (int, bool, error) {
	del, err := tx.PrepareContext(ctx, `DELETE FROM facts WHERE message_id = ?`)
	if err != nil {
		return 0, false, err
	}
	defer del.Close()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO facts (message_id, seq, kind, record) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return 0, false, err
	}
	defer ins.Close()
	done, err := tx.PrepareContext(ctx, `INSERT INTO facts_extracted (message_id, version, authenticated, auth_method, relayed)
		SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM messages WHERE id = ?)
		ON CONFLICT (message_id) DO UPDATE SET version = excluded.version,
		authenticated = excluded.authenticated, auth_method = excluded.auth_method, relayed = excluded.relayed`)
	if err != nil {
		return 0, false, err
	}
	defer done.Close()
	n, removed := 0, false
	for _, r := range results {
		if r.readErr != nil {
			if ctx.Err() != nil {
				return 0, false, ctx.Err()
			}
			// A message that cannot be read (gone since it was listed, or
			// damaged) is marked read with no facts, so that a pass
			// cannot list it forever; a vanished one is not marked.
			s.log.Warn("Could not read a message for facts", "messageID", r.id, "err", r.readErr)
			if _, err := done.ExecContext(ctx, r.id, extract.Version, false, "", false, r.id); err != nil {
				return 0, false, err
			}
			continue
		}
		if r.res.Overdue {
			// Marked read with what was read: reading it again would
			// cost the same time again.
			s.log.Warn("Stopped reading a message's attachments at its time limit", "messageID", r.id)
		}
		res, err := del.ExecContext(ctx, r.id)
		if err != nil {
			return 0, false, err
		}
		if gone, err := res.RowsAffected(); err == nil && gone > 0 {
			removed = true
		}
		for seq, f := range r.res.Facts {
			rec := extract.Record{Fact: f, Message: r.id, Date: r.date, Tiebreak: r.tiebrk, Authenticated: r.res.Auth.Authenticated, AuthFailed: r.res.Auth.Failed, Tainted: r.res.Tainted}
			b, err := json.Marshal(rec)
			if err != nil {
				return 0, false, fmt.Errorf("encode fact of message %d: %w", r.id, err)
			}
			if _, err := ins.ExecContext(ctx, r.id, seq, f.Kind, string(b)); err != nil {
				return 0, false, err
			}
			n++
		}
		if _, err := done.ExecContext(ctx, r.id, extract.Version, r.res.Auth.Authenticated, r.res.Auth.Method, r.relayed, r.id); err != nil {
			return 0, false, err
		}
	}
	changed := n > 0 || removed
	if changed {
		if _, err := tx.ExecContext(ctx, `UPDATE facts_state SET dirty = 1 WHERE id = 1 AND dirty = 0`); err != nil {
			return 0, false, err
		}
	}
	return n, changed, nil
}

// Prepare extracts a message's facts as the sync parses it (it is the
// store's MessageHook, set with SetMessageHook): the message is read
// once, in the sync, rather than again after it.
func (s *Store) Prepare(raw []byte, m *mime.Message) any { return s.extractParsed(raw, m, false) }

// Store writes the facts Prepare made, in the sync's transaction, for the
// messages it stored; the next Pass only merges. Messages in Junk and
// Trash are left unread, as a pass leaves them.
func (s *Store) Store(ctx context.Context, tx *sql.Tx, folderID int64, msgs []store.Prepared) error {
	var use string
	if err := tx.QueryRowContext(ctx, `SELECT special_use FROM folders WHERE id = ?`, folderID).Scan(&use); err != nil {
		return fmt.Errorf("facts: folder %d: %w", folderID, err)
	}
	if use == `\Junk` || use == `\Trash` {
		return nil
	}
	// The messages are new in this transaction: they have no facts to
	// replace, so rows are added in a few multi-row statements rather
	// than three statements a message, on the sync's one writer.
	var done, rows []any
	for _, m := range msgs {
		r, ok := m.Value.(readResult)
		if !ok {
			continue // prepared before the hook was set: the next pass reads it
		}
		if r.readErr != nil {
			s.log.Warn("Could not read a message for facts", "messageID", m.ID, "err", r.readErr)
		}
		if r.res.Overdue {
			s.log.Warn("Stopped reading a message's attachments at its time limit", "messageID", m.ID)
		}
		version := extract.Version
		if r.res.Pending {
			version = pendingVersion
		}
		done = append(done, m.ID, version, r.res.Auth.Authenticated, r.res.Auth.Method, r.relayed)
		for seq, f := range r.res.Facts {
			rec := extract.Record{Fact: f, Message: m.ID, Date: r.date, Tiebreak: r.tiebrk, Authenticated: r.res.Auth.Authenticated, AuthFailed: r.res.Auth.Failed, Tainted: r.res.Tainted}
			b, err := json.Marshal(rec)
			if err != nil {
				return fmt.Errorf("facts: encode fact of message %d: %w", m.ID, err)
			}
			rows = append(rows, m.ID, seq, f.Kind, string(b))
		}
	}
	if err := insertRows(ctx, tx, "facts_extracted (message_id, version, authenticated, auth_method, relayed)", 5, done); err != nil {
		return fmt.Errorf("facts: %w", err)
	}
	if err := insertRows(ctx, tx, "facts (message_id, seq, kind, record)", 4, rows); err != nil {
		return fmt.Errorf("facts: %w", err)
	}
	if len(rows) > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE facts_state SET dirty = 1 WHERE id = 1 AND dirty = 0`); err != nil {
			return fmt.Errorf("facts: %w", err)
		}
	}
	return nil
}

// insertRows inserts args, width values a row, into table (with its
// column list) in statements of at most 200 rows.
func insertRows(ctx context.Context, tx *sql.Tx, table string, width int, args []any) error {
	const chunk = 200
	row := "(?" + strings.Repeat(", ?", width-1) + ")"
	for start := 0; start < len(args); start += chunk * width {
		end := min(start+chunk*width, len(args))
		n := (end - start) / width
		q := "INSERT INTO " + table + " VALUES " + row + strings.Repeat(", "+row, n-1)
		if _, err := tx.ExecContext(ctx, q, args[start:end]...); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) extractOne(ctx context.Context, id int64) readResult {
	raw, err := s.src.Raw(ctx, id)
	if err != nil {
		return readResult{id: id, readErr: err}
	}
	m := mime.Parse(raw)
	if m.Date.IsZero() {
		// A mail without a Date header is read as of its arrival, as the
		// sync's hook reads it (store.Prepare sets Arrived).
		var arrived int64
		err := s.file.DB().QueryRowContext(ctx, `SELECT internal_date FROM messages WHERE id = ?`, id).Scan(&arrived)
		if err == nil && arrived > 0 {
			m.Arrived = time.Unix(arrived, 0)
		}
	}
	r := s.extractParsed(raw, m, true)
	r.id = id
	return r
}

// extractParsed is what the pass and the sync's hook keep of a message.
// The sync's hook reads quickly (full false): a PDF's text is left for the
// pass that follows the sync.
func (s *Store) extractParsed(raw []byte, m *mime.Message, full bool) (r readResult) {
	// An extractor that panics on a hostile mail costs that mail its
	// facts, not the node: the mail is marked read with none.
	defer func() {
		if v := recover(); v != nil {
			r = readResult{readErr: fmt.Errorf("extract: panic: %v", v)}
		}
	}()
	auth := s.auth.Check(m, raw)
	var res extract.Result
	if full {
		res = extract.Extract(m, auth)
	} else {
		res = extract.ExtractQuick(m, auth)
	}
	relayed := trust.Relayed(m)
	if relayed {
		// The From domain's authentication vouches for the domain's
		// words, not for the writer it relays: a brand's notice with a
		// stranger's free-mail Reply-To was a verified order of the
		// brand's (the eleventh outside review, MEDIUM-4).
		res.Auth.Authenticated = false
	}
	if relayed && !trust.RelayedByReply(m) {
		// A relay is never the shop: a marketplace seller's message, a
		// gift card's giver, a share's or a list post's writer states no
		// order, which would be shown under the relaying service's domain
		// (an Amazon seller's "your order … has been cancelled" beside the
		// person's Amazon order). Its bills and trips are listed as its
		// own, never trusted. A Reply-To at a free-mail box alone is a
		// small shop's own mail as often (trust.RelayedByReply): its
		// orders stay, under that message alone and never trusted.
		res.Facts = slices.DeleteFunc(res.Facts, func(f extract.Fact) bool { return f.Kind == extract.KindOrder })
	}
	return readResult{res: res, date: m.Date, tiebrk: extract.Tiebreak(m.MessageID, raw), relayed: relayed}
}

// markSenders sets each record's Sender (senderKey) and, for an
// authenticated one, Trusted, from its message's sender as of now
// (mail/trust), for Merge to keep senders' things apart and prefer their
// authenticated mail; it returns each message's standing.
func (s *Store) markSenders(ctx context.Context, recs []extract.Record, now time.Time) (map[int64]standing, error) {
	var ids []int64
	seen := map[int64]bool{}
	for _, r := range recs {
		if !seen[r.Message] {
			seen[r.Message] = true
			ids = append(ids, r.Message)
		}
	}
	senders, err := s.senders(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("read senders for the merge: %w", err)
	}
	out := make(map[int64]standing, len(senders))
	for i := range recs {
		if sd, ok := senders[recs[i].Message]; ok {
			recs[i].Sender = senderKey(recs[i], sd)
			recs[i].Trusted = trust.Trusted(recs[i].Authenticated, sd, now)
			st := standing{trusted: recs[i].Trusted, domain: sd.Domain}
			// An authenticated sender at a domain of its own (no
			// free-mail provider's, no shared one's) stands above anyone:
			// a new airline's first booking, or the person forwarding
			// one from their work address, above a Gmail stranger's.
			st.known = recs[i].Trusted || recs[i].Authenticated && !trust.FreeMail(sd.Domain)
			out[recs[i].Message] = st
		}
	}
	return out, nil
}

// standing is what the merge knows of a message's sender for the order
// in which the tools fill their limits (facts_merged.trusted).
type standing struct {
	trusted bool   // mail/trust.Trusted
	known   bool   // trusted, or authenticated at a domain of its own
	domain  string // the sender's registrable domain (store.Sender.Domain)
}

// senderKey is who stated record r for the merge (extract.Record.Sender):
// the sender of its message (trust.SenderKey), or for a forwarded
// original the very address that forwarded it, so that neither the
// forwarder's colleagues at its domain nor a forged From of its domain
// is the forwarder (the third outside review of 2026-11-28), together
// with the original's claimed sender as trust.SenderKey keys it (its
// registrable domain; its address at a free-mail provider), so that a
// stranger's mail that the same person forwards (a rule forwarding a work
// mailbox) is no word on the airline's booking they forwarded; an
// original that names no sender is its message alone. A message whose
// From failed the provider's checks (Record.AuthFailed) is its message
// alone too: a forged From of the person's own address, or of an
// airline's, shares a key neither with the mail that passed nor with the
// person's own Sent copies (the ninth outside review, H1).
func senderKey(r extract.Record, sd store.Sender) string {
	msg := "#" + strconv.FormatInt(r.Message, 10)
	if r.AuthFailed {
		return "failed|" + sd.Address + msg
	}
	if r.Fact.From == extract.FromForwarded {
		if r.Quoted == "" {
			return "fwd|" + sd.Address + "|" + msg
		}
		// A chain (extract.QuotedChain: a stranger's mail quoting an
		// airline's block) is keyed by every sender in it, the outer
		// first: never the key of the airline's mail forwarded alone.
		var keys []string
		for _, a := range strings.Split(r.Quoted, extract.QuotedChain) {
			keys = append(keys, trust.SenderKey(store.Sender{Address: a, Domain: store.OrgDomain(a)}, r.Message))
		}
		return "fwd|" + sd.Address + "|" + strings.Join(keys, extract.QuotedChain)
	}
	return trust.SenderKey(sd, r.Message)
}

// pendingVersion is the version a message is marked read at when its
// attachments' text is still to be read: never the current version, so
// the next pass reads it whole, while the facts already found are kept.
const pendingVersion = -extract.Version

// merge rebuilds facts_merged from every stored fact.
func (s *Store) merge(ctx context.Context) error {
	rows, err := s.file.DB().QueryContext(ctx, `SELECT record FROM facts`)
	if err != nil {
		return fmt.Errorf("read facts: %w", err)
	}
	var recs []extract.Record
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			rows.Close()
			return fmt.Errorf("read facts: %w", err)
		}
		var r extract.Record
		if err := json.Unmarshal(b, &r); err != nil {
			s.log.Warn("Skipped an unreadable fact", "err", err)
			continue
		}
		recs = append(recs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read facts: %w", err)
	}
	standings, err := s.markSenders(ctx, recs, time.Now())
	if err != nil {
		return err
	}
	m := extract.Merge(recs)
	// The order in which the tools fill their limits
	// (facts_merged.trusted): 2 for a fact that is verified and every
	// message of which has a trusted sender, as complete works out
	// trusted_sender at the question's time; 1 for one every message of
	// which has a sender of standing (a new airline's first booking, the
	// person's own forward), so that strangers at free-mail addresses do
	// not crowd it out (the third outside review of 2026-11-28); 0 else.
	limitRank := func(verified bool, src []int64) int {
		if len(src) == 0 {
			return 0
		}
		rank := 2
		for _, id := range src {
			switch st := standings[id]; {
			case !st.known:
				return 0
			case !st.trusted || !verified:
				rank = 1
			}
		}
		return rank
	}
	names := newNameIndex()
	err = s.file.WriteTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM facts_merged`); err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO facts_merged (id, kind, status, start_at, end_at, due_at, match, data, trusted)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		put := func(id, kind, status string, start, end, due int64, match string, trusted int, v any) error {
			names.add(id, match, rankOf(v))
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			_, err = ins.ExecContext(ctx, id, kind, status, start, end, due, match, string(b), trusted)
			return err
		}
		for _, t := range m.Trips {
			if err := put(t.ID, "trip", t.Status, unix(t.Start), unix(t.End), 0, tripMatch(t), limitRank(t.Verified, t.Sources), t); err != nil {
				return err
			}
		}
		for _, t := range m.Plans {
			if err := put(t.ID, "plan", t.Status, unix(t.Start), unix(t.End), 0, tripMatch(t), limitRank(t.Verified, t.Sources), t); err != nil {
				return err
			}
		}
		for _, o := range m.Orders {
			match := orderMatch(o)
			if o.Domain == "" {
				// A carrier's notice, or a sender at a reserved name
				// (example.com, .invalid): no domain of the shop's own.
				// It is found by the shop its text names, and by its
				// sender's domain, which is what it is shown by while that
				// sender is untrusted (byDomain).
				match += merchantMatch("", standings[firstSource(o.Sources)].domain)
			}
			if err := put(o.ID, "order", o.Status, 0, 0, 0, match, limitRank(o.Verified, o.Sources), o); err != nil {
				return err
			}
		}
		for _, b := range m.Bills {
			match := merchantMatch(b.Issuer, b.Domain)
			if b.Domain == "" {
				match += merchantMatch("", standings[firstSource(b.Sources)].domain)
			}
			if err := put(b.ID, "bill", b.Status, 0, 0, unix(b.Due), match, limitRank(b.Verified, b.Sources), b); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE facts_state SET dirty = 0 WHERE id = 1`)
		return err
	})
	if err != nil {
		return fmt.Errorf("store merged facts: %w", err)
	}
	s.namesMu.Lock()
	s.names = names
	s.namesMu.Unlock()
	return nil
}

// tripMatch is what a question may name a trip by: its places (names and
// codes), hotels, carriers and numbers, folded, space-separated.
func tripMatch(t extract.Trip) string {
	var parts []string
	for _, s := range t.Segments {
		for _, p := range []*extract.Place{s.From, s.To} {
			if p != nil {
				parts = append(parts, p.Name, p.Code)
			}
		}
		parts = append(parts, s.Hotel, s.Name, s.Address, s.Carrier, s.Number, s.Reservation)
	}
	return " " + places.Fold(strings.Join(parts, " ")) + " "
}

// The queries below answer as of now, the caller's clock: whether a fact's
// senders are trusted (their domains age) and whether a bill is stale
// depend on it. The store keeps no clock of its own, so that a tool call
// that reads facts and messages sees one now (the tools' clock).

// About returns the trips, orders and bills a question names: those whose
// places, names, domains or numbers hold one of terms (folded words) as a
// whole word. Cancelled trips are left out. The words are looked up in an
// index of facts_merged.match kept in memory (rebuilt with every merge), as
// a LIKE over every fact for every word of every question cost more than
// the rest of ask.
func (s *Store) About(ctx context.Context, now time.Time, terms []string, limit int) ([]json.RawMessage, error) {
	x, err := s.index(ctx)
	if err != nil {
		return nil, err
	}
	hits := map[string]int{}
	var ids []string
	for _, t := range terms {
		for _, w := range strings.Fields(places.Fold(t)) {
			for _, id := range x.words[w] {
				if hits[id] == 0 {
					ids = append(ids, id)
				}
				hits[id]++
			}
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	// Which facts come first must not be the senders' choice: an id is a
	// hash of a fact's own fields, which a look-alike picks so as to sort
	// first, and twenty of them would crowd the real fact out. So the
	// facts of authenticated senders come first, then those the question
	// names by more of its words, then the facts first read from older
	// mail (a sender cannot send mail into the past); only those are read
	// whole.
	slices.SortFunc(ids, func(a, b string) int {
		ra, rb := x.rank[a], x.rank[b]
		switch {
		case ra.verified != rb.verified:
			if ra.verified {
				return -1
			}
			return 1
		case hits[a] != hits[b]:
			return hits[b] - hits[a]
		case ra.first != rb.first:
			return cmp.Compare(ra.first, rb.first)
		}
		return strings.Compare(a, b)
	})
	if len(ids) > limit {
		ids = ids[:limit]
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return s.current(ctx, now, `SELECT data FROM facts_merged WHERE id IN (?`+strings.Repeat(", ?", len(args)-1)+`)
		AND NOT (kind IN ('trip', 'plan') AND status = 'cancelled') ORDER BY kind, id`, args...)
}

// nameIndex is the words of facts_merged.match, and what About orders a
// question's facts by, kept in memory.
type nameIndex struct {
	words map[string][]string // word → ids
	match map[string]string   // id → its match
	rank  map[string]factRank
}

// factRank is what orders the facts a question names before any is read
// whole: whether its senders were authenticated, and the first message it
// was read from (older mail first: no sender can send into the past).
type factRank struct {
	verified bool
	first    int64
}

func newNameIndex() *nameIndex {
	return &nameIndex{words: map[string][]string{}, match: map[string]string{}, rank: map[string]factRank{}}
}

func (x *nameIndex) add(id, match string, r factRank) {
	x.rank[id] = r
	x.match[id] = match
	for _, w := range strings.Fields(match) {
		if l := x.words[w]; len(l) == 0 || l[len(l)-1] != id {
			x.words[w] = append(l, id)
		}
	}
}

// rankOf is a merged fact's rank.
func rankOf(v any) factRank {
	switch f := v.(type) {
	case extract.Trip:
		return factRank{f.Verified, first(f.Sources)}
	case extract.OrderState:
		return factRank{f.Verified, first(f.Sources)}
	case extract.BillState:
		return factRank{f.Verified, first(f.Sources)}
	}
	return factRank{}
}

func first(ids []int64) int64 {
	if len(ids) == 0 {
		return 0
	}
	return slices.Min(ids)
}

// index returns the name index, reading it from the file the first time
// (after a start; a merge rebuilds it).
func (s *Store) index(ctx context.Context) (*nameIndex, error) {
	s.namesMu.RLock()
	x := s.names
	s.namesMu.RUnlock()
	if x != nil {
		return x, nil
	}
	rows, err := s.file.DB().QueryContext(ctx, `SELECT id, match, coalesce(json_extract(data, '$.verified_sender'), 0),
		coalesce((SELECT min(value) FROM json_each(data, '$.sources')), 0) FROM facts_merged`)
	if err != nil {
		return nil, fmt.Errorf("read fact names: %w", err)
	}
	defer rows.Close()
	x = newNameIndex()
	for rows.Next() {
		var id, match string
		var r factRank
		if err := rows.Scan(&id, &match, &r.verified, &r.first); err != nil {
			return nil, fmt.Errorf("read fact names: %w", err)
		}
		x.add(id, match, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read fact names: %w", err)
	}
	s.namesMu.Lock()
	if s.names == nil {
		s.names = x
	}
	x = s.names
	s.namesMu.Unlock()
	return x, nil
}

func unix(t *extract.Time) int64 {
	if t == nil {
		return 0
	}
	return t.Unix()
}

// byDomain names an untrusted sender by its registrable domain, as Merge
// names an unauthenticated one: "Telekom" from a domain registered last
// week, telekom-kundenservice.example, agrees with its domain as well as
// the real one does. A fact without a domain of its own (a carrier's
// notice naming the shop, a sender at a reserved name such as
// service@paypal.invalid) is named by the domain of the mail it was read
// from, never by the name it claims (the sixth outside review).
func byDomain(name, domain string, src []int64, senders map[int64]store.Sender) string {
	if org := store.OrgDomain("@" + domain); org != "" {
		return org
	}
	return senders[firstSource(src)].Domain
}

// firstSource is the first message a fact was read from, or 0.
func firstSource(src []int64) int64 {
	if len(src) == 0 {
		return 0
	}
	return src[0]
}

// Authenticated reports, for each of ids that has been read, whether its
// sender's domain was authenticated (a forwarded original never is).
// Messages not read yet are left out, as unauthenticated.
func (s *Store) Authenticated(ctx context.Context, ids []int64) (map[int64]bool, error) {
	out := make(map[int64]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	q := "SELECT message_id, authenticated FROM facts_extracted WHERE message_id IN (?" + strings.Repeat(", ?", len(ids)-1) + ")"
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.file.DB().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read sender authentication: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var auth bool
		if err := rows.Scan(&id, &auth); err != nil {
			return nil, fmt.Errorf("read sender authentication: %w", err)
		}
		out[id] = auth
	}
	return out, rows.Err()
}

// senders is what the store knows of the senders of messages ids
// (store.Senders), each marked Relayed as its message was read.
func (s *Store) senders(ctx context.Context, ids []int64) (map[int64]store.Sender, error) {
	senders, err := s.src.Senders(ctx, ids)
	if err != nil {
		return nil, err
	}
	relayed, err := s.Relayed(ctx, ids)
	if err != nil {
		return nil, err
	}
	for id := range relayed {
		if sd, ok := senders[id]; ok {
			sd.Relayed = true
			senders[id] = sd
		}
	}
	return senders, nil
}

// Relayed returns those of ids whose message relays another writer's
// words under its From domain (mail/trust.Relayed), as they were read.
func (s *Store) Relayed(ctx context.Context, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	const chunk = 500
	for len(ids) > 0 {
		n := min(chunk, len(ids))
		args := make([]any, n)
		for i, id := range ids[:n] {
			args[i] = id
		}
		ids = ids[n:]
		rows, err := s.file.DB().QueryContext(ctx, "SELECT message_id FROM facts_extracted WHERE relayed = 1 AND message_id IN (?"+strings.Repeat(", ?", n-1)+")", args...)
		if err != nil {
			return nil, fmt.Errorf("read relays: %w", err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("read relays: %w", err)
			}
			out[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("read relays: %w", err)
		}
	}
	return out, nil
}

// Trips returns the trips that have not ended by from and start before
// to (zero: no end), soonest first.
func (s *Store) Trips(ctx context.Context, now, from, to time.Time, limit int) ([]json.RawMessage, error) {
	end := int64(1) << 62
	if !to.IsZero() {
		end = to.Unix()
	}
	return s.current(ctx, now, `SELECT data FROM facts_merged WHERE kind = 'trip' AND end_at >= ? AND start_at < ?
		AND status != 'cancelled' ORDER BY trusted DESC, start_at, id LIMIT ?`, from.Unix(), end, limit)
}

// Orders returns the orders whose merchant matches merchant, a name as a
// person says it or a domain (merchantPatterns: case-, accent- and
// "&"/"and"-insensitive, whole words, or the domain's name written
// together), newest first.
func (s *Store) Orders(ctx context.Context, now time.Time, merchant string, limit int) ([]json.RawMessage, error) {
	pats := merchantPatterns(merchant)
	if len(pats) == 0 {
		return nil, nil
	}
	// Whole words: "zalando" matches the domain "service-mail.zalando.de"
	// and the name "Zalando SE", "zal" matches neither. The orders are
	// found in the name index, which keeps each fact's match: the first
	// pattern is a run of words, looked for in the matches of the facts
	// that hold its first word; the others are a domain's name written
	// together, one word each. (A LIKE per pattern over every order's
	// match took order_status's p50 from 3.7 to 5.5 ms in one run of
	// BenchmarkTools20k on a loaded machine.)
	x, err := s.index(ctx)
	if err != nil {
		return nil, err
	}
	ids := []string{}
	seen := map[string]bool{}
	add := func(id string) {
		if strings.HasPrefix(id, "o_") && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	run := " " + pats[0] + " "
	first, _, _ := strings.Cut(pats[0], " ")
	for _, id := range x.words[first] {
		if strings.Contains(x.match[id], run) {
			add(id)
		}
	}
	for _, p := range pats[1:] {
		for _, id := range x.words[p] {
			add(id)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("read orders: %w", err)
	}
	return s.current(ctx, now, `SELECT data FROM facts_merged WHERE id IN (SELECT value FROM json_each(?)) AND kind = 'order'
		ORDER BY trusted DESC, json_extract(data, '$.updated') DESC, id LIMIT ?`, string(list), limit)
}

// BillsDue returns the unpaid bills due before before, soonest first.
// Bills without a due date are not listed, nor stale ones (due more than
// extract.StaleAfter ago). When more than limit match, the ones not yet
// due are kept first, then the overdue ones most recently due: a bill
// paid by direct debit stays due for a year unless a mail says it was
// paid, and a year of monthly bills must not hide the one due next week
// behind the oldest (the end-to-end test in app lost 13 bills so).
func (s *Store) BillsDue(ctx context.Context, now, before time.Time, limit int) ([]json.RawMessage, error) {
	// Two walks of the (kind, status, due_at) index: the bills not yet
	// due, soonest first, then as many overdue ones as room is left,
	// latest first. One query ordered by an expression sorted every due
	// bill instead: bills_due's p50 on BenchmarkTools20k was 1 ms, 0.4 ms
	// this way, as with the one walk before.
	//
	// Bills of trusted senders come first, each group so: a stranger's
	// bills cannot fill the limit ahead of them (facts_merged.trusted).
	const q = `SELECT data FROM facts_merged WHERE kind = 'bill' AND status = 'due' AND due_at > 0 AND due_at >= ? AND due_at < ? AND trusted = ? `
	lo, cut, end := now.Add(-extract.StaleAfter).Unix(), now.Unix(), before.Unix()
	var items []json.RawMessage
	for _, trusted := range []int{2, 1, 0} {
		room := limit - len(items)
		if room <= 0 {
			break
		}
		upcoming, err := s.query(ctx, q+`ORDER BY due_at, id LIMIT ?`, max(lo, cut), end, trusted, room)
		if err != nil {
			return nil, err
		}
		var overdue []json.RawMessage
		if room := room - len(upcoming); room > 0 {
			if overdue, err = s.query(ctx, q+`ORDER BY due_at DESC, id DESC LIMIT ?`, lo, min(cut, end), trusted, room); err != nil {
				return nil, err
			}
		}
		slices.Reverse(overdue)
		items = append(append(items, overdue...), upcoming...)
	}
	if len(items) == 0 {
		return items, nil
	}
	return s.complete(ctx, now, items)
}

// current runs a query of merged facts and completes them as of now: each
// says whether its senders are trusted (trusted_sender), and a due bill
// past extract.StaleAfter is stale.
func (s *Store) current(ctx context.Context, now time.Time, q string, args ...any) ([]json.RawMessage, error) {
	items, err := s.query(ctx, q, args...)
	if err != nil || len(items) == 0 {
		return items, err
	}
	return s.complete(ctx, now, items)
}

// complete sets trusted_sender and a bill's status as of now on merged
// facts as facts_merged holds them.
func (s *Store) complete(ctx context.Context, now time.Time, items []json.RawMessage) ([]json.RawMessage, error) {
	type fact struct {
		trip  *extract.Trip
		order *extract.OrderState
		bill  *extract.BillState
	}
	facts := make([]fact, len(items))
	var ids []int64
	for i, raw := range items {
		var probe struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(raw, &probe); err != nil {
			return nil, fmt.Errorf("read merged fact: %w", err)
		}
		var err error
		var src []int64
		switch {
		case strings.HasPrefix(probe.ID, "o_"):
			facts[i].order = &extract.OrderState{}
			err = json.Unmarshal(raw, facts[i].order)
			src = facts[i].order.Sources
		case strings.HasPrefix(probe.ID, "b_"):
			facts[i].bill = &extract.BillState{}
			err = json.Unmarshal(raw, facts[i].bill)
			src = facts[i].bill.Sources
		default: // t_, p_
			facts[i].trip = &extract.Trip{}
			err = json.Unmarshal(raw, facts[i].trip)
			src = facts[i].trip.Sources
		}
		if err != nil {
			return nil, fmt.Errorf("read merged fact %s: %w", probe.ID, err)
		}
		ids = append(ids, src...)
	}
	senders, err := s.senders(ctx, ids)
	if err != nil {
		return nil, err
	}
	// A fact's senders are trusted when it is verified and every message
	// it was read from has a trusted sender; a message gone since counts
	// against it.
	trusted := func(verified bool, src []int64) bool {
		if !verified || len(src) == 0 {
			return false
		}
		for _, id := range src {
			sd, ok := senders[id]
			if !ok || !trust.Trusted(true, sd, now) {
				return false
			}
		}
		return true
	}
	out := make([]json.RawMessage, len(items))
	for i, f := range facts {
		var v any
		switch {
		case f.order != nil:
			f.order.Trusted = trusted(f.order.Verified, f.order.Sources)
			if !f.order.Trusted {
				// Its names are its sender's free text: the merchant is
				// its domain, and its items are not listed.
				f.order.Merchant = byDomain(f.order.Merchant, f.order.Domain, f.order.Sources, senders)
				f.order.Items = nil
			}
			v = f.order
		case f.bill != nil:
			f.bill.Trusted = trusted(f.bill.Verified, f.bill.Sources)
			if !f.bill.Trusted {
				f.bill.Issuer = byDomain(f.bill.Issuer, f.bill.Domain, f.bill.Sources, senders)
			}
			f.bill.Status = f.bill.StatusAt(now)
			v = f.bill
		default:
			f.trip.Trusted = trusted(f.trip.Verified, f.trip.Sources)
			v = f.trip
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encode merged fact: %w", err)
		}
		out[i] = b
	}
	return out, nil
}

func (s *Store) query(ctx context.Context, q string, args ...any) ([]json.RawMessage, error) {
	rows, err := s.file.DB().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read merged facts: %w", err)
	}
	defer rows.Close()
	out := []json.RawMessage{}
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, fmt.Errorf("read merged facts: %w", err)
		}
		out = append(out, json.RawMessage(b))
	}
	return out, rows.Err()
}

// Counts is how many merged facts of each kind the store holds.
type Counts struct {
	Trips, Orders, Bills int
}

// Counts counts the merged facts by kind.
func (s *Store) Counts(ctx context.Context) (Counts, error) {
	rows, err := s.file.DB().QueryContext(ctx, `SELECT kind, count(*) FROM facts_merged GROUP BY kind`)
	if err != nil {
		return Counts{}, fmt.Errorf("count facts: %w", err)
	}
	defer rows.Close()
	var c Counts
	for rows.Next() {
		var kind string
		var n int
		if err := rows.Scan(&kind, &n); err != nil {
			return Counts{}, fmt.Errorf("count facts: %w", err)
		}
		switch kind {
		case "trip":
			c.Trips = n
		case "order":
			c.Orders = n
		case "bill":
			c.Bills = n
		}
	}
	return c, rows.Err()
}
