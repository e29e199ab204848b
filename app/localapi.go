package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"path/filepath"

	"mailnode/app/config"
	"mailnode/app/localapi"
	"mailnode/app/localapi/localserver"
	"mailnode/mail/signin"
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
	if localserver.LockOnly(ln) {
		n.log.Warn("This system has no AF_UNIX sockets (Windows 10 1803 and later have them): the node keeps its data directory to itself with a lock file, and mailnode commands cannot reach it while it runs")
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

// NodeStatus is the node's state for `mailnode status`: Status in a few
// lines, with no secret in it (Status holds none).
func (n *Node) NodeStatus(ctx context.Context) (localapi.NodeStatus, error) {
	if _, err := n.comp(); err != nil {
		return localapi.NodeStatus{}, err
	}
	as, _ := n.Accounts(ctx)
	st := n.Status()
	// Counted now: a store opened for one command has made no pass
	// that would have counted it.
	if stats, err := n.Stats(ctx); err == nil {
		st.Messages = stats.Messages
	}
	return localapi.NodeStatus{
		Running: n.cfg.Services != (Services{}), State: string(st.State), Messages: st.Messages, LastSync: st.LastSync,
		LastError: st.LastError, SyncPaused: st.SyncPaused, Accounts: as, Pending: st.Pending, Phones: st.Phones,
		Trips: st.Facts.Trips, Orders: st.Facts.Orders, Bills: st.Facts.Bills, FactsDone: st.Facts.Done, FactsTotal: st.Facts.Total,
		GatewayURL: st.Gateway.URL, RelayState: st.Gateway.Relay.State, RelayURL: st.Gateway.Relay.PublicURL,
	}, nil
}

// ErrSyncPaused: the person paused syncing; a pass now would undo it.
var ErrSyncPaused = errors.New("syncing is paused (the tray's Pause): resume it there first")

// SyncNow makes one pass over every account (Sync), or, on a node that
// keeps its accounts current itself, makes none and says so: its syncers
// are already in IDLE on every folder, and a second pass beside them
// would copy the same messages twice over.
func (n *Node) SyncNow(ctx context.Context) (localapi.SyncReport, error) {
	rep := localapi.SyncReport{DBPath: n.DBPath()}
	if _, err := n.comp(); err != nil {
		return rep, err
	}
	if n.cfg.Services.Sync {
		n.mu.Lock()
		paused := n.paused
		n.mu.Unlock()
		if paused {
			return rep, ErrSyncPaused
		}
		rep.Continuous = true
	} else {
		res, err := n.Sync(ctx)
		if err != nil {
			return rep, err
		}
		rep.Result = res
	}
	st, err := n.Stats(ctx)
	rep.Stats = st
	return rep, err
}

// SaveAccount adds the account the command line signed in (accounts
// add), or gives an account of the same provider the new sign-in, and
// starts its sync at once where the node keeps its accounts current. A
// client the person named is saved in the settings' signin and signs
// this account in from now on.
func (n *Node) SaveAccount(ctx context.Context, r localapi.SaveAccountRequest) (localapi.SavedAccount, error) {
	if n.cfg.Settings == nil {
		return localapi.SavedAccount{}, ErrNoSettings
	}
	var a config.Account
	if err := json.Unmarshal(r.Settings, &a); err != nil {
		return localapi.SavedAccount{}, fmt.Errorf("the account's settings: %w", err)
	}
	sc := n.cfg.SignIn
	if r.ClientID != "" {
		if a.OAuth.Provider == "" {
			return localapi.SavedAccount{}, errors.New("an OAuth client goes with an account that signs in with OAuth")
		}
		sc.Clients = maps.Clone(sc.Clients)
		if sc.Clients == nil {
			sc.Clients = signin.Clients{}
		}
		sc.Clients[a.OAuth.Provider] = signin.Client{ID: r.ClientID, Secret: r.ClientSecret}
		if _, err := n.cfg.Settings.Modify(func(f *config.File) error {
			if f.SignIn == nil {
				f.SignIn = map[string]config.OAuthClient{}
			}
			f.SignIn[a.OAuth.Provider] = config.OAuthClient{ID: r.ClientID, Secret: r.ClientSecret}
			return nil
		}); err != nil {
			return localapi.SavedAccount{}, err
		}
	}
	kept, again, syncing, err := n.keepAccount(ctx, a, sc)
	if err != nil {
		return localapi.SavedAccount{}, err
	}
	return localapi.SavedAccount{Name: kept.Name, Server: kept.Server, Again: again, Syncing: syncing}, nil
}
