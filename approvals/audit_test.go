package approvals_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"mailnode/approvals"
	"mailnode/mail/store"
)

// auditRow is what TestAuditWaitingCallOnce checks of an entry.
type auditRow struct {
	Decision approvals.Outcome
	Tool     string
	Retries  int
}

// TestAuditWaitingCallOnce: an agent that repeats a call while it waits
// for the user leaves one entry counting the repeats (Retries: calls after
// the first), whether the repeats meet the first call in the writer's
// buffer or after it was written; a new approval or another outcome is a
// new entry, and calls that do not wait are one entry each.
func TestAuditWaitingCallOnce(t *testing.T) {
	const ag = "agent.example.com"
	tests := []struct {
		name string
		run  func(e *env, call func(key, tool string, tier approvals.Tier, args string) approvals.Decision)
		want []auditRow // newest first
	}{
		{
			name: "30 polls of one wait",
			run: func(e *env, call func(string, string, approvals.Tier, string) approvals.Decision) {
				for range 30 {
					e.want(call(keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
					e.clock.add(2 * time.Second)
				}
			},
			want: []auditRow{{approvals.ApprovalRequired, "bills_due", 29}},
		},
		{
			name: "one call",
			run: func(e *env, call func(string, string, approvals.Tier, string) approvals.Decision) {
				e.want(call(keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
			},
			want: []auditRow{{approvals.ApprovalRequired, "bills_due", 0}},
		},
		{
			name: "approved: the allowed calls are entries of their own",
			run: func(e *env, call func(string, string, approvals.Tier, string) approvals.Decision) {
				var d approvals.Decision
				for range 3 {
					d = e.want(call(keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
				}
				e.decide(d.Approval.ID, true)
				for range 2 {
					e.want(call(keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.Allowed)
				}
			},
			want: []auditRow{{approvals.Allowed, "bills_due", 0}, {approvals.Allowed, "bills_due", 0},
				{approvals.ApprovalRequired, "bills_due", 2}},
		},
		{
			name: "denied: the refusals are entries of their own",
			run: func(e *env, call func(string, string, approvals.Tier, string) approvals.Decision) {
				d := e.want(call(keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)
				e.want(call(keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)
				e.decide(d.Approval.ID, false)
				e.want(call(keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalDenied)
				e.want(call(keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalDenied)
			},
			want: []auditRow{{approvals.ApprovalDenied, "ask", 0}, {approvals.ApprovalDenied, "ask", 0},
				{approvals.ApprovalRequired, "ask", 1}},
		},
		{
			name: "a lapsed request asked again is a new entry",
			run: func(e *env, call func(string, string, approvals.Tier, string) approvals.Decision) {
				d := e.want(call(keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)
				e.want(call(keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)
				e.clock.add(10*time.Minute + time.Second)
				d2 := e.want(call(keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)
				if d2.Approval.ID == d.Approval.ID {
					e.t.Fatal("lapsed request reused")
				}
				e.want(call(keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)
				e.want(call(keyA, "ask", approvals.FreeFormRead, `{}`), approvals.ApprovalRequired)
			},
			want: []auditRow{{approvals.ApprovalRequired, "ask", 2}, {approvals.ApprovalRequired, "ask", 1}},
		},
		{
			name: "other arguments, another key: other requests, other entries",
			run: func(e *env, call func(string, string, approvals.Tier, string) approvals.Decision) {
				for range 2 {
					e.want(call(keyA, "send_draft", approvals.Send, `{"draft_id":"d_1"}`), approvals.ApprovalRequired)
					e.want(call(keyA, "send_draft", approvals.Send, `{"draft_id":"d_2"}`), approvals.ApprovalRequired)
					e.want(call(keyB, "send_draft", approvals.Send, `{"draft_id":"d_1"}`), approvals.ApprovalRequired)
				}
			},
			want: []auditRow{{approvals.ApprovalRequired, "send_draft", 1}, {approvals.ApprovalRequired, "send_draft", 1},
				{approvals.ApprovalRequired, "send_draft", 1}},
		},
		{
			name: "calls under a grant are one entry each",
			run: func(e *env, call func(string, string, approvals.Tier, string) approvals.Decision) {
				d := e.want(call(keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.ApprovalRequired)
				e.decide(d.Approval.ID, true)
				for range 3 {
					e.want(call(keyA, "bills_due", approvals.StructuredRead, `{}`), approvals.Allowed)
				}
			},
			want: []auditRow{{approvals.Allowed, "bills_due", 0}, {approvals.Allowed, "bills_due", 0},
				{approvals.Allowed, "bills_due", 0}, {approvals.ApprovalRequired, "bills_due", 0}},
		},
	}
	// Buffered: every repeat meets the first call in the writer's buffer.
	// Written: each call is written before the next (Audit flushes), so
	// the repeat finds its entry in the table. Restarted: the node stops
	// between calls.
	for _, mode := range []string{"buffered", "written", "restarted"} {
		for _, tt := range tests {
			t.Run(mode+"/"+tt.name, func(t *testing.T) {
				e := newEnv(t)
				start := e.clock.now()
				var last time.Time
				call := func(key, tool string, tier approvals.Tier, args string) approvals.Decision {
					e.t.Helper()
					last = e.clock.now()
					d := e.call(ag, key, tool, tier, args)
					switch mode {
					case "written":
						if _, err := e.m.Audit(context.Background(), 1); err != nil {
							t.Fatal(err)
						}
					case "restarted":
						e.restart()
					}
					return d
				}
				tt.run(e, call)
				log, err := e.m.Audit(context.Background(), 0)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]auditRow, len(log))
				for i, l := range log {
					got[i] = auditRow{l.Decision, l.Tool, l.Retries}
				}
				if !slices.Equal(got, tt.want) {
					t.Fatalf("Audit() = %+v, want %+v", got, tt.want)
				}
				oldest := log[len(log)-1]
				if !oldest.At.Equal(start) {
					t.Errorf("oldest entry At = %v, want the first call's %v", oldest.At, start)
				}
				if newest := log[0]; !newest.LastAt.Equal(last) {
					t.Errorf("newest entry LastAt = %v, want the last call's %v", newest.LastAt, last)
				}
				for _, l := range log {
					if l.Retries == 0 && !l.LastAt.Equal(l.At) {
						t.Errorf("single call: LastAt = %v, want At %v", l.LastAt, l.At)
					}
					if l.Calls() != l.Retries+1 {
						t.Errorf("Calls() = %d with Retries %d", l.Calls(), l.Retries)
					}
				}
			})
		}
	}
}

// TestAuditRetriesJSON: the count leaves the node as "retries", and only
// when there were any.
func TestAuditRetriesJSON(t *testing.T) {
	at := time.Unix(1_800_000_000, 0)
	tests := []struct {
		retries int
		want    string
	}{
		{0, `{"at":"` + at.Format(time.RFC3339) + `","agent":"a.example","key_fingerprint":"k","tool":"ask","tier":"free_form_read","decision":"approval_required","approval_id":"apr_1","last_at":"` + at.Format(time.RFC3339) + `"}`},
		{29, `{"at":"` + at.Format(time.RFC3339) + `","agent":"a.example","key_fingerprint":"k","tool":"ask","tier":"free_form_read","decision":"approval_required","approval_id":"apr_1","retries":29,"last_at":"` + at.Format(time.RFC3339) + `"}`},
	}
	for _, tt := range tests {
		e := approvals.AuditEntry{At: at, Domain: "a.example", KeyFP: "k", Tool: "ask", Tier: approvals.FreeFormRead,
			Decision: approvals.ApprovalRequired, ApprovalID: "apr_1", Retries: tt.retries, LastAt: at}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("json.Marshal(retries %d) = %s, want %s", tt.retries, b, tt.want)
		}
	}
}

// TestAuditMigrationMergesWaits: a log written before retries were counted
// (migrations up to 0006) comes out of 0007 with each waiting call's rows
// merged into its first, and every other row as it was.
func TestAuditMigrationMergesWaits(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "node.db")
	old := fstest.MapFS{}
	err := fs.WalkDir(approvals.Migrations, "sql", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Compare(filepath.Base(p), "0007") >= 0 {
			return err
		}
		b, err := fs.ReadFile(approvals.Migrations, p)
		old[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != 6 {
		t.Fatalf("old schema has %d migrations, want 6", len(old))
	}
	st, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := st.Attach(ctx, "approvals", old)
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		at                                 int64
		domain, key, tool, decision, aprID string
	}{
		{100, "a.example", keyA, "ask", "approval_required", "apr_1"},
		{102, "a.example", keyA, "ask", "approval_required", "apr_1"},
		{104, "b.example", keyA, "ask", "approval_required", "apr_2"},
		{106, "a.example", keyA, "ask", "approval_required", "apr_1"},
		{108, "a.example", keyA, "ask", "allowed", "apr_1"},
		{110, "a.example", keyA, "ask", "allowed", "apr_1"},
		{112, "a.example", keyA, "ask", "too_many_pending", ""},
		{114, "a.example", keyA, "ask", "too_many_pending", ""},
	}
	err = tables.WriteTx(ctx, func(tx *sql.Tx) error {
		for _, r := range rows {
			_, err := tx.ExecContext(ctx, `INSERT INTO audit (at, domain, key_fp, tool, tier, decision, approval_id)
				VALUES (?, ?, ?, ?, 'free_form_read', ?, ?)`, r.at, r.domain, r.key, r.tool, r.decision, r.aprID)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()

	st, err = store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tables, err = st.Attach(ctx, "approvals", approvals.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	m, err := approvals.New(ctx, tables, approvals.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	log, err := m.Audit(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		at, last int64
		decision string
		retries  int
	}
	want := []row{
		{114, 114, "too_many_pending", 0}, {112, 112, "too_many_pending", 0},
		{110, 110, "allowed", 0}, {108, 108, "allowed", 0},
		{104, 104, "approval_required", 0},
		{100, 106, "approval_required", 2},
	}
	got := make([]row, len(log))
	for i, l := range log {
		got[i] = row{l.At.Unix(), l.LastAt.Unix(), string(l.Decision), l.Retries}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Audit() after migration = %+v, want %+v", got, want)
	}
}
