//go:build !linux

package facts

// background is a no-op where threads have no priority of their own to
// lower (priority_linux.go).
func background() {}
