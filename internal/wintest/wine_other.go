//go:build !windows

package wintest

// UnderWine reports whether the process runs under Wine: never, on
// this platform.
func UnderWine() bool { return false }
