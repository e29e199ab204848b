//go:build headless

package ui

// The headless build's tests run on Fyne's test driver, which has no GLFW
// and runs handed-over work at once: no waits.
func newEventWaiter() eventWaiter { return nil }
