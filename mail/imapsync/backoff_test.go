package imapsync

import (
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	b := backoff{min: time.Second, max: time.Minute}
	tests := []struct {
		step     int
		lo, high time.Duration // full jitter: between half and all of the step's delay
	}{
		{0, 500 * time.Millisecond, time.Second},
		{1, time.Second, 2 * time.Second},
		{2, 2 * time.Second, 4 * time.Second},
		{5, 16 * time.Second, 32 * time.Second},
		{6, 30 * time.Second, time.Minute}, // capped
		{30, 30 * time.Second, time.Minute},
	}
	for _, tt := range tests {
		for range 50 {
			b.n = tt.step
			if d := b.next(); d < tt.lo || d > tt.high {
				t.Fatalf("backoff step %d = %v, want within [%v, %v]", tt.step, d, tt.lo, tt.high)
			}
		}
	}
	b.reset()
	if d := b.next(); d > time.Second {
		t.Errorf("after reset, next() = %v, want at most %v", d, time.Second)
	}
}
