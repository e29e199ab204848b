//go:build !unix

package main

// privateFiles does nothing where there is no umask; the data directory's
// ACL is the user's profile's.
func privateFiles() {}
