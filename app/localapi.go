package app

import (
	"context"
	"errors"
	"path/filepath"

	"mailnode/app/localapi"
	"mailnode/app/localapi/localserver"
)

// The local API lets the command line drive the running node: the same
// Node methods the tray calls (localapi.Backend), over HTTP on a unix
// socket in the data directory (packages localapi, localserver and
// localclient).

var _ localapi.Backend = (*Node)(nil)

// SocketPath is where the running node listens for the local API.
func (n *Node) SocketPath() string { return filepath.Join(n.cfg.DataDir, localapi.SocketName) }

// serveLocalAPI answers on the socket until ctx is done; ready hears
// whether it could listen.
func (n *Node) serveLocalAPI(ctx context.Context, ready func(error)) error {
	ln, err := localserver.Listen(n.cfg.DataDir)
	if errors.Is(err, localserver.ErrAnotherNode) {
		// Two nodes on one store would sync and serve it twice.
		return stopNode{err}
	}
	if err != nil {
		return err
	}
	ready(nil)
	return localserver.Serve(ctx, ln, localserver.Handler(n, n.log))
}
