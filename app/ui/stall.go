package ui

import (
	"encoding/json"
	"os"
	"slices"
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// stallTick is how often the meter hands the UI goroutine a no-op.
const stallTick = 10 * time.Millisecond

// stallMeter records how late the UI goroutine ran the no-ops handed to
// it: the longest delay is the longest time a person's click would have
// waited.
type stallMeter struct {
	mu      sync.Mutex
	started time.Time
	delay   []time.Duration
	at      []time.Duration // when each was sent, since started
}

func (u *UI) meterStalls() {
	defer u.calls.Done()
	t := time.NewTicker(stallTick)
	defer t.Stop()
	u.stalls.mu.Lock()
	u.stalls.started = time.Now()
	u.stalls.mu.Unlock()
	for {
		select {
		case <-u.ctx.Done():
			return
		case sent := <-t.C:
			fyne.Do(func() {
				d := time.Since(sent)
				u.stalls.mu.Lock()
				u.stalls.delay = append(u.stalls.delay, d)
				u.stalls.at = append(u.stalls.at, sent.Sub(u.stalls.started))
				u.stalls.mu.Unlock()
			})
		}
	}
}

// Stalls is what the meter writes: milliseconds.
type Stalls struct {
	Samples int     `json:"samples"`
	MaxMS   float64 `json:"max_ms"`
	P99MS   float64 `json:"p99_ms"`
	P50MS   float64 `json:"p50_ms"`
	// FirstSecondMaxMS and LaterMaxMS split the longest stall at one
	// second after start: the first frames (software GL compiles its
	// shaders then) and everything after.
	FirstSecondMaxMS float64 `json:"first_second_max_ms"`
	LaterMaxMS       float64 `json:"later_max_ms"`
}

func (m *stallMeter) write(path string) error {
	m.mu.Lock()
	d := slices.Clone(m.delay)
	var first, later time.Duration
	for i, at := range m.at {
		if at < time.Second {
			first = max(first, m.delay[i])
		} else {
			later = max(later, m.delay[i])
		}
	}
	m.mu.Unlock()
	slices.Sort(d)
	var s Stalls
	if len(d) > 0 {
		ms := func(x time.Duration) float64 { return float64(x.Nanoseconds()) / 1e6 }
		s = Stalls{Samples: len(d), MaxMS: ms(d[len(d)-1]), P99MS: ms(d[len(d)*99/100]), P50MS: ms(d[len(d)/2]),
			FirstSecondMaxMS: ms(first), LaterMaxMS: ms(later)}
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}
