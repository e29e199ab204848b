package app

import (
	"context"
	"errors"
	"net"
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

// listenLocalAPI listens on the data directory's socket, which makes it
// the directory's single-instance lock: it fails with
// localserver.ErrAnotherNode while another node answers there.
func (n *Node) listenLocalAPI() (net.Listener, error) {
	if err := privateDir(n.cfg.DataDir, n.log); err != nil {
		return nil, err
	}
	return localserver.Listen(n.cfg.DataDir)
}

// serveLocalAPI answers on ln, or on a socket it listens on when ln is
// nil (a restart), until ctx is done; ready hears whether it could
// listen.
func (n *Node) serveLocalAPI(ctx context.Context, ln net.Listener, ready func(error)) error {
	if ln == nil {
		var err error
		ln, err = n.listenLocalAPI()
		if errors.Is(err, localserver.ErrAnotherNode) {
			// Two nodes on one store would sync and serve it twice.
			return stopNode{err}
		}
		if err != nil {
			return err
		}
	}
	ready(nil)
	return localserver.Serve(ctx, ln, localserver.Handler(n, n.log))
}

// Accounts are the accounts the node syncs, as its status shows them.
func (n *Node) Accounts(ctx context.Context) ([]localapi.Account, error) {
	var out []localapi.Account
	for _, a := range n.Status().Accounts {
		out = append(out, localapi.Account{Name: a.Name, Server: a.Server, Username: a.Username, Source: a.PasswordSource,
			OAuth: a.OAuth, Problem: a.Problem})
	}
	return out, nil
}
