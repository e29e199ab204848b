package relayserver

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiter is a token bucket per client address plus one for everyone.
// Every request takes from both; whichever runs dry, the answer is the
// same 429. No address is exempt, loopback included: a relay behind a
// proxy sees one address and must be given limits that fit it.
type limiter struct {
	l      Limits
	now    func() time.Time
	global *rate.Limiter

	mu      sync.Mutex // guards the fields below
	clients map[string]*clientBucket
	swept   time.Time
}

type clientBucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// maxClients bounds the table; past it, new clients share one bucket
// until the sweep frees room, so memory stays bounded under a flood of
// source addresses.
const maxClients = 200_000

func newLimiter(l Limits, now func() time.Time) *limiter {
	return &limiter{l: l, now: now, global: rate.NewLimiter(rate.Limit(l.GlobalRate), l.GlobalBurst),
		clients: map[string]*clientBucket{}, swept: now()}
}

// allow takes a token for client from its bucket and the global one.
func (l *limiter) allow(client string) bool {
	now := l.now()
	l.mu.Lock()
	if now.Sub(l.swept) > time.Minute {
		for k, b := range l.clients {
			if now.Sub(b.seen) > 5*time.Minute {
				delete(l.clients, k)
			}
		}
		l.swept = now
	}
	b := l.clients[client]
	if b == nil {
		if len(l.clients) >= maxClients {
			client = "overflow"
			b = l.clients[client]
		}
		if b == nil {
			b = &clientBucket{lim: rate.NewLimiter(rate.Limit(l.l.ClientRate), l.l.ClientBurst)}
			l.clients[client] = b
		}
	}
	b.seen = now
	ok := b.lim.AllowN(now, 1)
	l.mu.Unlock()
	return l.global.AllowN(now, 1) && ok
}
