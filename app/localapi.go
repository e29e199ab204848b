package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"mailnode/approvals"
)

// The local API lets the command line drive the running node: the same
// Node methods the tray calls, over HTTP on a unix socket in the data
// directory. The socket is the node owner's alone (mode 0600 in a 0700
// directory); nothing else authenticates its callers.

// SocketPath is where the running node listens for the local API.
func (n *Node) SocketPath() string { return filepath.Join(n.cfg.DataDir, "mailnode.sock") }

// serveLocalAPI answers on the socket until ctx is done; ready hears
// whether it could listen.
func (n *Node) serveLocalAPI(ctx context.Context, ready func(error)) error {
	path := n.SocketPath()
	// A socket left by a node that crashed would make Listen fail; one
	// that a running node answers on means two nodes on one directory.
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		// Two nodes on one store would sync and serve it twice.
		return stopNode{fmt.Errorf("local API: another node is running on %s", n.cfg.DataDir)}
	}
	os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("local API: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("local API: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/approvals", func(w http.ResponseWriter, r *http.Request) {
		v, err := n.Pending(r.Context())
		reply(w, v, err)
	})
	mux.HandleFunc("POST /v1/approvals/decide", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID      string `json:"id"`
			Approve bool   `json:"approve"`
		}
		if !decodeBody(w, r, &req) {
			return
		}
		v, err := n.Decide(r.Context(), req.ID, req.Approve)
		reply(w, v, err)
	})
	mux.HandleFunc("GET /v1/grants", func(w http.ResponseWriter, r *http.Request) {
		v, err := n.Grants(r.Context())
		reply(w, v, err)
	})
	mux.HandleFunc("POST /v1/grants/revoke", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Agent string `json:"agent"`
			Tier  string `json:"tier"`
			Block bool   `json:"block"`
		}
		if !decodeBody(w, r, &req) {
			return
		}
		if req.Block {
			err := n.Block(r.Context(), req.Agent)
			reply(w, 0, err)
			return
		}
		v, err := n.Revoke(r.Context(), req.Agent, approvals.Tier(req.Tier))
		reply(w, v, err)
	})
	mux.HandleFunc("GET /v1/audit", func(w http.ResponseWriter, r *http.Request) {
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		v, err := n.Audit(r.Context(), limit)
		reply(w, v, err)
	})
	mux.HandleFunc("POST /v1/phones/pair", func(w http.ResponseWriter, r *http.Request) {
		v, err := n.Pair(r.Context())
		reply(w, v, err)
	})
	mux.HandleFunc("GET /v1/phones/pair/{id}", func(w http.ResponseWriter, r *http.Request) {
		v, err := n.PairStatus(r.Context(), r.PathValue("id"))
		reply(w, v, err)
	})
	mux.HandleFunc("GET /v1/phones", func(w http.ResponseWriter, r *http.Request) {
		v, err := n.Phones(r.Context())
		reply(w, v, err)
	})
	mux.HandleFunc("POST /v1/phones/{op}", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		}
		if !decodeBody(w, r, &req) {
			return
		}
		switch r.PathValue("op") {
		case "confirm":
			v, err := n.ConfirmPhone(r.Context(), req.ID)
			reply(w, v, err)
		case "rename":
			v, err := n.RenamePhone(r.Context(), req.ID, req.Name)
			reply(w, v, err)
		case "remove":
			reply(w, true, n.RemovePhone(r.Context(), req.ID))
		default:
			http.NotFound(w, r)
		}
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	ready(nil)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("local API: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	<-done
	os.Remove(path)
	return nil
}

// decodeBody reads a request's JSON body into v, or answers 400. The
// local API's bodies are a few fields; the cap keeps a stray client from
// making the node read without end.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(v) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return false
	}
	return true
}

// apiError is the local API's error body.
type apiError struct {
	Error string `json:"error"`
	Code  string `json:"code,omitempty"`
}

func reply[T any](w http.ResponseWriter, v T, err error) {
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		e := apiError{Error: err.Error()}
		switch {
		case errors.Is(err, approvals.ErrNotFound):
			e.Code = "not_found"
		case errors.Is(err, approvals.ErrNoPhone):
			e.Code = "no_phone"
		case errors.Is(err, approvals.ErrNotPending):
			e.Code = "not_pending"
		case errors.Is(err, approvals.ErrAmbiguous):
			e.Code = "ambiguous"
		case errors.Is(err, approvals.ErrPhoneOnly):
			e.Code = "phone_only"
		}
		w.WriteHeader(http.StatusConflict)
		json.NewEncoder(w).Encode(e)
		return
	}
	json.NewEncoder(w).Encode(v)
}

// LocalClient calls a running node's local API.
type LocalClient struct{ c *http.Client }

// ErrNodeNotRunning is returned by DialLocal when no node answers.
var ErrNodeNotRunning = errors.New("no node is running on this data directory")

// DialLocal connects to the node running on dataDir.
func DialLocal(dataDir string) (*LocalClient, error) {
	path := filepath.Join(dataDir, "mailnode.sock")
	c, err := net.Dial("unix", path)
	if err != nil {
		return nil, ErrNodeNotRunning
	}
	c.Close()
	return &LocalClient{c: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", path)
		},
	}}}, nil
}

func (l *LocalClient) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, _ := json.Marshal(in)
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://node"+path, body)
	if err != nil {
		return err
	}
	resp, err := l.c.Do(req)
	if err != nil {
		return fmt.Errorf("local API: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e apiError
		json.NewDecoder(resp.Body).Decode(&e)
		switch e.Code {
		case "not_found":
			return approvals.ErrNotFound
		case "not_pending":
			return fmt.Errorf("%w: %s", approvals.ErrNotPending, e.Error)
		case "ambiguous":
			return approvals.ErrAmbiguous
		case "phone_only":
			return approvals.ErrPhoneOnly
		case "no_phone":
			return approvals.ErrNoPhone
		}
		return fmt.Errorf("node: %s", e.Error)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// Pending is Node.Pending on the running node.
func (l *LocalClient) Pending(ctx context.Context) ([]approvals.Approval, error) {
	var out []approvals.Approval
	return out, l.do(ctx, "GET", "/v1/approvals", nil, &out)
}

// Decide is Node.Decide on the running node.
func (l *LocalClient) Decide(ctx context.Context, idOrCode string, approve bool) (approvals.Approval, error) {
	var out approvals.Approval
	return out, l.do(ctx, "POST", "/v1/approvals/decide", map[string]any{"id": idOrCode, "approve": approve}, &out)
}

// Grants is Node.Grants on the running node.
func (l *LocalClient) Grants(ctx context.Context) ([]approvals.Grant, error) {
	var out []approvals.Grant
	return out, l.do(ctx, "GET", "/v1/grants", nil, &out)
}

// Revoke is Node.Revoke on the running node.
func (l *LocalClient) Revoke(ctx context.Context, agent string, tier approvals.Tier) (int, error) {
	var out int
	return out, l.do(ctx, "POST", "/v1/grants/revoke", map[string]any{"agent": agent, "tier": tier}, &out)
}

// Block is Node.Block on the running node.
func (l *LocalClient) Block(ctx context.Context, agent string) error {
	var out int
	return l.do(ctx, "POST", "/v1/grants/revoke", map[string]any{"agent": agent, "block": true}, &out)
}

// Audit is Node.Audit on the running node.
func (l *LocalClient) Audit(ctx context.Context, limit int) ([]approvals.AuditEntry, error) {
	var out []approvals.AuditEntry
	return out, l.do(ctx, "GET", "/v1/audit?limit="+strconv.Itoa(limit), nil, &out)
}

// Pair is Node.Pair on the running node.
func (l *LocalClient) Pair(ctx context.Context) (PairOffer, error) {
	var out PairOffer
	return out, l.do(ctx, "POST", "/v1/phones/pair", struct{}{}, &out)
}

// PairStatus is Node.PairStatus on the running node.
func (l *LocalClient) PairStatus(ctx context.Context, id string) (PairStatus, error) {
	var out PairStatus
	return out, l.do(ctx, "GET", "/v1/phones/pair/"+url.PathEscape(id), nil, &out)
}

// ConfirmPhone is Node.ConfirmPhone on the running node.
func (l *LocalClient) ConfirmPhone(ctx context.Context, id string) (approvals.Phone, error) {
	var out approvals.Phone
	return out, l.do(ctx, "POST", "/v1/phones/confirm", map[string]string{"id": id}, &out)
}

// Phones is Node.Phones on the running node.
func (l *LocalClient) Phones(ctx context.Context) ([]approvals.Phone, error) {
	var out []approvals.Phone
	return out, l.do(ctx, "GET", "/v1/phones", nil, &out)
}

// RemovePhone is Node.RemovePhone on the running node.
func (l *LocalClient) RemovePhone(ctx context.Context, id string) error {
	var out bool
	return l.do(ctx, "POST", "/v1/phones/remove", map[string]string{"id": id}, &out)
}

// RenamePhone is Node.RenamePhone on the running node.
func (l *LocalClient) RenamePhone(ctx context.Context, id, name string) (approvals.Phone, error) {
	var out approvals.Phone
	return out, l.do(ctx, "POST", "/v1/phones/rename", map[string]string{"id": id, "name": name}, &out)
}
