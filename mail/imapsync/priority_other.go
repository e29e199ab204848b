//go:build !linux

package imapsync

// background is a no-op where threads have no priority of their own to
// lower (priority_linux.go).
func background() {}
