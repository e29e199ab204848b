package relaystore

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/relay/relaystore/pgtest"
)

// The store's own figures, without the relay's HTTP in front
// (relayserver's BenchmarkResolve and BenchmarkEnqueue have it): what a
// change to the store alone costs, on each database.

// benchStores opens each database the contract runs against.
func benchStores(b *testing.B) map[string]func(b *testing.B) Store {
	return map[string]func(b *testing.B) Store{
		"sqlite": func(b *testing.B) Store {
			s, err := OpenSQLite(b.Context(), b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		},
		"postgres": func(b *testing.B) Store {
			s, err := OpenPostgres(b.Context(), pgtest.Need(b))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		},
	}
}

// BenchmarkStoreResolve resolves, from parallel callers, addresses half
// of them registered (1,000 nodes) and half unknown.
func BenchmarkStoreResolve(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			s := benchStores(b)[name](b)
			ctx := context.Background()
			const pool = 1000
			addrs := make([]string, 0, 2*pool)
			run := time.Now().UnixNano() // PostgreSQL's database outlives a run
			for i := range pool {
				a := fmt.Sprintf("user%d-%d@registered.example", i, run)
				key := bytes.Repeat([]byte{byte(i), byte(i >> 8)}, 16)
				if err := s.PutNode(ctx, Node{Address: a, Label: fmt.Sprintf("%016x", uint64(run)+uint64(i)), NodeKey: key, BoxKey: key, RegisteredAt: time.Now()}); err != nil {
					b.Fatal(err)
				}
				addrs = append(addrs, a, fmt.Sprintf("user%d@unknown.example", i))
			}
			decoy := Node{Label: "dddddddddddddddd", BoxKey: bytes.Repeat([]byte{9}, 32)}
			var next atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := s.Resolve(ctx, addrs[next.Add(1)%int64(len(addrs))], decoy); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkStoreEnqueue enqueues 4 KiB envelopes, each committed, from
// parallel callers, each for a name of its own.
func BenchmarkStoreEnqueue(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			s := benchStores(b)[name](b)
			ctx := context.Background()
			run := time.Now().UnixNano()
			sealed := make([]byte, 4096)
			now := time.Now()
			var next atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := next.Add(1)
					e := Envelope{ID: fmt.Sprintf("r%d-%d", run, i), Label: fmt.Sprintf("n%d-%d", run, i), Net: []byte("net"),
						Sealed: sealed, Created: now, Expires: now.Add(time.Hour)}
					if _, err := s.Enqueue(ctx, e, 32, 16); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
