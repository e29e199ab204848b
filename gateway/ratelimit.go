package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"mailnode/approvals/site"
	"mailnode/gateway/httpsig"
)

// RateLimit is how many requests a verified agent may make. Each request
// takes a token from three buckets: its agent domain's, its key's, and its
// site's (Config.Sites: the registrable domain, so that a.evil.example,
// b.evil.example and so on share one; under a hosting suffix such as the
// relay's agents zone, each hosted name alone). The zero value means the
// defaults.
type RateLimit struct {
	// PerAgent is the sustained rate per agent domain and per key, in
	// requests per second, with Burst at once. Default 10/s, burst 40: a
	// session's initialize, tools/list and a few calls in a row.
	PerAgent float64
	Burst    int
	// PerSite is the rate shared by every agent domain of one site, with
	// SiteBurst. Default 20/s, burst 80.
	PerSite   float64
	SiteBurst int
}

func (c *RateLimit) setDefaults() {
	if c.PerAgent <= 0 {
		c.PerAgent = 10
	}
	if c.Burst <= 0 {
		c.Burst = 40
	}
	if c.PerSite <= 0 {
		c.PerSite = 20
	}
	if c.SiteBurst <= 0 {
		c.SiteBurst = 80
	}
}

// RateLimited refuses a request past an agent's rate. It is returned by
// the verifier's Admit hook, after the signature is verified and before
// the nonce is spent.
type RateLimited struct{ RetryAfter time.Duration }

func (e *RateLimited) Error() string { return fmt.Sprintf("rate limited for %v", e.RetryAfter) }

// retrySeconds is RetryAfter in whole seconds, at least 1.
func (e *RateLimited) retrySeconds() int64 {
	return max(1, int64((e.RetryAfter+time.Second-1)/time.Second))
}

// limiters holds the token buckets. A bucket that has refilled is the
// same as a new one, so when the map grows past maxBuckets the full ones
// are dropped: memory follows the agents that are busy now, not every
// agent ever seen.
type limiters struct {
	cfg   RateLimit
	sites *site.Sites
	now   func() time.Time

	mu      sync.Mutex // guards buckets
	buckets map[string]*rate.Limiter
}

const maxBuckets = 50_000

func newLimiters(cfg RateLimit, sites *site.Sites, now func() time.Time) *limiters {
	cfg.setDefaults()
	return &limiters{cfg: cfg, sites: sites, now: now, buckets: map[string]*rate.Limiter{}}
}

// admit takes a token from each of id's buckets, or none if any is
// empty; then it says how long until one would be there.
func (l *limiters) admit(id httpsig.Identity) error {
	key := sha256.Sum256(id.Key)
	type want struct {
		name  string
		r     rate.Limit
		burst int
	}
	wants := [3]want{
		{"a:" + id.Domain, rate.Limit(l.cfg.PerAgent), l.cfg.Burst},
		{"k:" + hex.EncodeToString(key[:16]), rate.Limit(l.cfg.PerAgent), l.cfg.Burst},
		{"s:" + l.sites.Of(id.Domain), rate.Limit(l.cfg.PerSite), l.cfg.SiteBurst},
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	var res [3]*rate.Reservation
	var wait time.Duration
	for i, w := range wants {
		b := l.buckets[w.name]
		if b == nil {
			if len(l.buckets) >= maxBuckets {
				l.pruneLocked(now)
			}
			b = rate.NewLimiter(w.r, w.burst)
			l.buckets[w.name] = b
		}
		res[i] = b.ReserveN(now, 1)
		wait = max(wait, res[i].DelayFrom(now))
	}
	if wait == 0 {
		return nil
	}
	for _, r := range res {
		r.CancelAt(now)
	}
	return &RateLimited{RetryAfter: wait}
}

// pruneLocked drops the buckets that have refilled. l.mu is held.
func (l *limiters) pruneLocked(now time.Time) {
	for k, b := range l.buckets {
		if b.TokensAt(now) >= float64(b.Burst()) {
			delete(l.buckets, k)
		}
	}
}
