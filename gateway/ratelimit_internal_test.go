package gateway

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"testing"
	"time"

	"mailnode/gateway/httpsig"
)

// TestSiteBuckets: agent domains under one registrable domain share a
// bucket, so a.evil.example, b.evil.example, ... cannot each start fresh;
// a key shared by two domains shares its bucket too.
func TestSiteBuckets(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	l := newLimiters(RateLimit{PerAgent: 0.001, Burst: 3, PerSite: 0.001, SiteBurst: 5}, nil, func() time.Time { return now })
	key := func() ed25519.PublicKey { pub, _, _ := ed25519.GenerateKey(rand.Reader); return pub }
	id := func(domain string, k ed25519.PublicKey) httpsig.Identity {
		return httpsig.Identity{Domain: domain, Key: k}
	}
	ka, kb, kc, kd := key(), key(), key(), key()
	var limited *RateLimited
	for _, tc := range []struct {
		id      httpsig.Identity
		allowed bool
	}{
		{id("a.evil.example", ka), true},
		{id("a.evil.example", ka), true},
		{id("a.evil.example", ka), true},
		{id("a.evil.example", ka), false}, // domain and key buckets empty
		{id("b.evil.example", kb), true},  // site: 4 of 5
		{id("c.evil.example", kc), true},  // site: 5 of 5
		{id("d.evil.example", kd), false}, // site empty
		{id("x.shop.co.uk", kd), true},    // another registrable domain
		{id("y.shop.co.uk", kd), true},
		{id("z.shop.co.uk", kd), true},  // a refused request takes no token: d gave kd's back
		{id("w.shop.co.uk", kd), false}, // kd's key bucket is empty
		{id("agent.good.example", key()), true},
	} {
		err := l.admit(tc.id)
		if tc.allowed != (err == nil) || (err != nil && !errors.As(err, &limited)) {
			t.Errorf("admit(%s) = %v, want allowed %v", tc.id.Domain, err, tc.allowed)
		}
	}
	if limited == nil || limited.RetryAfter <= 0 {
		t.Errorf("RetryAfter = %+v", limited)
	}
}
