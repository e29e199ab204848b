package relayserver

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestBucket: a bucket passes its burst at once, then one request per
// interval, as golang.org/x/time/rate's token bucket did.
func TestBucket(t *testing.T) {
	tests := []struct {
		name       string
		rate       float64
		burst      int
		at         []time.Duration // request times from the start
		wantPassed int
	}{
		{"burst", 10, 3, []time.Duration{0, 0, 0, 0, 0}, 3},
		{"refill", 10, 3, []time.Duration{0, 0, 0, 0, 100 * time.Millisecond, 100 * time.Millisecond, 300 * time.Millisecond}, 5},
		{"full again after idle", 10, 2, []time.Duration{0, 0, 0, time.Hour, time.Hour, time.Hour}, 4},
		{"burst zero", 10, 0, []time.Duration{0, time.Second}, 0},
		{"one a second", 1, 1, []time.Duration{0, 500 * time.Millisecond, time.Second, 1500 * time.Millisecond, 2 * time.Second}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bucket
			r := newBucketRate(tt.rate, tt.burst)
			start := time.Unix(1_900_000_000, 0).UnixNano()
			passed := 0
			for _, d := range tt.at {
				if b.take(r, start+int64(d)) {
					passed++
				}
			}
			if passed != tt.wantPassed {
				t.Errorf("passed %d, want %d", passed, tt.wantPassed)
			}
		})
	}
}

// TestBucketConcurrent: requests racing for one bucket (run under -race)
// pass exactly its burst when no time passes.
func TestBucketConcurrent(t *testing.T) {
	var b bucket
	r := newBucketRate(1, 500)
	now := time.Now().UnixNano()
	var passed atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				if b.take(r, now) {
					passed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if passed.Load() != 500 {
		t.Fatalf("passed %d of 3,200 racing requests, want the burst of 500", passed.Load())
	}
}

// TestLimiterSweep: clients unseen for five minutes are forgotten, and
// the table's bound sends new clients to one shared bucket.
func TestLimiterSweep(t *testing.T) {
	now := time.Unix(1_900_000_000, 0)
	l := newLimiter(Limits{ClientRate: 1, ClientBurst: 1, GlobalRate: 1e6, GlobalBurst: 1e6}, func() time.Time { return now })
	if !l.allow("a") || l.allow("a") || !l.allow("b") {
		t.Fatal("a client's bucket of one did not pass one request and refuse the next")
	}
	now = now.Add(6 * time.Minute)
	l.allow("c")
	if _, ok := l.clients.Load("a"); ok || l.count.Load() != 1 {
		t.Fatalf("after the sweep: a kept %v, %d clients, want only c", ok, l.count.Load())
	}
	l.count.Store(maxClients)
	if !l.allow("d") || l.allow("e") {
		t.Fatal("past the bound, new clients did not share one bucket")
	}
	if _, ok := l.clients.Load("overflow"); !ok {
		t.Fatal("no overflow bucket past the bound")
	}
}
