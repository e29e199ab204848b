package ui

import (
	"testing"
	"time"
)

func TestIdleWait(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		quiet   time.Duration
		shown   bool
		calling bool
		d       time.Duration
		wait    bool
	}{
		{"just active: full rate until idleAfter", 500 * time.Millisecond, true, false, 1500 * time.Millisecond, false},
		{"almost quiet: at least a gap", idleAfter - time.Millisecond, true, false, idleGap, false},
		{"quiet, window shown", idleAfter, true, false, idleShown, true},
		{"quiet, every window hidden", time.Minute, false, false, idleHidden, true},
		{"a node call under way keeps the full rate", time.Minute, true, true, idleAfter, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, wait := idleWait(now, now.Add(-tc.quiet), tc.shown, tc.calling)
			if d != tc.d || wait != tc.wait {
				t.Errorf("idleWait = %v, %v; want %v, %v", d, wait, tc.d, tc.wait)
			}
		})
	}
}
