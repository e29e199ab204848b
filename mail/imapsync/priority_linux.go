package imapsync

import (
	"runtime"
	"syscall"
)

// background runs the calling goroutine, until it returns, on an OS thread
// of its own at a lower scheduling priority (nice 10). The parse workers
// and the store's writer keep every core busy through an initial sync;
// at the same priority the desktop app's UI thread, which OpenGL ties to
// one OS thread, and the OpenGL renderer's threads waited for them,
// and so did the gateway's handlers. The kernel still gives the sync every
// cycle nobody else wants. The thread is not unlocked: Go ends a thread
// whose goroutine exits locked, so the lower priority never reaches
// other goroutines.
func background() {
	runtime.LockOSThread()
	// Failure (a sandbox that forbids it) leaves the normal priority.
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 10)
}
