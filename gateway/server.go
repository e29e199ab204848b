package gateway

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"mailnode/approvals"
	"mailnode/gateway/agentkeys"
	"mailnode/gateway/httpsig"
	"mailnode/gateway/jsonhttp"
	"mailnode/gateway/tools"
)

// MaxBody is the largest request body accepted on POST /mcp.
const MaxBody = 256 << 10

// Protocol is the version string of the discovery document.
const Protocol = "svc/1"

// Approver decides whether a verified call may run; *approvals.Manager is
// the node's.
type Approver interface {
	Request(ctx context.Context, call approvals.Call) (approvals.Decision, error)
}

// Config is what the gateway needs. All fields but Now are required.
type Config struct {
	// Hostname is the node's public hostname, as agents reach it. A node
	// reached on a port other than 443 (development) writes host:port.
	Hostname  string
	Keys      httpsig.KeyResolver
	Nonces    httpsig.NonceStore
	Approvals Approver
	Tools     []tools.Tool
	// Phone serves the paired phones under /phone/ (package
	// gateway/phone); nil serves none.
	Phone http.Handler
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Server serves agents. It is an http.Handler; Serve runs it over TLS.
type Server struct {
	cfg      Config
	log      *slog.Logger
	verifier *httpsig.Verifier
	tools    map[string]tools.Tool
	names    []string
	// grantText is the prompt's details for each grant tier.
	grantText map[approvals.Tier]string
	mcp       http.Handler

	// noVerify skips signature verification for the benchmark's baseline
	// (bench_test.go). No configuration reaches it.
	noVerify bool
}

// New returns a Server. It does no I/O.
func New(cfg Config, logger *slog.Logger) (*Server, error) {
	if cfg.Hostname == "" || cfg.Keys == nil || cfg.Nonces == nil || cfg.Approvals == nil {
		return nil, errors.New("gateway: hostname, key resolver, nonce store and approvals are required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		cfg:   cfg,
		log:   logger.With("component", "gateway"),
		tools: map[string]tools.Tool{},
		verifier: &httpsig.Verifier{
			Host: strings.ToLower(cfg.Hostname), Keys: cfg.Keys, Nonces: cfg.Nonces, Now: cfg.Now,
		},
	}
	for _, t := range cfg.Tools {
		if !t.Tier.Valid() || t.Run == nil {
			return nil, fmt.Errorf("gateway: tool %q has no tier or handler", t.Name)
		}
		if t.Tier.PerCall() && t.Subject == nil {
			return nil, fmt.Errorf("gateway: per-call tool %q does not describe its calls", t.Name)
		}
		s.tools[t.Name] = t
		s.names = append(s.names, t.Name)
	}
	s.grantText = grantTexts(cfg.Tools)
	s.mcp = s.newMCP()
	return s, nil
}

// ServeHTTP routes by exact path; everything else is 404, never a
// redirect (a redirect would break the signature and leak the request to
// another URL).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/mcp", "/mcp/":
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			jsonhttp.Error(w, http.StatusMethodNotAllowed, "method_not_allowed", "POST only")
			return
		}
		s.serveMCP(w, r)
	case "/.well-known/svc-node":
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			jsonhttp.Error(w, http.StatusMethodNotAllowed, "method_not_allowed", "GET only")
			return
		}
		s.serveDiscovery(w)
	default:
		if s.cfg.Phone != nil && strings.HasPrefix(r.URL.Path, "/phone/") {
			s.cfg.Phone.ServeHTTP(w, r)
			return
		}
		jsonhttp.Error(w, http.StatusNotFound, "not_found", "")
	}
}

func (s *Server) serveDiscovery(w http.ResponseWriter) {
	host, _, _ := strings.Cut(s.verifier.Host, ":")
	jsonhttp.Write(w, http.StatusOK, map[string]any{
		"protocol":  Protocol,
		"node":      host,
		"auth":      "rfc9421+capability",
		"tools":     s.names,
		"served_at": s.cfg.Now().Unix(),
	})
}

type identityKey struct{}

// identity returns the verified signer that serveMCP put in ctx.
func identity(ctx context.Context) (httpsig.Identity, bool) {
	id, ok := ctx.Value(identityKey{}).(httpsig.Identity)
	return id, ok && id.Domain != "" && len(id.Key) > 0
}

func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength > MaxBody {
		jsonhttp.Error(w, http.StatusRequestEntityTooLarge, "payload_too_large", "")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			jsonhttp.Error(w, http.StatusRequestEntityTooLarge, "payload_too_large", "")
			return
		}
		jsonhttp.Error(w, http.StatusBadRequest, "bad_request", "cannot read body")
		return
	}

	var id httpsig.Identity
	if s.noVerify {
		id = httpsig.Identity{Domain: "bench.example.com", Kid: "k", KeyID: "bench.example.com#k", Key: make([]byte, 32)}
	} else if id, err = s.verifier.Verify(r.Context(), r, body); err != nil {
		s.refuse(w, r, err)
		return
	}

	r2 := r.WithContext(context.WithValue(r.Context(), identityKey{}, id))
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.ContentLength = int64(len(body))
	s.mcp.ServeHTTP(w, r2)
}

// refuse answers a request whose signature did not verify. The detail is
// a chosen public message; the internal error is logged without anything
// from the request but the remote address.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, err error) {
	var herr *httpsig.Error
	switch {
	case errors.As(err, &herr):
		s.log.Debug("Refused request", "remote", r.RemoteAddr, "reason", herr.Reason)
		jsonhttp.Error(w, http.StatusUnauthorized, "signature_invalid", herr.Reason)
	case errors.Is(err, agentkeys.ErrUnknownKey):
		s.log.Info("Refused request", "remote", r.RemoteAddr, "reason", "unknown key", "err", err)
		jsonhttp.Error(w, http.StatusUnauthorized, "signature_invalid", "unknown key id")
	case errors.Is(err, httpsig.ErrNonceStore):
		s.log.Error("Cannot check nonce", "err", err)
		jsonhttp.Error(w, http.StatusServiceUnavailable, "unavailable", "try again later")
	default:
		s.log.Warn("Refused request", "remote", r.RemoteAddr, "reason", "key document unavailable", "err", err)
		jsonhttp.Error(w, http.StatusUnauthorized, "signature_invalid", "agent key document unavailable")
	}
}

// TLSConfig is the gateway's TLS: 1.3 only, with certificates from
// getCert.
func TLSConfig(getCert func(*tls.ClientHelloInfo) (*tls.Certificate, error)) *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS13, GetCertificate: getCert, NextProtos: []string{"h2", "http/1.1"}}
}

// Serve answers agents on ln with TLS until ctx is cancelled, then shuts
// down gracefully. It returns nil on cancellation.
func (s *Server) Serve(ctx context.Context, ln net.Listener, tlsConfig *tls.Config) error {
	hs := &http.Server{
		Handler:           s,
		TLSConfig:         tlsConfig,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    32 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	done := make(chan error, 1)
	go func() { done <- hs.ServeTLS(ln, "", "") }()
	select {
	case err := <-done:
		return fmt.Errorf("gateway: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	<-done
	return nil
}
