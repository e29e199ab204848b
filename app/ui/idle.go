package ui

import (
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
)

// Fyne's loop (runGL in its GLFW driver) wakes 60 times a second to poll
// for input and draw, whether anything happened or not: 1.35% of a core
// under Xvfb for a bare Fyne program, most of it the Go scheduler handing
// each tick to the locked main thread. Once the window has been quiet for
// a while, the idler hands the loop a function that waits in GLFW's own
// wait for events instead: input wakes it at once (and is handled there by
// Fyne's callbacks, as its poll would), and so does any work this package
// hands to the UI goroutine (do and push wake it). Between two waits the
// loop runs a few frames as usual, so a change made while waiting is drawn.
//
// What still runs at the lower rate while quiet: Fyne's own animations
// (a focused entry's cursor) and work Fyne's goroutines hand over; both
// catch up within idleShown.
const (
	// idleAfter is how long after the last input or node result
	// the loop keeps Fyne's full rate (a click's animation, a double tap).
	idleAfter = 2 * time.Second
	// idleShown is the longest wait with a window on screen.
	idleShown = 250 * time.Millisecond
	// idleHidden is the longest wait with every window hidden in the
	// tray: nothing is drawn, and do wakes the loop to show a window.
	idleHidden = 10 * time.Second
	// idleGap is the full-rate run between two waits: a frame or two.
	idleGap = 20 * time.Millisecond
)

// eventWaiter is the GLFW wait the idler uses; nil where there is none
// (the headless build, whose tests run on Fyne's test driver).
type eventWaiter interface {
	// wait runs on the UI goroutine until an event arrives or d passes,
	// handling the events as Fyne's poll does, and reports whether it
	// ended before d.
	wait(d time.Duration) bool
	// wake ends a wait under way or the next one, from any goroutine.
	wake()
}

// idler is the UI's state for the waits.
type idler struct {
	w eventWaiter
	// last is when the UI was last active (unix nanoseconds).
	last atomic.Int64
	// up is set once Fyne's loop runs a wait: GLFW is initialised and
	// wake may call it.
	up atomic.Bool
	// pushed is set by wake: the next early end of a wait is no
	// activity.
	pushed atomic.Bool
	// restedFor is the activity (last) the memory was last handed back
	// after, at rested; both only on the UI goroutine.
	restedFor int64
	rested    time.Time
}

// restEvery bounds how often a quiet UI hands memory back: each time
// costs a full collection of the Go heap.
const restEvery = time.Minute

// restDue reports whether the UI, going quiet at now after the activity
// at last, hands back the memory its work left behind, and notes it.
// Fyne's frames and a window's building leave garbage that the node's
// GCPercent lets stand at several times the live heap.
func (i *idler) restDue(now time.Time, last int64) bool {
	if last == i.restedFor || now.Sub(i.rested) < restEvery {
		return false
	}
	i.restedFor, i.rested = last, now
	return true
}

// active notes activity and ends a wait under way; from any goroutine.
func (u *UI) active() {
	u.idle.last.Store(time.Now().UnixNano())
	u.post()
}

// wake ends a wait under way without counting as activity: a status the
// node announces is drawn in the frames after the wait, and the waits go
// on (a node syncing in the background announces many).
func (u *UI) wake() {
	u.idle.pushed.Store(true)
	u.post()
}

func (u *UI) post() {
	if u.idle.w != nil && u.idle.up.Load() && !u.quitting.Load() {
		u.idle.w.wake()
	}
}

// startIdler begins the waits once Fyne's loop runs the windows.
func (u *UI) startIdler() {
	if u.idle.w == nil {
		return
	}
	u.idle.last.Store(time.Now().UnixNano())
	u.idleLater(idleAfter)
}

func (u *UI) idleLater(d time.Duration) {
	time.AfterFunc(d, func() {
		if u.ctx.Err() == nil {
			fyne.Do(u.idleStep)
		}
	})
}

// idleStep runs on the UI goroutine: a wait if the UI has been quiet,
// then the next step.
func (u *UI) idleStep() {
	if u.ctx.Err() != nil {
		return // quitting: Fyne may already have ended GLFW
	}
	u.idle.up.Store(true)
	u.mu.Lock()
	shown := u.winShown || u.wiz != nil
	u.mu.Unlock()
	d, ok := idleWait(time.Now(), time.Unix(0, u.idle.last.Load()), shown, u.inflight.Load() > 0)
	if !ok {
		u.idleLater(d)
		return
	}
	if u.idle.restDue(time.Now(), u.idle.last.Load()) {
		go u.node.ReleaseMemory() // a full collection: off the UI goroutine
	}
	// A wait that ended early was ended by input or by do, which are
	// activity, or by wake, which is not.
	woken := u.idle.w.wait(d)
	if pushed := u.idle.pushed.Swap(false); woken && !pushed {
		u.idle.last.Store(time.Now().UnixNano())
	}
	u.idleLater(idleGap)
}

// idleWait decides the next step at now: a wait of the duration returned
// (true), or none, and the time until the next step (false). A node call
// under way keeps the full rate: its window shows a busy bar.
func idleWait(now, last time.Time, shown, calling bool) (time.Duration, bool) {
	if calling {
		return idleAfter, false
	}
	if quiet := now.Sub(last); quiet < idleAfter {
		return max(idleAfter-quiet, idleGap), false
	}
	if shown {
		return idleShown, true
	}
	return idleHidden, true
}
