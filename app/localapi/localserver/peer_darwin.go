package localserver

import (
	"errors"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// peerOf reads the caller's uid with LOCAL_PEERCRED (what getpeereid
// reads): the credentials the kernel recorded when the caller connected.
func peerOf(c net.Conn) (Peer, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Peer{UID: -1}, errors.New("not a unix socket")
	}
	rc, err := uc.SyscallConn()
	if err != nil {
		return Peer{UID: -1}, err
	}
	var cred *unix.Xucred
	var serr error
	if err := rc.Control(func(fd uintptr) {
		cred, serr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return Peer{UID: -1}, err
	}
	if serr != nil {
		return Peer{UID: -1}, serr
	}
	uid := int(cred.Uid)
	return Peer{UID: uid, Permission: permit(uid, os.Getuid())}, nil
}
