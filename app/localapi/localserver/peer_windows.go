package localserver

import (
	"net"

	"mailnode/app/localapi"
)

// peerOf permits every caller on Windows: AF_UNIX there has no peer
// credentials to read, and who may connect at all is the socket file's
// DACL, inherited from the data directory that internal/privdir made
// this user's alone (socket_windows.go). Reaching the socket is the
// check.
func peerOf(net.Conn) (Peer, error) {
	return Peer{UID: -1, Permission: localapi.Permission{Read: true, Write: true}}, nil
}
