package imapsync

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestReconnectAt(t *testing.T) {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name   string
		expiry time.Time
		want   time.Time
	}{
		{"no token", time.Time{}, time.Time{}},
		{"already lapsed", start.Add(-time.Second), time.Time{}},
		{"an hour: 5 minutes ahead", start.Add(time.Hour), start.Add(55 * time.Minute)},
		{"10 minutes: 1 ahead", start.Add(10 * time.Minute), start.Add(9 * time.Minute)},
		// A provider's expires_in under a minute is planned as a minute
		// (attack 45, F7): not a reconnect every second.
		{"1 second: as a minute, 6 s ahead", start.Add(time.Second), start.Add(54 * time.Second)},
		{"59 seconds: as a minute", start.Add(59 * time.Second), start.Add(54 * time.Second)},
	} {
		if got := reconnectAt(start, tt.expiry, time.Minute); !got.Equal(tt.want) {
			t.Errorf("%s: reconnectAt(%v) = %v, want %v", tt.name, tt.expiry, got, tt.want)
		}
	}
}

// TestLapseWait (attack 45, F7): a session that ended for its token's
// lapse less than a minute after it started waits with the back-off,
// growing; one that lasted reconnects at once and resets it.
func TestLapseWait(t *testing.T) {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	bo := backoff{min: time.Second, max: 5 * time.Minute}
	var last time.Duration
	for i := range 5 {
		w := lapseWait(start, start.Add(time.Second), time.Minute, &bo)
		if w < 500*time.Millisecond || i > 0 && w <= last/2 {
			t.Fatalf("short session %d: wait %v after %v, want a growing back-off", i, w, last)
		}
		last = w
	}
	if bo.n < 5 {
		t.Errorf("back-off step %d after 5 short sessions", bo.n)
	}
	if w := lapseWait(start, start.Add(time.Minute), time.Minute, &bo); w != 0 || bo.n != 0 {
		t.Errorf("a minute-long session: wait %v, back-off step %d; want 0 and reset", w, bo.n)
	}
}

type permanentErr bool

func (p permanentErr) Error() string   { return "refused" }
func (p permanentErr) Permanent() bool { return bool(p) }

func TestPermanent(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("connection reset"), false},
		{fmt.Errorf("sign-in token: %w", permanentErr(true)), true},
		{fmt.Errorf("sign-in token: %w", permanentErr(false)), false},
	} {
		if got := Permanent(tt.err); got != tt.want {
			t.Errorf("Permanent(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
