package approvals

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The approvals table: reading and writing requests and decisions.

const approvalCols = "id, match_code, domain, site, key_fp, tool, tier, args, details, bound, state, created_at, expires_at, decided_at, also"

func scanApproval(row interface{ Scan(...any) error }, now time.Time) (*Approval, error) {
	var a Approval
	var created, expires int64
	var decided sql.NullInt64
	var also string
	if err := row.Scan(&a.ID, &a.MatchCode, &a.Domain, &a.Site, &a.KeyFP, &a.Tool, &a.Tier, &a.Args, &a.Details, &a.Bound, &a.State, &created, &expires, &decided, &also); err != nil {
		return nil, err
	}
	for _, t := range strings.Fields(also) {
		a.Also = append(a.Also, Tier(t))
	}
	a.CreatedAt, a.ExpiresAt = time.Unix(created, 0), time.Unix(expires, 0)
	if decided.Valid {
		a.DecidedAt = time.Unix(decided.Int64, 0)
	}
	if (a.State == Pending || a.State == Approved) && !now.Before(a.ExpiresAt) {
		a.State = Expired
	}
	return &a, nil
}

// latest returns the newest request for the same subject: agent, tier and
// key, and for per-call tiers the same tool, arguments and Bind (hash),
// never Pin. Nil if none.
func (m *Manager) latest(ctx context.Context, call Call, hash string) (*Approval, error) {
	row := m.db.QueryRowContext(ctx, "SELECT "+approvalCols+` FROM approvals
		WHERE domain = ? AND tier = ? AND key_fp = ? AND args_hash = ? AND (tool = ? OR ? = '')
		ORDER BY created_at DESC, rowid DESC LIMIT 1`,
		call.Domain, string(call.Tier), call.KeyFP, hash, call.Tool, hash)
	a, err := scanApproval(row, m.cfg.Now())
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("look up approval: %w", err)
	}
	return a, nil
}

// record stores the decision on the pending request a, and the grant it
// makes, and tells subscribers. m.slow is held.
func (m *Manager) record(ctx context.Context, a *Approval, approve bool, now time.Time) error {
	var g Grant
	err := m.file.WriteTx(ctx, func(tx *sql.Tx) error {
		return m.recordDecision(ctx, tx, a, &g, approve, now)
	})
	if err != nil {
		return fmt.Errorf("decide approval: %w", err)
	}
	if approve && !a.Tier.PerCall() {
		m.mu.Lock()
		m.grants[grantKey{g.Domain, g.Tier}] = g
		for _, t := range a.Also {
			g := g
			g.Tier = t
			m.grants[grantKey{g.Domain, t}] = g
		}
		m.mu.Unlock()
	}
	m.log.Info("Approval decided", "agent", a.Domain, "tier", a.Tier, "tool", a.Tool, "approvalID", a.ID, "approved", approve)
	m.publish(Event{Kind: "decided", Approval: *a, Domain: a.Domain})
	return nil
}

// recordDecision writes the decision on a, and for a tier the grant g it
// makes, in tx.
func (m *Manager) recordDecision(ctx context.Context, tx *sql.Tx, a *Approval, g *Grant, approve bool, now time.Time) error {
	if approve {
		a.State = Approved
		if a.Tier.PerCall() {
			a.ExpiresAt = time.Unix(now.Add(m.cfg.ApprovedTTL).Unix(), 0)
		} else {
			*g = Grant{Domain: a.Domain, Tier: a.Tier, KeyFP: a.KeyFP, ApprovalID: a.ID,
				GrantedAt: time.Unix(now.Unix(), 0), ExpiresAt: time.Unix(now.Add(m.cfg.GrantTTL).Unix(), 0)}
			for _, t := range append([]Tier{a.Tier}, a.Also...) {
				_, err := tx.ExecContext(ctx, `INSERT INTO grants (domain, tier, key_fp, granted_at, expires_at, approval_id)
					VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (domain, tier) DO UPDATE SET
					key_fp = excluded.key_fp, granted_at = excluded.granted_at,
					expires_at = excluded.expires_at, approval_id = excluded.approval_id`,
					g.Domain, string(t), g.KeyFP, g.GrantedAt.Unix(), g.ExpiresAt.Unix(), g.ApprovalID)
				if err != nil {
					return fmt.Errorf("store grant: %w", err)
				}
			}
		}
	} else {
		a.State = Denied
	}
	a.DecidedAt = time.Unix(now.Unix(), 0)
	_, err := tx.ExecContext(ctx, "UPDATE approvals SET state = ?, decided_at = ?, expires_at = ? WHERE id = ? AND state = 'pending'",
		string(a.State), a.DecidedAt.Unix(), a.ExpiresAt.Unix(), a.ID)
	return err
}

func (m *Manager) findPending(ctx context.Context, idOrCode string, now time.Time) (*Approval, error) {
	idOrCode = strings.TrimSpace(idOrCode)
	if strings.HasPrefix(idOrCode, "apr_") {
		a, err := scanApproval(m.db.QueryRowContext(ctx, "SELECT "+approvalCols+" FROM approvals WHERE id = ?", idOrCode), now)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		if err != nil {
			return nil, fmt.Errorf("look up approval: %w", err)
		}
		if a.State != Pending {
			return nil, fmt.Errorf("%w (%s)", ErrNotPending, a.State)
		}
		return a, nil
	}
	code := strings.ToUpper(strings.ReplaceAll(idOrCode, " ", ""))
	if len(code) == 6 {
		code = code[:3] + "-" + code[3:]
	}
	rows, err := m.db.QueryContext(ctx, "SELECT "+approvalCols+" FROM approvals WHERE match_code = ? AND state = 'pending' AND expires_at > ?", code, now.Unix())
	if err != nil {
		return nil, fmt.Errorf("look up approval: %w", err)
	}
	defer rows.Close()
	var found []*Approval
	for rows.Next() {
		a, err := scanApproval(rows, now)
		if err != nil {
			return nil, fmt.Errorf("look up approval: %w", err)
		}
		found = append(found, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("look up approval: %w", err)
	}
	switch len(found) {
	case 0:
		return nil, ErrNotFound
	case 1:
		return found[0], nil
	}
	return nil, ErrAmbiguous
}

// Get returns one request by approval id.
func (m *Manager) Get(ctx context.Context, id string) (Approval, error) {
	a, err := scanApproval(m.db.QueryRowContext(ctx, "SELECT "+approvalCols+" FROM approvals WHERE id = ?", id), m.cfg.Now())
	if errors.Is(err, sql.ErrNoRows) {
		return Approval{}, ErrNotFound
	}
	if err != nil {
		return Approval{}, fmt.Errorf("look up approval: %w", err)
	}
	return *a, nil
}

// Pending lists the requests waiting for the user, oldest first.
func (m *Manager) Pending(ctx context.Context) ([]Approval, error) {
	now := m.cfg.Now()
	rows, err := m.db.QueryContext(ctx, "SELECT "+approvalCols+" FROM approvals WHERE state = 'pending' AND expires_at > ? ORDER BY created_at, rowid", now.Unix())
	if err != nil {
		return nil, fmt.Errorf("list pending approvals: %w", err)
	}
	defer rows.Close()
	var out []Approval
	for rows.Next() {
		a, err := scanApproval(rows, now)
		if err != nil {
			return nil, fmt.Errorf("list pending approvals: %w", err)
		}
		out = append(out, *a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list pending approvals: %w", err)
	}
	return out, nil
}

// PendingAfter returns the pending requests made after the one at cursor
// (0: all), oldest first, and the cursor of the newest. A subscriber that
// was woken by an event uses it to catch up on everything it has not seen,
// so that an event dropped while it was busy loses nothing.
func (m *Manager) PendingAfter(ctx context.Context, cursor int64) ([]Approval, int64, error) {
	now := m.cfg.Now()
	rows, err := m.db.QueryContext(ctx, "SELECT rowid, "+approvalCols+" FROM approvals WHERE rowid > ? AND state = 'pending' AND expires_at > ? ORDER BY rowid", cursor, now.Unix())
	if err != nil {
		return nil, cursor, fmt.Errorf("list pending approvals: %w", err)
	}
	defer rows.Close()
	var out []Approval
	for rows.Next() {
		var a *Approval
		a, err = scanApproval(rowidScanner{rows, &cursor}, now)
		if err != nil {
			return nil, cursor, fmt.Errorf("list pending approvals: %w", err)
		}
		out = append(out, *a)
	}
	return out, cursor, rows.Err()
}

// rowidScanner scans a leading rowid column into rowid and the rest as
// the wrapped row would.
type rowidScanner struct {
	rows  *sql.Rows
	rowid *int64
}

func (r rowidScanner) Scan(dest ...any) error {
	return r.rows.Scan(append([]any{r.rowid}, dest...)...)
}

// exec runs one writing statement in a transaction of its own.
func (m *Manager) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	var res sql.Result
	err := m.file.WriteTx(ctx, func(tx *sql.Tx) error {
		var err error
		res, err = tx.ExecContext(ctx, query, args...)
		return err
	})
	return res, err
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
