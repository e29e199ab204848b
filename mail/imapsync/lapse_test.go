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
		{"10 seconds: 1 ahead", start.Add(10 * time.Second), start.Add(9 * time.Second)},
	} {
		if got := reconnectAt(start, tt.expiry); !got.Equal(tt.want) {
			t.Errorf("%s: reconnectAt(%v) = %v, want %v", tt.name, tt.expiry, got, tt.want)
		}
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
