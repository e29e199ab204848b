package facts

import (
	"runtime"
	"syscall"
)

// background runs the calling goroutine, until it returns, on an OS thread
// of its own at a lower scheduling priority (nice 10), as the sync's parse
// workers and writer run (mail/imapsync's background, of which this is a
// copy: extract links nothing of the sync). A pass after an extractor
// upgrade reads the whole mailbox on every core while the node serves
// agents and the desktop app draws; the kernel gives the pass every cycle
// they do not want. The thread is not unlocked: Go ends a thread whose
// goroutine exits locked, so the lower priority never reaches other
// goroutines.
func background() {
	runtime.LockOSThread()
	// Failure (a sandbox that forbids it) leaves the normal priority.
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 10)
}
