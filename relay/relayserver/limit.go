package relayserver

import (
	"sync"
	"sync/atomic"
	"time"
)

// limiter is a token bucket per client address plus one for everyone.
// Every request takes from both; whichever runs dry, the answer is the
// same 429. No address is exempt, loopback included: a relay behind a
// proxy sees one address and must be given limits that fit it.
//
// Every request of the API passes here, so it takes no lock: a bucket is
// one atomic word (bucket), and the clients' buckets are in a sync.Map,
// which finds a client already there without a lock. A mutex here (and
// golang.org/x/time/rate's in each bucket) was most of the contention a
// mutex profile of resolve found once its store lookup took none
// (issue 47).
type limiter struct {
	now    func() time.Time
	client bucketRate
	global bucketRate
	all    bucket

	clients sync.Map     // client key → *clientBucket
	count   atomic.Int64 // entries in clients
	swept   atomic.Int64 // Unix nanoseconds of the last sweep
}

type clientBucket struct {
	bucket
	seen atomic.Int64 // Unix nanoseconds of its last request
}

// maxClients bounds the table; past it, new clients share one bucket
// until the sweep frees room, so memory stays bounded under a flood of
// source addresses.
const maxClients = 200_000

func newLimiter(l Limits, now func() time.Time) *limiter {
	lim := &limiter{now: now, client: newBucketRate(l.ClientRate, l.ClientBurst), global: newBucketRate(l.GlobalRate, l.GlobalBurst)}
	lim.swept.Store(now().UnixNano())
	return lim
}

// allow takes a token for client from its bucket and the global one.
func (l *limiter) allow(client string) bool {
	now := l.now().UnixNano()
	if swept := l.swept.Load(); now-swept > int64(time.Minute) && l.swept.CompareAndSwap(swept, now) {
		l.sweep(now)
	}
	b := l.bucketOf(client)
	b.seen.Store(now)
	ok := b.take(l.client, now)
	return l.all.take(l.global, now) && ok
}

func (l *limiter) bucketOf(client string) *clientBucket {
	if b, ok := l.clients.Load(client); ok {
		return b.(*clientBucket)
	}
	if l.count.Load() >= maxClients {
		client = "overflow"
	}
	b, loaded := l.clients.LoadOrStore(client, new(clientBucket))
	if !loaded {
		l.count.Add(1)
	}
	return b.(*clientBucket)
}

// sweep forgets clients not seen for five minutes (a full bucket again:
// forgetting one changes no answer). One request a minute does it.
func (l *limiter) sweep(now int64) {
	l.clients.Range(func(k, v any) bool {
		if now-v.(*clientBucket).seen.Load() > int64(5*time.Minute) {
			if l.clients.CompareAndDelete(k, v) {
				l.count.Add(-1)
			}
		}
		return true
	})
}

// bucketRate is a token bucket's rate and size as the bucket reckons
// them: a token every interval nanoseconds, and a burst of tokens beyond
// the one a request takes worth tolerance nanoseconds.
type bucketRate struct {
	interval, tolerance int64
	none                bool // a burst of zero: nothing passes
}

func newBucketRate(perSecond float64, burst int) bucketRate {
	if burst <= 0 || perSecond <= 0 {
		return bucketRate{none: true}
	}
	interval := int64(float64(time.Second) / perSecond)
	return bucketRate{interval: interval, tolerance: interval * int64(burst-1)}
}

// bucket is a token bucket in one atomic word, as the generic cell rate
// algorithm keeps it: the time at which it will be full again (the
// theoretical arrival time). A request at now passes if that time is at
// most tolerance ahead of now, and moves it one interval on; a bucket
// never used is full.
type bucket struct{ full atomic.Int64 }

func (b *bucket) take(r bucketRate, now int64) bool {
	if r.none {
		return false
	}
	for {
		full := b.full.Load()
		t := max(full, now)
		if t-now > r.tolerance {
			return false
		}
		if b.full.CompareAndSwap(full, t+r.interval) {
			return true
		}
	}
}
