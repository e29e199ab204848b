//go:build linux || darwin

package localserver

import (
	"errors"
	"net"
	"os"
)

// peerOf reads the caller's uid from the kernel (peerUID: the credentials
// it recorded when the caller connected, which the caller cannot forge)
// and permits it what permit says for the node's own uid.
func peerOf(c net.Conn) (Peer, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Peer{UID: -1}, errors.New("not a unix socket")
	}
	rc, err := uc.SyscallConn()
	if err != nil {
		return Peer{UID: -1}, err
	}
	var uid int
	var serr error
	if err := rc.Control(func(fd uintptr) { uid, serr = peerUID(int(fd)) }); err != nil {
		return Peer{UID: -1}, err
	}
	if serr != nil {
		return Peer{UID: -1}, serr
	}
	return Peer{UID: uid, Permission: permit(uid, os.Getuid())}, nil
}
