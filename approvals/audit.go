package approvals

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// AuditEntry is one tools/call as the audit log keeps it: who asked for
// what and what was decided. Never arguments, results or mail.
//
// A call that waits for the user is kept once: an agent retries it until
// the request is decided, often every few seconds, and one row per retry
// buried everything else in the log (issue 42). Every repeat of the same
// waiting call (same agent, key, tool, tier and approval id, outcome
// ApprovalRequired) adds one to Retries and moves LastAt instead of
// adding an entry. Every other outcome is one entry per call.
type AuditEntry struct {
	At         time.Time `json:"at"` // the first call
	Domain     string    `json:"agent"`
	KeyFP      string    `json:"key_fingerprint"`
	Tool       string    `json:"tool"`
	Tier       Tier      `json:"tier"`
	Decision   Outcome   `json:"decision"`
	ApprovalID string    `json:"approval_id,omitempty"`
	// Retries counts the calls after the first that this entry stands
	// for: 0 for a single call, 29 for a call made 30 times.
	Retries int `json:"retries,omitempty"`
	// LastAt is the time of the last of those calls: At for a single call.
	LastAt time.Time `json:"last_at"`
}

// Calls is how many calls the entry stands for: 1 + Retries.
func (e AuditEntry) Calls() int { return 1 + e.Retries }

// The audit log is written behind the calls, in batches: a call under a
// grant must not wait for a disk write of its own (the nonce write already
// costs one). Entries are flushed every auditFlush or at auditBatch
// entries, and on Close. A crash of the node can lose the last second of
// entries; docs/gateway.md says so.
const (
	auditFlush = time.Second
	auditBatch = 512
	auditPrune = time.Hour
)

type auditLog struct {
	file File
	cfg  Config
	log  *slog.Logger

	mu  sync.Mutex // guards buf
	buf []AuditEntry
	// flushing is held for a whole flush, so that a reader's flush waits
	// for the writer's batch in flight: without it the reader found an
	// empty buffer and read the table before that batch was in it, and the
	// desktop app's activity window missed the calls just made.
	flushing sync.Mutex
	kick     chan struct{}
	stop     chan struct{}
	done     chan struct{}
	stopped  sync.Once
}

func startAudit(file File, cfg Config, logger *slog.Logger) *auditLog {
	a := &auditLog{file: file, cfg: cfg, log: logger, kick: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{})}
	go a.run()
	return a
}

// add buffers e. The repeats of a waiting call are merged when they are
// written (write), in the batch or into the row an earlier batch wrote.
func (a *auditLog) add(e AuditEntry) {
	if e.LastAt.IsZero() {
		e.LastAt = e.At
	}
	a.mu.Lock()
	a.buf = append(a.buf, e)
	full := len(a.buf) >= auditBatch
	a.mu.Unlock()
	if full {
		select {
		case a.kick <- struct{}{}:
		default:
		}
	}
}

func (a *auditLog) run() {
	defer close(a.done)
	t := time.NewTicker(auditFlush)
	defer t.Stop()
	lastPrune := time.Time{}
	for {
		select {
		case <-a.stop:
			a.flush()
			return
		case <-t.C:
		case <-a.kick:
		}
		a.flush()
		if now := a.cfg.Now(); now.Sub(lastPrune) >= auditPrune {
			lastPrune = now
			a.prune(now)
		}
	}
}

func (a *auditLog) close() error {
	a.stopped.Do(func() { close(a.stop) })
	<-a.done
	return nil
}

// flush writes what is buffered. A failed write is logged and the entries
// are kept for the next try, up to a bound so that a broken disk cannot
// grow memory without end.
func (a *auditLog) flush() {
	a.flushing.Lock()
	defer a.flushing.Unlock()
	a.mu.Lock()
	batch := a.buf
	a.buf = nil
	a.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	// Not cancellable: see nonces.Store.commit on the driver's watcher.
	if err := a.write(context.Background(), batch); err != nil {
		a.log.Error("Cannot write audit log", "err", err, "count", len(batch))
		a.mu.Lock()
		if len(a.buf)+len(batch) <= 16*auditBatch {
			a.buf = append(batch, a.buf...)
		}
		a.mu.Unlock()
	}
}

func (a *auditLog) write(ctx context.Context, batch []AuditEntry) error {
	// One transaction per statement of at most perTx rows: the file has one
	// writer, and a signed request's nonce commit waits behind this one.
	const perTx = 100
	for i := 0; i < len(batch); i += perTx {
		part := batch[i:min(i+perTx, len(batch))]
		var q strings.Builder
		q.WriteString("INSERT INTO audit (at, domain, key_fp, tool, tier, decision, approval_id, retries, last_at) VALUES ")
		args := make([]any, 0, 9*len(part))
		for j, e := range part {
			if j > 0 {
				q.WriteByte(',')
			}
			q.WriteString("(?,?,?,?,?,?,?,?,?)")
			args = append(args, e.At.Unix(), e.Domain, e.KeyFP, e.Tool, string(e.Tier), string(e.Decision), e.ApprovalID,
				e.Retries, e.LastAt.Unix())
		}
		// A repeat of a waiting call, earlier in this statement or in an
		// earlier batch, adds to that call's row instead of making one:
		// audit_waiting (sql/0007) is unique over the waiting calls, and
		// SQLite applies the upsert row by row.
		q.WriteString(` ON CONFLICT (approval_id, domain, key_fp, tool, tier)
			WHERE decision = 'approval_required' AND approval_id != ''
			DO UPDATE SET retries = audit.retries + 1 + excluded.retries, last_at = max(audit.last_at, excluded.last_at)`)
		err := a.file.WriteTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, q.String(), args...)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (a *auditLog) prune(now time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cut := now.Add(-a.cfg.AuditRetention).Unix()
	for _, q := range []string{
		"DELETE FROM audit WHERE at < ?",
		"DELETE FROM approvals WHERE created_at < ? AND state != 'pending'",
		"DELETE FROM approvals WHERE expires_at < ? AND state = 'pending'",
	} {
		err := a.file.WriteTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, q, cut)
			return err
		})
		if err != nil {
			a.log.Warn("Cannot prune audit log and old approvals", "err", err)
			return
		}
	}
}

// Audit returns the newest entries of the audit log, newest first, at most
// limit of them (all if limit <= 0). A waiting call's entry is placed by
// its first call (At), however often it was repeated since.
func (m *Manager) Audit(ctx context.Context, limit int) ([]AuditEntry, error) {
	m.audit.flush()
	if limit <= 0 {
		limit = -1
	}
	rows, err := m.db.QueryContext(ctx, `SELECT at, domain, key_fp, tool, tier, decision, approval_id, retries, last_at
		FROM audit ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var at, last int64
		if err := rows.Scan(&at, &e.Domain, &e.KeyFP, &e.Tool, &e.Tier, &e.Decision, &e.ApprovalID, &e.Retries, &last); err != nil {
			return nil, fmt.Errorf("read audit log: %w", err)
		}
		e.At, e.LastAt = time.Unix(at, 0), time.Unix(max(at, last), 0)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	return out, nil
}
