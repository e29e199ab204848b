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

func TestRestDue(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	var i idler
	for _, step := range []struct {
		name string
		at   time.Duration // after t0
		last int64         // the activity the UI goes quiet after
		want bool
	}{
		{"first quiet", 0, 1, true},
		{"the same quiet again", restEvery + time.Second, 1, false},
		{"new activity within the minute", 30 * time.Second, 2, false},
		{"that activity, a minute on", restEvery, 2, true},
		{"more activity soon after", restEvery + time.Second, 3, false},
		{"later still", 2*restEvery + time.Second, 3, true},
	} {
		if got := i.restDue(t0.Add(step.at), step.last); got != step.want {
			t.Errorf("%s: restDue = %v, want %v", step.name, got, step.want)
		}
	}
}
