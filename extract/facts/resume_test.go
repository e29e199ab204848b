package facts_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"mailnode/extract"
	"mailnode/extract/facts"
	"mailnode/mail/store"
)

// countingSource counts how often each message's bytes are read.
type countingSource struct {
	*store.Store
	mu    sync.Mutex
	reads map[int64]int
}

func (c *countingSource) Raw(ctx context.Context, id int64) ([]byte, error) {
	c.mu.Lock()
	c.reads[id]++
	c.mu.Unlock()
	return c.Store.Raw(ctx, id)
}

// TestReextractionResumes: after an extractor upgrade (every message
// marked read by an older version), a pass reads the mailbox again in
// batches, reporting its progress; a pass stopped midway has stored the
// batches it finished, with each message's new facts in place of its old
// ones, and the next pass reads exactly the rest: no message twice, none
// skipped.
func TestReextractionResumes(t *testing.T) {
	ctx := context.Background()
	src := &countingSource{reads: map[int64]int{}}
	st, fs, _ := openDemoSource(t, func(st *store.Store) facts.Source { src.Store = st; return src })
	if _, err := fs.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	tables, err := st.Attach(ctx, "facts", facts.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	db := tables.DB()
	var total int
	if err := db.QueryRow(`SELECT count(*) FROM facts_extracted`).Scan(&total); err != nil || total < 40 {
		t.Fatalf("messages read by the first pass: %d, %v", total, err)
	}
	// The upgrade: every message read by the version before, its facts
	// and the merged state as that version left them (marked "OLD-").
	if _, err := db.Exec(`UPDATE facts_extracted SET version = ?`, extract.Version-1); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE facts SET record = json_set(record, '$.bill.number', 'OLD-' || json_extract(record, '$.bill.number')) WHERE kind = 'bill' AND json_extract(record, '$.bill.number') IS NOT NULL`,
		`UPDATE facts_merged SET data = json_set(data, '$.number', 'OLD-' || json_extract(data, '$.number')) WHERE kind = 'bill' AND json_extract(data, '$.number') IS NOT NULL`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	clear(src.reads)

	const batch, stopAt = 8, 16
	facts.SetBatch(fs, batch)
	var events []facts.Progress
	stopCtx, stop := context.WithCancel(ctx)
	fs.SetProgress(func(p facts.Progress) {
		events = append(events, p)
		if p.Done >= stopAt {
			stop() // the node stops after the second batch is stored
		}
	})
	if _, err := fs.Pass(stopCtx); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped pass = %v, want context.Canceled", err)
	}
	want := []facts.Progress{{Total: total}, {Done: batch, Total: total}, {Done: stopAt, Total: total}, {Done: stopAt, Total: total, Finished: true}}
	if !slices.Equal(events, want) {
		t.Errorf("progress of the stopped pass = %+v, want %+v", events, want)
	}
	if len(src.reads) != stopAt {
		t.Errorf("the stopped pass read %d messages, want %d", len(src.reads), stopAt)
	}
	// What the stopped pass stored has its new facts; the rest its old.
	var redone, old int
	db.QueryRow(`SELECT count(*) FROM facts_extracted WHERE version = ?`, extract.Version).Scan(&redone)
	db.QueryRow(`SELECT count(*) FROM facts WHERE record LIKE '%"OLD-%' AND message_id IN
		(SELECT message_id FROM facts_extracted WHERE version = ?)`, extract.Version).Scan(&old)
	if redone != stopAt || old != 0 {
		t.Errorf("after the stopped pass: %d messages at the new version (want %d), %d of them with old facts", redone, stopAt, old)
	}
	// The merged state is the old one until a merge: tools answer from
	// the previous facts, never from none.
	var merged, oldMerged int
	db.QueryRow(`SELECT count(*), count(*) FILTER (WHERE data LIKE '%"OLD-%') FROM facts_merged WHERE kind = 'bill' AND json_extract(data, '$.number') IS NOT NULL`).Scan(&merged, &oldMerged)
	if merged == 0 || oldMerged != merged {
		t.Errorf("merged bills mid-pass: %d, %d of them old; want the old ones, all", merged, oldMerged)
	}

	events = nil
	fs.SetProgress(func(p facts.Progress) { events = append(events, p) })
	stats, err := fs.Pass(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Read != total-stopAt || !stats.Merged {
		t.Errorf("resumed pass = %+v, want %d read and a merge", stats, total-stopAt)
	}
	if len(events) == 0 || events[0] != (facts.Progress{Total: total - stopAt}) || events[len(events)-1] != (facts.Progress{Done: total - stopAt, Total: total - stopAt, Finished: true}) {
		t.Errorf("progress of the resumed pass = %+v", events)
	}
	for id, n := range src.reads {
		if n != 1 {
			t.Errorf("message %d read %d times over the two passes", id, n)
		}
	}
	if len(src.reads) != total {
		t.Errorf("the two passes read %d messages, want all %d", len(src.reads), total)
	}
	db.QueryRow(`SELECT count(*) FROM facts_extracted WHERE version = ?`, extract.Version).Scan(&redone)
	db.QueryRow(`SELECT count(*) FROM facts WHERE record LIKE '%"OLD-%'`).Scan(&old)
	db.QueryRow(`SELECT count(*), count(*) FILTER (WHERE data LIKE '%"OLD-%') FROM facts_merged WHERE kind = 'bill' AND json_extract(data, '$.number') IS NOT NULL`).Scan(&merged, &oldMerged)
	if redone != total || old != 0 || merged == 0 || oldMerged != 0 {
		t.Errorf("after the resumed pass: %d of %d at the new version, %d old facts, %d merged bills of which %d old",
			redone, total, old, merged, oldMerged)
	}
	if again, err := fs.Pass(ctx); err != nil || again.Read != 0 {
		t.Errorf("a third pass = %+v, %v; want nothing to read", again, err)
	}
}

// TestPassMergesAsItGoes: a long pass merges between batches (here after
// each one), so that the messages it has redone, and the mail the sync
// stored meanwhile, reach the tools before it ends.
func TestPassMergesAsItGoes(t *testing.T) {
	ctx := context.Background()
	st, fs, _ := openDemo(t)
	if _, err := fs.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	tables, err := st.Attach(ctx, "facts", facts.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	db := tables.DB()
	if _, err := db.Exec(`UPDATE facts_extracted SET version = ?`, extract.Version-1); err != nil {
		t.Fatal(err)
	}
	facts.SetBatch(fs, 8)
	facts.SetMergeEvery(fs, 0)
	stopCtx, stop := context.WithCancel(ctx)
	var dirty []bool
	fs.SetProgress(func(p facts.Progress) {
		if p.Done > 0 && !p.Finished {
			var d bool
			db.QueryRow(`SELECT dirty FROM facts_state WHERE id = 1`).Scan(&d)
			dirty = append(dirty, d)
		}
		if p.Done >= 24 {
			stop()
		}
	})
	fs.Pass(stopCtx)
	// Progress is reported after a batch is stored and merged.
	if !slices.Equal(dirty, []bool{false, false, false}) {
		t.Errorf("facts dirty at each batch's report: %v; want three batches, each merged", dirty)
	}
}
