// Package loopback finds a free TCP port on 127.0.0.1 for a program that
// must be told its port before it listens (Dovecot, Postfix, a Node.js
// server in a test harness). Another process may take the port between
// this and the program's listen: callers that can listen themselves on
// port 0 should.
package loopback

import (
	"fmt"
	"net"
)

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
