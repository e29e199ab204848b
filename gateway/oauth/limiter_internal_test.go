package oauth

import (
	"fmt"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"mailnode/approvals"
)

// TestLimiterForgetsOnlyFullBuckets (outside attack 43, finding 7): with
// maxLimiters identities known, a new one drops only the buckets that
// are full again, never one with requests counted against it; with none
// full it gets no bucket (the node is busy), rather than reset another's.
func TestLimiterForgetsOnlyFullBuckets(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := &Server{cfg: Config{Now: func() time.Time { return now }, Tiers: []approvals.Tier{approvals.StructuredRead}},
		authorize: map[string]*rate.Limiter{}}
	s.cfg.setDefaults()
	victim := s.limiter("victim.example", false)
	for victim.AllowN(now, 1) {
	}
	for i := range maxLimiters - 1 {
		if s.limiter(fmt.Sprintf("h%d.example", i), false) == nil {
			t.Fatalf("identity %d of %d got no bucket", i, maxLimiters)
		}
	}
	tests := []struct {
		name    string
		spend   bool // the flood's buckets have a request counted
		wantNew bool
	}{
		{"flood's buckets spent", true, false},
		{"flood's buckets full", false, true},
	}
	for _, tt := range tests {
		if tt.spend {
			for i := range maxLimiters - 1 {
				s.limiter(fmt.Sprintf("h%d.example", i), false).AllowN(now, 1)
			}
		} else {
			now = now.Add(time.Minute) // every bucket refills; the victim's too
			for victim.AllowN(now, 1) {
			}
		}
		if got := s.limiter("new.example", false) != nil; got != tt.wantNew {
			t.Errorf("%s: new identity got a bucket: %v, want %v", tt.name, got, tt.wantNew)
		}
		if s.limiter("victim.example", false) != victim || victim.AllowN(now, 1) {
			t.Errorf("%s: the victim's spent bucket was forgotten", tt.name)
		}
	}
}
