//go:build !unix

package main

// privateFiles does nothing where there is no umask: on Windows the data
// directory gets a DACL for this user alone (internal/privdir), which
// what is made in it inherits.
func privateFiles() {}
