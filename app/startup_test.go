package app_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/app"
	"mailnode/app/apptest"
	"mailnode/extract"
	"mailnode/extract/eval"
	"mailnode/extract/facts"
	"mailnode/mail/store"
)

// upgrade makes the store in dir look as an older version of the
// extractors left it: every message marked read by the version before,
// the Vattenfall bill's number as that version read it ("OLD-" before
// it), and extra messages stored and never read. It returns how many
// messages a pass then reads.
func upgrade(t *testing.T, dir string, extra int) int {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dir, "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if extra > 0 {
		acct, err := st.EnsureAccount(ctx, store.Account{Name: "old", Server: "old.example:993", Username: "old"})
		if err != nil {
			t.Fatal(err)
		}
		inbox, err := st.EnsureFolder(ctx, acct.ID, "INBOX", "")
		if err != nil {
			t.Fatal(err)
		}
		var msgs []store.NewMessage
		for i, m := range eval.Generate(7, extra/3, extra/3, extra-2*(extra/3)).Mails {
			msgs = append(msgs, store.NewMessage{UID: uint32(i + 1), Raw: m.Raw, Size: int64(len(m.Raw))})
		}
		if err := st.AddMessages(ctx, inbox.ID, msgs, uint32(len(msgs))); err != nil {
			t.Fatal(err)
		}
	}
	tables, err := st.Attach(ctx, "facts", facts.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	db := tables.DB()
	for _, q := range []string{
		`UPDATE facts_extracted SET version = ` + strconv.Itoa(extract.Version-1),
		`UPDATE facts SET record = json_set(record, '$.bill.number', 'OLD-' || json_extract(record, '$.bill.number'))
			WHERE kind = 'bill' AND json_extract(record, '$.bill.number') = 'INV-2026-11-7730219'`,
		`UPDATE facts_merged SET data = json_set(data, '$.number', 'OLD-' || json_extract(data, '$.number'))
			WHERE kind = 'bill' AND json_extract(data, '$.number') = 'INV-2026-11-7730219'`,
	} {
		if res, err := db.Exec(q); err != nil {
			t.Fatal(err)
		} else if n, _ := res.RowsAffected(); n == 0 {
			t.Fatalf("nothing to change: %s", q)
		}
	}
	return unread(t, db)
}

// unread counts the messages a facts pass reads: outside Junk and Trash,
// not read by this version of the extractors.
func unread(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	err := db.QueryRow(`SELECT count(*) FROM messages m JOIN folders f ON f.id = m.folder_id
		LEFT JOIN facts_extracted e ON e.message_id = m.id
		WHERE f.special_use NOT IN ('\Junk', '\Trash') AND (e.version IS NULL OR e.version != ?)`, extract.Version).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// unreadIn opens the store in dir to count what unread counts.
func unreadIn(t *testing.T, dir string) int {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dir, "node.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tables, err := st.Attach(ctx, "facts", facts.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	return unread(t, tables.DB())
}

// progressLog keeps a node's facts progress reports.
type progressLog struct {
	mu     sync.Mutex
	events []facts.Progress
	done   chan struct{} // closed at the first report of a finished pass
}

func (l *progressLog) add(p facts.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, p)
	if p.Finished {
		select {
		case <-l.done:
		default:
			close(l.done)
		}
	}
}

func (l *progressLog) wait(t *testing.T) []facts.Progress {
	t.Helper()
	select {
	case <-l.done:
	case <-time.After(60 * time.Second):
		t.Fatal("the facts pass did not finish within 60 s")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

// waitStatus reads sub until a status satisfies ok, and returns it.
func waitStatus(t *testing.T, sub <-chan app.Status, ok func(app.Status) bool) app.Status {
	t.Helper()
	deadline := time.After(20 * time.Second)
	var last app.Status
	for {
		select {
		case s := <-sub:
			if ok(s) {
				return s
			}
			last = s
		case <-deadline:
			t.Fatalf("no such status within 20 s; last %+v", last)
		}
	}
}

// TestStartServesDuringReextraction: after an extractor upgrade Start
// returns with the gateway serving while the facts pass has not read a
// message; an agent's tools/call is answered from the facts read before,
// the status stream shows the pass's progress, and once the pass ends
// the agent gets the new facts (issue 47 item 5).
func TestStartServesDuringReextraction(t *testing.T) {
	e := newE2E(t)
	args := map[string]string{"before": "2026-12-31T00:00:00Z"}
	e.grant("bills_due", args)
	if res, _ := e.call("bills_due", args); !strings.Contains(string(res), `"INV-2026-11-7730219`) {
		t.Fatalf("bills_due before the upgrade: %s", res)
	}
	if err := e.node.Stop(); err != nil {
		t.Fatal(err)
	}
	total := upgrade(t, e.cfg.DataDir, 0)

	n, err := app.New(e.cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	log := &progressLog{done: make(chan struct{})}
	hold := make(chan struct{})
	app.OnFactsProgress(n, func(p facts.Progress) {
		log.add(p)
		if p.Done == 0 && !p.Finished {
			<-hold // the pass has counted its work and read nothing yet
		}
	})
	sub, unsubscribe := n.Subscribe()
	defer unsubscribe()
	released := false
	defer func() {
		if !released {
			close(hold)
		}
	}()
	start := time.Now()
	started := make(chan error, 1)
	go func() { started <- n.Start(context.Background()) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		close(hold)
		released = true
		if err := <-started; err == nil {
			n.Stop()
		}
		t.Fatal("Start did not return while the facts pass waited: it waits for the pass")
	}
	t.Logf("Start took %v with %d messages to read again", time.Since(start), total)
	e.node, e.nodeURL = n, n.GatewayURL()
	e.agent = e.session(e2eAgent, e.key)

	// The pass has not stored a message: the old facts answer.
	res, ar := e.call("bills_due", args)
	if ar != nil || !strings.Contains(string(res), `"OLD-INV-2026-11-7730219`) {
		t.Fatalf("bills_due during the pass: %s %+v; want the facts of the version before", res, ar)
	}
	// The status stream (what the tray and the command line show) says
	// the pass is running: "Re-reading 0 of N messages".
	streamed := waitStatus(t, sub, func(s app.Status) bool { return s.Facts.Total > 0 })
	if streamed.Facts.Total != total || streamed.Facts.Done != 0 || streamed.Facts.Bills == 0 {
		t.Errorf("status during the pass: facts %+v; want 0 of %d re-read, and the old counts", streamed.Facts, total)
	}

	close(hold)
	released = true
	events := log.wait(t)
	if len(events) < 3 || events[0] != (facts.Progress{Total: total}) ||
		events[len(events)-1] != (facts.Progress{Done: total, Total: total, Finished: true}) {
		t.Errorf("progress reports = %+v; want 0 of %d, each batch, and the end", events, total)
	}
	// The status stream carried the pass's end.
	waitStatus(t, sub, func(s app.Status) bool { return s.Facts.Total == 0 && s.Facts.Bills > 0 })
	res, ar = e.call("bills_due", args)
	if ar != nil || !strings.Contains(string(res), `"INV-2026-11-7730219`) || strings.Contains(string(res), "OLD-") {
		t.Errorf("bills_due after the pass: %s %+v; want the new facts", res, ar)
	}
	if left := unreadIn(t, e.cfg.DataDir); left != 0 {
		t.Errorf("%d messages left unread after the pass", left)
	}
}

// TestReextractionResumesAfterRestart: a node stopped in the middle of
// the pass has stored the batches it finished; the next start reads
// exactly the rest: no message twice, none skipped.
func TestReextractionResumesAfterRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cfg := apptest.Demo(t, app.Config{DataDir: dir, Gateway: app.GatewayConfig{Listen: "127.0.0.1:0"},
		Services: app.Services{Gateway: true}})
	n, err := app.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	n.Stop()
	// More than two batches to read.
	total := upgrade(t, dir, 600)
	if total < 600 {
		t.Fatalf("%d messages to read, want over 600", total)
	}

	n, err = app.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	app.StopAfterFactsBatch(n)
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- n.Wait() }()
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatalf("the node stopped mid-pass with %v", err)
		}
	case <-time.After(60 * time.Second):
		n.Stop()
		t.Fatal("the node did not stop after the pass's first batch")
	}
	left := unreadIn(t, dir)
	if left <= 0 || left >= total {
		t.Fatalf("after a stop mid-pass %d of %d messages are left; want some read, some not", left, total)
	}

	n, err = app.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	log := &progressLog{done: make(chan struct{})}
	app.OnFactsProgress(n, log.add)
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	events := log.wait(t)
	if events[0] != (facts.Progress{Total: left}) || events[len(events)-1] != (facts.Progress{Done: left, Total: left, Finished: true}) {
		t.Errorf("the resumed pass reported %+v; want it to read the %d left, and only those", events, left)
	}
	n.Stop()
	if after := unreadIn(t, dir); after != 0 {
		t.Errorf("%d messages unread after the resumed pass", after)
	}
}
