package app

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"mailnode/extract/eval"
	"mailnode/gateway/tools"
	"mailnode/mail/store"
)

// BenchmarkTools20k times every read tool on a store of about 20,000
// generated messages (orders, bills, their updates, distractors) with its
// facts read, and reports the median and 99th percentile of each. Run:
//
//	go test -run '^$' -bench Tools20k -benchtime 1x ./app/
func BenchmarkTools20k(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	n, err := New(Config{DataDir: dir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := n.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer n.Stop()
	c, err := n.comp()
	if err != nil {
		b.Fatal(err)
	}
	st := c.store
	syn := eval.Generate(2, 4600, 3400, 3000)
	acct, _ := st.EnsureAccount(ctx, store.Account{Name: "bench", Server: "bench:0", Username: "bench"})
	inbox, _ := st.EnsureFolder(ctx, acct.ID, "INBOX", "")
	for start := 0; start < len(syn.Mails); start += 500 {
		var batch []store.NewMessage
		for i := start; i < min(start+500, len(syn.Mails)); i++ {
			batch = append(batch, store.NewMessage{UID: uint32(i + 1), Raw: syn.Mails[i].Raw})
		}
		if err := st.AddMessages(ctx, inbox.ID, batch, uint32(start+len(batch))); err != nil {
			b.Fatal(err)
		}
	}
	t0 := time.Now()
	if _, err := n.ReadFacts(ctx); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d messages stored; first facts pass %v", len(syn.Mails), time.Since(t0).Round(time.Millisecond))

	// One more mail: how long until the facts include it.
	extra := eval.Generate(3, 1, 0, 0).Mails[0]
	if err := st.AddMessages(ctx, inbox.ID, []store.NewMessage{{UID: uint32(len(syn.Mails) + 1), Raw: extra.Raw}}, uint32(len(syn.Mails)+1)); err != nil {
		b.Fatal(err)
	}
	t0 = time.Now()
	if _, err := n.ReadFacts(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(time.Since(t0).Microseconds())/1000, "ms/pass-after-1-new-mail")

	now := func() time.Time { return time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC) }
	byName := map[string]tools.Tool{}
	for _, tl := range tools.Catalog(mailSource{c: c, now: now}, nil, now) {
		byName[tl.Name] = tl
	}
	merchants := []string{"Zalando", "otto.de", "Best Buy", "fnac", "Galaxus", "nobody"}
	questions := []string{"How much is the Vattenfall bill?", "When is the Thames Water bill due?", "What is the tracking number of my Zalando order?",
		"Which carrier ships my Best Buy order?", "What is my passport number?", "When was my Decathlon order delivered?"}
	calls := map[string]func(i int) json.RawMessage{
		"get_upcoming_travel": func(int) json.RawMessage { return json.RawMessage(`{}`) },
		"order_status": func(i int) json.RawMessage {
			return json.RawMessage(fmt.Sprintf(`{"merchant":%q}`, merchants[i%len(merchants)]))
		},
		"bills_due": func(int) json.RawMessage { return json.RawMessage(`{"before":"2026-12-31T00:00:00Z"}`) },
		"ask": func(i int) json.RawMessage {
			return json.RawMessage(fmt.Sprintf(`{"question":%q}`, questions[i%len(questions)]))
		},
		"get_excerpt": func(i int) json.RawMessage {
			return json.RawMessage(fmt.Sprintf(`{"query":%q}`, questions[i%len(questions)]))
		},
	}
	for _, name := range []string{"get_upcoming_travel", "order_status", "bills_due", "ask", "get_excerpt"} {
		var d []time.Duration
		for i := range 300 {
			t := time.Now()
			if _, err := byName[name].Run(ctx, calls[name](i)); err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			d = append(d, time.Since(t))
		}
		if name == "ask" {
			per := map[int][]time.Duration{}
			for i, x := range d {
				per[i%len(questions)] = append(per[i%len(questions)], x)
			}
			for k, v := range per {
				slices.Sort(v)
				b.Logf("%q: p50 %v max %v", questions[k], v[len(v)/2], v[len(v)-1])
			}
		}
		slices.Sort(d)
		b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "ms/"+name+"-p50")
		b.ReportMetric(float64(d[len(d)*99/100].Microseconds())/1000, "ms/"+name+"-p99")
	}
}
