// Package localserver serves the local API (package localapi) for a
// Backend, in the node's process. Every request is checked against its
// caller's credentials, read from the kernel for the connection
// (peer_*.go): only the user who runs the node may read or write,
// whatever the socket's mode lets connect.
package localserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"mailnode/app/localapi"
	"mailnode/app/localapi/nodelock"
)

// ErrAnotherNode: a node already answers on the data directory's socket.
var ErrAnotherNode = errors.New("another node is running on this data directory")

// Handler answers the local API's routes from b.
func Handler(b localapi.Backend, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	handle := func(r localapi.Route, h http.HandlerFunc) {
		mux.Handle(r.Pattern(), guard(r, log, h))
	}
	handle(localapi.RoutePending, func(w http.ResponseWriter, r *http.Request) {
		v, err := b.Pending(r.Context())
		reply(w, log, v, err)
	})
	handle(localapi.RouteDecide, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.DecideRequest
		if decodeBody(w, r, &req) {
			v, err := b.Decide(r.Context(), req.ID, req.Approve)
			reply(w, log, v, err)
		}
	})
	handle(localapi.RouteGrants, func(w http.ResponseWriter, r *http.Request) {
		v, err := b.Grants(r.Context())
		reply(w, log, v, err)
	})
	handle(localapi.RouteRevoke, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.RevokeRequest
		if decodeBody(w, r, &req) {
			v, err := b.Revoke(r.Context(), req.Agent, req.Tier)
			reply(w, log, v, err)
		}
	})
	handle(localapi.RouteBlock, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.RevokeRequest
		if decodeBody(w, r, &req) {
			v, err := b.Block(r.Context(), req.Agent)
			reply(w, log, v, err)
		}
	})
	handle(localapi.RouteAudit, func(w http.ResponseWriter, r *http.Request) {
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		v, err := b.Audit(r.Context(), limit)
		reply(w, log, v, err)
	})
	handle(localapi.RoutePair, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.PairOptions
		if decodeBody(w, r, &req) {
			v, err := b.Pair(r.Context(), req)
			reply(w, log, v, err)
		}
	})
	handle(localapi.RoutePairStatus, func(w http.ResponseWriter, r *http.Request) {
		v, err := b.PairStatus(r.Context(), r.PathValue("id"))
		reply(w, log, v, err)
	})
	handle(localapi.RoutePhones, func(w http.ResponseWriter, r *http.Request) {
		v, err := b.Phones(r.Context())
		reply(w, log, v, err)
	})
	handle(localapi.RouteConfirmPhone, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.PhoneRequest
		if decodeBody(w, r, &req) {
			v, err := b.ConfirmPhone(r.Context(), req.ID)
			reply(w, log, v, err)
		}
	})
	handle(localapi.RouteRenamePhone, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.PhoneRequest
		if decodeBody(w, r, &req) {
			v, err := b.RenamePhone(r.Context(), req.ID, req.Name)
			reply(w, log, v, err)
		}
	})
	handle(localapi.RouteRemovePhone, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.PhoneRequest
		if decodeBody(w, r, &req) {
			reply(w, log, true, b.RemovePhone(r.Context(), req.ID))
		}
	})
	handle(localapi.RouteAccounts, func(w http.ResponseWriter, r *http.Request) {
		v, err := b.Accounts(r.Context())
		reply(w, log, v, err)
	})
	handle(localapi.RouteShow, func(w http.ResponseWriter, r *http.Request) {
		reply(w, log, true, b.Show(r.Context()))
	})
	handle(localapi.RouteLAN, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.LANRequest
		if decodeBody(w, r, &req) {
			v, err := b.SetLAN(r.Context(), req.On)
			reply(w, log, v, err)
		}
	})
	handle(localapi.RouteSaveAccount, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.SaveAccountRequest
		if decodeBody(w, r, &req) {
			v, err := b.SaveAccount(r.Context(), req)
			reply(w, log, v, err)
		}
	})
	handle(localapi.RouteRemoveAcct, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.NameRequest
		if decodeBody(w, r, &req) {
			reply(w, log, true, b.RemoveAccount(r.Context(), req.Name))
		}
	})
	handle(localapi.RouteStatus, func(w http.ResponseWriter, r *http.Request) {
		v, err := b.NodeStatus(r.Context())
		reply(w, log, v, err)
	})
	handle(localapi.RouteSearch, func(w http.ResponseWriter, r *http.Request) {
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		v, err := b.Search(r.Context(), r.URL.Query().Get("q"), limit)
		reply(w, log, v, err)
	})
	handle(localapi.RouteSync, func(w http.ResponseWriter, r *http.Request) {
		v, err := b.SyncNow(r.Context())
		reply(w, log, v, err)
	})
	handle(localapi.RouteDrafts, func(w http.ResponseWriter, r *http.Request) {
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		v, err := b.Drafts(r.Context(), limit)
		reply(w, log, v, err)
	})
	handle(localapi.RouteDraft, func(w http.ResponseWriter, r *http.Request) {
		v, err := b.Draft(r.Context(), r.PathValue("id"))
		reply(w, log, v, err)
	})
	handle(localapi.RouteEditDraft, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.EditDraftRequest
		if decodeBody(w, r, &req) {
			v, err := b.EditDraft(r.Context(), req.ID, req.Subject, req.Body)
			reply(w, log, v, err)
		}
	})
	handle(localapi.RouteBackup, func(w http.ResponseWriter, r *http.Request) {
		var req localapi.BackupRequest
		if decodeBody(w, r, &req) {
			v, err := b.Backup(r.Context(), req.Passphrase)
			reply(w, log, v, err)
		}
	})
	return mux
}

// peerKey is the context key of the connection's caller.
type peerKey struct{}

// Peer is the process at a connection's other end, as the kernel says.
type Peer struct {
	// UID is its user id; -1 where the platform has none (Windows).
	UID int
	// Permission is what it may do.
	Permission localapi.Permission
}

// guard answers 403 to a caller not permitted r's access, and runs h
// for one that is. A request without a known caller (a connection not
// accepted by Serve) is refused too.
func guard(r localapi.Route, log *slog.Logger, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		p, ok := req.Context().Value(peerKey{}).(Peer)
		if ok && p.Permission.Allows(r.Access) {
			h(w, req)
			return
		}
		why := "the caller's credentials are unknown"
		if ok {
			why = fmt.Sprintf("it answers only the user who runs the node (uid %d), and this process runs as uid %d: run the command as that user", os.Getuid(), p.UID)
		}
		// A refused caller is worth a line in the log: another user
		// reached a socket that should have kept him out.
		log.Warn("Local API call refused", "route", r.Pattern(), "access", r.Access.String(), "peerUID", p.UID)
		err := fmt.Errorf("%w to %s the node's data through its local API: %s", localapi.ErrForbidden, r.Access, why)
		reply[any](w, log, nil, err)
	})
}

// permit is what a caller of uid may do on a node run by owner: the
// owner may read and write, nobody else anything (root included: it can
// read the data directory itself, but a command it runs should not make
// files in the owner's store that the owner cannot open).
func permit(uid, owner int) localapi.Permission {
	if uid == owner && uid >= 0 {
		return localapi.Permission{Read: true, Write: true}
	}
	return localapi.Permission{}
}

// connContext records a connection's caller in its context.
func connContext(ctx context.Context, c net.Conn) context.Context {
	p, err := peerOf(c)
	if err != nil {
		p = Peer{UID: -1}
	}
	return context.WithValue(ctx, peerKey{}, p)
}

// Listen opens the socket in dataDir, refusing when a node already
// answers on it and replacing one a crashed node left behind.
func Listen(dataDir string) (net.Listener, error) {
	path := filepath.Join(dataDir, localapi.SocketName)
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		return nil, fmt.Errorf("%w (%s)", ErrAnotherNode, dataDir)
	}
	os.Remove(path)
	ln, err := net.Listen("unix", path)
	if nodelock.NoUnixSockets(err) {
		return lockOnly(dataDir)
	}
	if err != nil {
		return nil, fmt.Errorf("local API: %w", err)
	}
	if err := restrictSocket(path); err != nil {
		ln.Close()
		return nil, fmt.Errorf("local API: %w", err)
	}
	return ln, nil
}

// lockOnly is Listen on a system without AF_UNIX sockets: the data
// directory's lock (package nodelock) keeps it to one node, and the
// listener it returns never accepts, so the node runs and no command
// reaches it (LockOnly says so, for the node's log).
func lockOnly(dataDir string) (net.Listener, error) {
	l, err := nodelock.Take(dataDir)
	if errors.Is(err, nodelock.ErrHeld) {
		return nil, fmt.Errorf("%w (%s)", ErrAnotherNode, dataDir)
	}
	if err != nil {
		return nil, fmt.Errorf("local API: %w", err)
	}
	return &lockListener{lock: l, closed: make(chan struct{})}, nil
}

// LockOnly reports whether ln is the listener of a system without AF_UNIX
// sockets, through which no command reaches the node.
func LockOnly(ln net.Listener) bool {
	_, ok := ln.(*lockListener)
	return ok
}

// lockListener holds the data directory's lock and accepts nothing.
type lockListener struct {
	lock   *nodelock.Lock
	once   sync.Once
	closed chan struct{}
}

func (l *lockListener) Accept() (net.Conn, error) {
	<-l.closed
	return nil, net.ErrClosed
}

func (l *lockListener) Close() error {
	var err error
	l.once.Do(func() {
		close(l.closed)
		err = l.lock.Release()
	})
	return err
}

func (l *lockListener) Addr() net.Addr { return lockAddr{} }

type lockAddr struct{}

func (lockAddr) Network() string { return "lock" }
func (lockAddr) String() string  { return nodelock.FileName }

// Serve answers on ln until ctx is done, then removes the socket.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ConnContext: connContext}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	if !LockOnly(ln) {
		defer os.Remove(ln.Addr().String())
	}
	select {
	case err := <-done:
		return fmt.Errorf("local API: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	<-done
	return nil
}

// decodeBody reads a request's JSON body into v, or answers 400. The
// bodies are a few fields; the cap keeps a stray client from making the
// node read without end.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(v); err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(localapi.ErrorBody{Error: "bad request: " + err.Error(), Code: "bad_request"})
		return false
	}
	return true
}

func reply[T any](w http.ResponseWriter, log *slog.Logger, v T, err error) {
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		code, status := localapi.Encode(err)
		if code == "" {
			log.Warn("Local API call failed", "err", err)
		}
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(localapi.ErrorBody{Error: err.Error(), Code: code})
		return
	}
	json.NewEncoder(w).Encode(v)
}
