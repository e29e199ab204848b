//go:build !headless

package ui

import (
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// glfwWaiter waits in GLFW, the library under Fyne's desktop driver.
type glfwWaiter struct{}

func newEventWaiter() eventWaiter { return glfwWaiter{} }

func (glfwWaiter) wait(d time.Duration) (woken bool) {
	// go-gl panics on GLFW's errors; the one possible here is GLFW ended
	// by a quit racing this wait, and nothing is left to wait for then.
	defer func() {
		if recover() != nil {
			woken = false
		}
	}()
	start := time.Now()
	glfw.WaitEventsTimeout(d.Seconds())
	return time.Since(start) < d-d/8
}

func (glfwWaiter) wake() {
	defer func() { _ = recover() }() // as in wait: GLFW ended by a quit
	glfw.PostEmptyEvent()
}
