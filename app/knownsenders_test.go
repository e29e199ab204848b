package app

import (
	"context"
	"testing"
	"time"
)

// TestKnownSenders: a sender's domain the configuration says the user has
// had mail from for years is known since then, though the store holds
// only today's mail from it; a domain it does not name is known since its
// first stored mail, and a date later than that mail changes nothing.
func TestKnownSenders(t *testing.T) {
	y2016 := time.Date(2016, 3, 1, 0, 0, 0, 0, time.UTC)
	y2030 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	// The stored mail's arrival: its Date, or the time it was added.
	stored := func(first time.Time) bool { return first.Year() >= 2026 && !first.Equal(y2030) }
	for _, tc := range []struct {
		name  string
		known map[string]time.Time
		want  func(first time.Time) bool
	}{
		{"named", map[string]time.Time{"Example.org": y2016}, func(first time.Time) bool { return first.Equal(y2016) }},
		{"none", nil, stored},
		{"later than the mail", map[string]time.Time{"example.org": y2030}, stored},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			n, err := New(Config{DataDir: t.TempDir(), Facts: FactsConfig{KnownSenders: tc.known}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := n.Start(ctx); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { n.Stop() })
			raw := []byte("From: Shop <orders@mail.example.org>\r\nTo: a@b.example\r\nSubject: zqknown\r\n" +
				"Date: Thu, 26 Nov 2026 10:00:00 +0000\r\nMessage-ID: <k1@example.org>\r\n\r\nHello\r\n")
			if err := n.AddMail(ctx, "test", [][]byte{raw}); err != nil {
				t.Fatal(err)
			}
			c, err := n.comp()
			if err != nil {
				t.Fatal(err)
			}
			hits, err := c.store.Search(ctx, "zqknown", 1)
			if err != nil || len(hits) != 1 {
				t.Fatalf("search = %v, %v", hits, err)
			}
			ss, err := c.store.Senders(ctx, []int64{hits[0].ID})
			if err != nil {
				t.Fatal(err)
			}
			if s := ss[hits[0].ID]; s.Domain != "example.org" || !tc.want(s.FirstSeen) {
				t.Errorf("sender = %+v", s)
			}
		})
	}
}
