package httpsig_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net/http"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"mailnode/gateway/httpsig"
	"mailnode/gateway/nonces"
	"mailnode/mail/store"
)

// BenchmarkVerify measures verification of one signed tools/call request
// (parsing, Content-Digest, Ed25519, replay check); issue 3 asks for under
// 100 µs. The replay check runs against the node's persistent nonce store
// on SQLite, which decides in memory and writes in the background
// ("+durable": each request also waits for its nonce to be committed, as
// a tools/call does before its tool runs), and against the in-memory
// store for comparison. "seq" verifies one request
// at a time; "par16" verifies from 16 goroutines, as the gateway does
// under load, where one commit serves many requests (ns/op is then wall
// time per request).
func BenchmarkVerify(b *testing.B) {
	for _, par := range []int{0, 16} {
		mode := "seq"
		if par > 0 {
			mode = fmt.Sprint("par", par)
		}
		b.Run("nonces=sqlite/"+mode, func(b *testing.B) { benchmarkVerify(b, openNonces(b), par, false) })
		// The same, each request also waiting until its nonce is on disk,
		// as a tools/call does before its tool runs.
		b.Run("nonces=sqlite+durable/"+mode, func(b *testing.B) { benchmarkVerify(b, openNonces(b), par, true) })
		b.Run("nonces=memory/"+mode, func(b *testing.B) { benchmarkVerify(b, &httpsig.MemoryNonces{}, par, false) })
	}
}

// openNonces opens the node's persistent nonce store in a fresh file.
func openNonces(b *testing.B) *nonces.Store {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "node.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	db, err := st.Attach(ctx, "nonces", nonces.Migrations)
	if err != nil {
		b.Fatal(err)
	}
	ns, err := nonces.New(ctx, db, nil, func() time.Time { return now })
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		ns.Close()
		st.Close()
	})
	return ns
}

func benchmarkVerify(b *testing.B, ns httpsig.NonceStore, par int, durable bool) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	body := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"order_status","arguments":{"merchant":"ikea"}}}`)
	reqs := make([]*http.Request, b.N)
	for i := range reqs {
		reqs[i] = sign(b, priv, bytes.Clone(body), signOpts{nonce: fmt.Sprint("n", i)})
	}
	v := &httpsig.Verifier{Host: nodeHost, Keys: keys{"agent.example#k1": pub}, Nonces: ns,
		Now: func() time.Time { return now }}
	b.ResetTimer()
	verify := func(i int64) error {
		id, err := v.Verify(context.Background(), reqs[i], body)
		if err == nil && durable {
			err = id.Durable(context.Background())
		}
		return err
	}
	if par == 0 {
		for i := range b.N {
			if err := verify(int64(i)); err != nil {
				b.Fatal(err)
			}
		}
		return
	}
	var next atomic.Int64
	b.SetParallelism((par + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := verify(next.Add(1) - 1); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
