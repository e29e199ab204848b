// Package localserver serves the local API (package localapi) for a
// Backend, in the node's process.
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
	"time"

	"mailnode/app/localapi"
)

// ErrAnotherNode: a node already answers on the data directory's socket.
var ErrAnotherNode = errors.New("another node is running on this data directory")

// Handler answers the local API's routes from b.
func Handler(b localapi.Backend, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(localapi.RoutePending.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		v, err := b.Pending(r.Context())
		reply(w, log, v, err)
	})
	mux.HandleFunc(localapi.RouteDecide.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		var req localapi.DecideRequest
		if decodeBody(w, r, &req) {
			v, err := b.Decide(r.Context(), req.ID, req.Approve)
			reply(w, log, v, err)
		}
	})
	mux.HandleFunc(localapi.RouteGrants.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		v, err := b.Grants(r.Context())
		reply(w, log, v, err)
	})
	mux.HandleFunc(localapi.RouteRevoke.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		var req localapi.RevokeRequest
		if decodeBody(w, r, &req) {
			v, err := b.Revoke(r.Context(), req.Agent, req.Tier)
			reply(w, log, v, err)
		}
	})
	mux.HandleFunc(localapi.RouteBlock.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		var req localapi.RevokeRequest
		if decodeBody(w, r, &req) {
			v, err := b.Block(r.Context(), req.Agent)
			reply(w, log, v, err)
		}
	})
	mux.HandleFunc(localapi.RouteAudit.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		v, err := b.Audit(r.Context(), limit)
		reply(w, log, v, err)
	})
	mux.HandleFunc(localapi.RoutePair.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		var req localapi.PairOptions
		if decodeBody(w, r, &req) {
			v, err := b.Pair(r.Context(), req)
			reply(w, log, v, err)
		}
	})
	mux.HandleFunc(localapi.RoutePairStatus.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		v, err := b.PairStatus(r.Context(), r.PathValue("id"))
		reply(w, log, v, err)
	})
	mux.HandleFunc(localapi.RoutePhones.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		v, err := b.Phones(r.Context())
		reply(w, log, v, err)
	})
	mux.HandleFunc(localapi.RouteConfirmPhone.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		var req localapi.PhoneRequest
		if decodeBody(w, r, &req) {
			v, err := b.ConfirmPhone(r.Context(), req.ID)
			reply(w, log, v, err)
		}
	})
	mux.HandleFunc(localapi.RouteRenamePhone.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		var req localapi.PhoneRequest
		if decodeBody(w, r, &req) {
			v, err := b.RenamePhone(r.Context(), req.ID, req.Name)
			reply(w, log, v, err)
		}
	})
	mux.HandleFunc(localapi.RouteRemovePhone.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		var req localapi.PhoneRequest
		if decodeBody(w, r, &req) {
			reply(w, log, true, b.RemovePhone(r.Context(), req.ID))
		}
	})
	mux.HandleFunc(localapi.RouteAccounts.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		v, err := b.Accounts(r.Context())
		reply(w, log, v, err)
	})
	mux.HandleFunc(localapi.RouteShow.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		reply(w, log, true, b.Show(r.Context()))
	})
	mux.HandleFunc(localapi.RouteLAN.Pattern(), func(w http.ResponseWriter, r *http.Request) {
		var req localapi.LANRequest
		if decodeBody(w, r, &req) {
			v, err := b.SetLAN(r.Context(), req.On)
			reply(w, log, v, err)
		}
	})
	return mux
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
	if err != nil {
		return nil, fmt.Errorf("local API: %w", err)
	}
	if err := restrictSocket(path); err != nil {
		ln.Close()
		return nil, fmt.Errorf("local API: %w", err)
	}
	return ln, nil
}

// Serve answers on ln until ctx is done, then removes the socket.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	defer os.Remove(ln.Addr().String())
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
