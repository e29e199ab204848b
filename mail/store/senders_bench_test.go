package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// benchSenderStore is a store of n messages from 5,000 domains in an
// inbox, a tenth of them sent by the user to 2,000 addresses, with
// sender_domains and correspondents filled as migration 0005 fills them
// (the time that took is reported).
func benchSenderStore(b *testing.B, n int) *Store {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "node.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO accounts (id, name, server, username) VALUES (1, 'a', 'h:1', 'u');
			INSERT INTO folders (id, account_id, name, special_use) VALUES (1, 1, 'INBOX', ''), (2, 1, 'Sent', '\Sent')`); err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO messages (id, folder_id, uid, internal_date, from_addr, to_addrs) VALUES (?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for i := 1; i <= n; i++ {
			folder, from, to := 1, fmt.Sprintf("user%d@mail.domain%d.example", i%300, i%5000), ""
			if i%10 == 0 {
				folder, from = 2, "me@home.example"
				to = fmt.Sprintf(`[{"address":"friend%d@domain%d.example"}]`, i%2000, i%4000)
			}
			if _, err := ins.ExecContext(ctx, i, folder, i, 1600000000+int64(i)*60, from, to); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := s.inTx(ctx, func(tx *sql.Tx) error { return backfillSenders(ctx, tx, time.Now()) }); err != nil {
		b.Fatal(err)
	}
	b.Logf("backfill of %d messages: %v", n, time.Since(start))
	return s
}

// BenchmarkSenders: what ask adds per question to learn the standing of
// the 6 messages it reads, on a 100,000-message store.
func BenchmarkSenders(b *testing.B) {
	s := benchSenderStore(b, 100_000)
	ctx := context.Background()
	ids := make([]int64, 6)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		for j := range ids {
			ids[j] = int64((i*7919+j*104729)%100_000 + 1)
		}
		got, err := s.Senders(ctx, ids)
		if err != nil || len(got) != len(ids) {
			b.Fatalf("Senders = %d senders, %v", len(got), err)
		}
	}
}
