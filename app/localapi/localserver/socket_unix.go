//go:build !windows

package localserver

import "os"

// restrictSocket makes the socket the owner's alone (0600), inside the
// data directory's 0700: connecting to a unix socket needs write
// permission on it.
func restrictSocket(path string) error { return os.Chmod(path, 0o600) }
