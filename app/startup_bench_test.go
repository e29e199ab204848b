package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/extract/eval"
	"mailnode/extract/facts"
	"mailnode/gateway/tools"
	"mailnode/mail/store"
)

// BenchmarkStartAfterUpgrade times a node's start on a store of 50,000
// generated messages (orders, bills, their updates, distractors) whose
// facts an older version of the extractors read: from New to Start's
// return (the gateway listening) and to the first tools answer (bills_due,
// from the facts read before), beside the full re-extraction pass that
// then runs in the background, and the tools' latency during that pass
// (issue 47 item 5). MAILNODE_BENCH_MESSAGES changes the size. Run:
//
//	go test -run '^$' -bench StartAfterUpgrade -benchtime 1x -timeout 30m ./app/
func BenchmarkStartAfterUpgrade(b *testing.B) {
	ctx := context.Background()
	size := 50000
	if v, err := strconv.Atoi(os.Getenv("MAILNODE_BENCH_MESSAGES")); err == nil && v > 0 {
		size = v
	}
	dir := b.TempDir()

	// The store as the older extractors left it: every message read,
	// with its facts, at the version before this one.
	n, err := New(Config{DataDir: dir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		b.Fatal(err)
	}
	c, err := n.comp()
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	syn := eval.Generate(5, size*24/100, size*17/100, size*15/100)
	if len(syn.Mails) < size {
		b.Fatalf("generated %d mails, want %d", len(syn.Mails), size)
	}
	syn.Mails = syn.Mails[:size]
	acct, _ := c.store.EnsureAccount(ctx, store.Account{Name: "bench", Server: "bench:0", Username: "bench"})
	inbox, _ := c.store.EnsureFolder(ctx, acct.ID, "INBOX", "")
	for start := 0; start < size; start += 500 {
		var batch []store.NewMessage
		for i := start; i < min(start+500, size); i++ {
			batch = append(batch, store.NewMessage{UID: uint32(i + 1), Raw: syn.Mails[i].Raw})
		}
		if err := c.store.AddMessages(ctx, inbox.ID, batch, uint32(start+len(batch))); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := n.ReadFacts(ctx); err != nil {
		b.Fatal(err)
	}
	tables, err := c.store.Attach(ctx, "facts", facts.Migrations)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tables.DB().ExecContext(ctx, `UPDATE facts_extracted SET version = ?`, extract.Version-1); err != nil {
		b.Fatal(err)
	}
	fc, _ := c.facts.Counts(ctx)
	if err := n.Stop(); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d messages stored and read by the version before (%d bills, %d orders) in %v", size, fc.Bills, fc.Orders,
		time.Since(t0).Round(time.Second))

	// The upgraded node starts, serving agents.
	passEnd := make(chan time.Time, 1)
	var total int
	start := time.Now()
	n, err = New(Config{DataDir: dir, Gateway: GatewayConfig{Listen: "127.0.0.1:0"}, Services: Services{Gateway: true}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	n.factsProgress = func(p facts.Progress) {
		if p.Finished {
			total = p.Total
			passEnd <- time.Now()
		}
	}
	if err := n.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer n.Stop()
	started := time.Since(start)
	c, err = n.comp()
	if err != nil {
		b.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC) }
	var bills tools.Tool
	for _, tl := range tools.Catalog(mailSource{c: c, now: now}, nil, now) {
		if tl.Name == "bills_due" {
			bills = tl
		}
	}
	call := func() (time.Duration, int) {
		t := time.Now()
		out, err := bills.Run(ctx, json.RawMessage(`{"before":"2026-12-31T00:00:00Z"}`))
		if err != nil {
			b.Fatal(err)
		}
		d := time.Since(t)
		j, _ := json.Marshal(out)
		return d, strings.Count(string(j), `"id":"b_`)
	}
	_, listed := call()
	answered := time.Since(start)
	if listed == 0 {
		b.Fatalf("bills_due listed no bill while the pass ran")
	}

	// Agents are answered while the pass runs.
	var during []time.Duration
	var end time.Time
	for end.IsZero() {
		select {
		case end = <-passEnd:
		case <-time.After(100 * time.Millisecond):
			d, _ := call()
			during = append(during, d)
		}
	}
	pass := end.Sub(start)
	if total != size {
		b.Errorf("the pass read %d messages, want %d", total, size)
	}
	b.ReportMetric(float64(started.Microseconds())/1000, "ms/start")
	b.ReportMetric(float64(answered.Microseconds())/1000, "ms/start-to-first-answer")
	b.ReportMetric(pass.Seconds(), "s/start-to-pass-end")
	if len(during) > 0 {
		slices.Sort(during)
		b.ReportMetric(float64(during[len(during)/2].Microseconds())/1000, "ms/bills_due-p50-during-pass")
		b.ReportMetric(float64(during[len(during)-1].Microseconds())/1000, "ms/bills_due-max-during-pass")
	}
	b.Logf("%s", fmt.Sprintf("start %v, first answer (%d bills) %v, pass of %d messages %v, %d calls during it",
		started.Round(time.Millisecond), listed, answered.Round(time.Millisecond), total, pass.Round(100*time.Millisecond), len(during)))
}
