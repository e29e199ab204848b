package ui

import (
	"encoding/json"
	"os"
	"runtime/trace"
	"slices"
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// stallTick is how often the meter hands the UI goroutine a no-op.
const stallTick = 10 * time.Millisecond

// stallMeter records how late the UI goroutine ran the no-ops handed to
// it: the longest delay is the longest time a person's click would have
// waited. It starts with the windows; the no-ops handed over before Fyne's
// loop first ran measure how long the window took to appear (nobody can
// click on it then), and are kept apart from the stalls.
type stallMeter struct {
	mu      sync.Mutex
	started time.Time // the meter's start: the windows are being built
	looping time.Time // Fyne's loop ran its first no-op
	samples []stallSample
	worst   time.Duration // the longest delay so far
}

// traceFrom is the shortest stall whose execution trace the meter keeps
// (Options.StallTrace).
const traceFrom = 30 * time.Millisecond

type stallSample struct {
	sent  time.Time
	delay time.Duration
}

func (u *UI) meterStalls() {
	defer u.calls.Done()
	t := time.NewTicker(stallTick)
	defer t.Stop()
	u.stalls.mu.Lock()
	u.stalls.started = time.Now()
	u.stalls.mu.Unlock()
	// A flight recorder keeps the last seconds of the runtime's execution
	// trace; the longest stall's is written out, to see what the UI
	// goroutine waited for (go tool trace).
	worse := make(chan struct{}, 1)
	if u.opts.StallTrace != "" {
		fr := trace.NewFlightRecorder(trace.FlightRecorderConfig{MinAge: 2 * time.Second, MaxBytes: 64 << 20})
		if err := fr.Start(); err != nil {
			u.log.Warn("No execution trace of the UI stalls", "err", err)
		} else {
			defer fr.Stop()
			go func() {
				for range worse {
					time.Sleep(100 * time.Millisecond) // the stall's aftermath too
					if err := writeTrace(fr, u.opts.StallTrace); err != nil {
						u.log.Warn("Writing the UI stall's trace failed", "err", err)
					}
				}
			}()
			defer close(worse)
		}
	}
	for {
		select {
		case <-u.ctx.Done():
			return
		case sent := <-t.C:
			fyne.Do(func() {
				now := time.Now()
				u.stalls.mu.Lock()
				if u.stalls.looping.IsZero() {
					u.stalls.looping = now
				}
				d := now.Sub(sent)
				u.stalls.samples = append(u.stalls.samples, stallSample{sent, d})
				if d > u.stalls.worst && !sent.Before(u.stalls.looping) {
					u.stalls.worst = d
					if d >= traceFrom {
						select {
						case worse <- struct{}{}:
						default:
						}
					}
				}
				u.stalls.mu.Unlock()
			})
			// As a click would: input ends the idler's wait at once.
			u.active()
		}
	}
}

// Stalls is what the meter writes: milliseconds, times in Unix
// milliseconds.
type Stalls struct {
	// AppearMS is the meter's start (the windows being built) to Fyne's
	// loop running: the window's creation, its OpenGL context and shaders.
	AppearMS float64 `json:"appear_ms"`
	// Samples, MaxMS, P99MS and P50MS are the stalls after that.
	Samples int     `json:"samples"`
	MaxMS   float64 `json:"max_ms"`
	P99MS   float64 `json:"p99_ms"`
	P50MS   float64 `json:"p50_ms"`
	// Each stall after the loop started: [sent, delay ms], for a
	// benchmark that picks a span (a sync's).
	Each [][2]float64 `json:"each"`
}

func (m *stallMeter) write(path string) error {
	m.mu.Lock()
	var d []time.Duration
	var s Stalls
	ms := func(x time.Duration) float64 { return float64(x.Nanoseconds()) / 1e6 }
	if !m.looping.IsZero() {
		s.AppearMS = ms(m.looping.Sub(m.started))
	}
	for _, x := range m.samples {
		if x.sent.Before(m.looping) {
			continue
		}
		d = append(d, x.delay)
		s.Each = append(s.Each, [2]float64{float64(x.sent.UnixMicro()) / 1e3, ms(x.delay)})
	}
	m.mu.Unlock()
	slices.Sort(d)
	if len(d) > 0 {
		s.Samples, s.MaxMS, s.P99MS, s.P50MS = len(d), ms(d[len(d)-1]), ms(d[len(d)*99/100]), ms(d[len(d)/2])
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

func writeTrace(fr *trace.FlightRecorder, path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := fr.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
