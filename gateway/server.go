package gateway

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mailnode/approvals"
	"mailnode/approvals/site"
	"mailnode/gateway/agentkeys"
	"mailnode/gateway/httpsig"
	"mailnode/gateway/jsonhttp"
	"mailnode/gateway/oauth"
	"mailnode/gateway/tools"
	"mailnode/relay/connlimit"
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
	Hostname string
	Keys     httpsig.KeyResolver
	// QueueKeys resolves keys for requests from the relay's offline
	// queue (ServeQueued). It must not fetch: a queued envelope must
	// never make the node connect anywhere a stranger chose
	// (docs/relay.md, "On the node"); the node's is Keys' Held. Nil:
	// every queued request is from an unknown agent.
	QueueKeys httpsig.KeyResolver
	Nonces    httpsig.NonceStore
	Approvals Approver
	Tools     []tools.Tool
	// Phone serves the paired phones under /phone/ (package
	// gateway/phone); nil serves none.
	Phone http.Handler
	// OAuth is the front door (package gateway/oauth): its metadata,
	// authorization and token endpoints, and the bearer tokens of
	// /oauth/mcp. Nil: no front door, and those paths are 404.
	OAuth *oauth.Server
	// RateLimit bounds each verified agent's requests; zero: defaults.
	RateLimit RateLimit
	// Sites is the node's notion of a site, which the per-site rate
	// bucket counts by: the same the approvals are given
	// (approvals.Config.Sites), so that one site is one site for every
	// limit and block. Nil: registrable domains by the Public Suffix
	// List alone.
	Sites *site.Sites
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Server serves agents. It is an http.Handler; Serve runs it over TLS.
type Server struct {
	// names are the node's names (host or host:port, lower case), the
	// configured Hostname first; SetNames replaces the rest while the
	// node runs.
	names atomic.Pointer[[]string]

	cfg      Config
	log      *slog.Logger
	verifier *httpsig.Verifier
	tools    map[string]tools.Tool
	toolList []string
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
	limits := newLimiters(cfg.RateLimit, cfg.Sites, cfg.Now)
	s := &Server{
		cfg:   cfg,
		log:   logger.With("component", "gateway"),
		tools: map[string]tools.Tool{},
		verifier: &httpsig.Verifier{
			Host: strings.ToLower(cfg.Hostname), Keys: cfg.Keys, Nonces: cfg.Nonces, Now: cfg.Now,
			Admit: limits.admit,
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
		s.toolList = append(s.toolList, t.Name)
	}
	s.grantText = grantTexts(cfg.Tools)
	s.mcp = s.newMCP()
	s.SetNames()
	return s, nil
}

// SetNames sets the names the node answers for besides its configured
// Hostname: host, or host:port for a port other than 443. A relay assigns
// a name while the node runs; requests for any other name get 421.
func (s *Server) SetNames(extra ...string) {
	names := []string{s.verifier.Host}
	for _, n := range extra {
		n = strings.TrimSuffix(strings.ToLower(n), ":443")
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	s.names.Store(&names)
}

// name returns which of the node's names the request's Host (HTTP/2
// :authority) is, or "" if none. A name without a port is also reached as
// host:443; a trailing dot is the same name.
func (s *Server) name(r *http.Request) string {
	host := strings.ToLower(r.Host)
	if h, p, err := net.SplitHostPort(host); err == nil && p == "443" {
		host = h
	}
	if h, p, err := net.SplitHostPort(host); err == nil {
		host = net.JoinHostPort(strings.TrimSuffix(h, "."), p)
	} else {
		host = strings.TrimSuffix(host, ".")
	}
	for _, n := range *s.names.Load() {
		if host == n {
			return n
		}
	}
	return ""
}

// sameOrigin reports whether a browser's Origin is one of the node's own
// names over HTTPS: a page the node served, not a page on another site
// (MCP Streamable HTTP: servers must validate Origin against DNS
// rebinding).
func (s *Server) sameOrigin(origin string) bool {
	rest, ok := strings.CutPrefix(strings.ToLower(origin), "https://")
	if !ok {
		return false
	}
	rest = strings.TrimSuffix(rest, ":443")
	return slices.Contains(*s.names.Load(), rest)
}

// ServeHTTP routes by exact path; everything else is 404, never a
// redirect (a redirect would break the signature and leak the request to
// another URL).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// A request for a name that is not the node's was meant for another
	// server, or is a DNS-rebinding page's: RFC 9110 section 15.5.20.
	host := s.name(r)
	if host == "" {
		jsonhttp.Error(w, http.StatusMisdirectedRequest, "misdirected_request", "this node does not answer for that host name")
		return
	}
	switch r.URL.Path {
	case "/mcp", "/mcp/":
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			jsonhttp.Error(w, http.StatusMethodNotAllowed, "method_not_allowed", "POST only")
			return
		}
		// Agents are not browsers and send no Origin; a page on another
		// site that a browser lets post here is refused.
		if o := r.Header.Get("Origin"); o != "" && !s.sameOrigin(o) {
			jsonhttp.Error(w, http.StatusForbidden, "forbidden", "requests from web pages of other origins are refused")
			return
		}
		s.serveMCP(w, r, host)
	case oauth.ResourcePath:
		if s.cfg.OAuth == nil {
			jsonhttp.Error(w, http.StatusNotFound, "not_found", "")
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			jsonhttp.Error(w, http.StatusMethodNotAllowed, "method_not_allowed", "POST only")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !s.sameOrigin(o) {
			jsonhttp.Error(w, http.StatusForbidden, "forbidden", "requests from web pages of other origins are refused")
			return
		}
		s.serveOAuth(w, r, host)
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
		if s.cfg.OAuth != nil && s.cfg.OAuth.Serve(w, r, host) {
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
		"tools":     s.toolList,
		"served_at": s.cfg.Now().Unix(),
		// An addition to the contract's document (docs/protocol.md,
		// "MCP revisions"): which MCP revisions /mcp serves.
		"mcp_versions": MCPVersions(),
	})
}

type identityKey struct{}

// verified is who a request reaching the MCP SDK was proved to come from:
// an agent that signed it (/mcp) or an OAuth client whose access token it
// carried (/oauth/mcp). Both are decided alike, by the agent domain and
// the key their grants are pinned to.
type verified struct {
	httpsig.Identity // Domain for both; Key, Nonce and Queued for a signer only
	// KeyFP is what grants and approvals are pinned to: the signing key's
	// fingerprint, or the OAuth consent's key ("oauth:…").
	KeyFP string
	// OAuth is the token's principal on /oauth/mcp, nil on /mcp.
	OAuth *oauth.Principal
	// Host is the node's name the request came to.
	Host string
}

// signed is the verified form of a signer's identity.
func signed(id httpsig.Identity) verified {
	return verified{Identity: id, KeyFP: approvals.Fingerprint(id.Key)}
}

// identity returns who serveVerified or serveOAuth put in ctx.
func identity(ctx context.Context) (verified, bool) {
	id, ok := ctx.Value(identityKey{}).(verified)
	return id, ok && id.Domain != "" && id.KeyFP != "" && (len(id.Key) > 0 || id.OAuth != nil)
}

// serveMCP verifies a POST /mcp for host, the node's name the request
// came to, and hands it to the MCP SDK.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request, host string) {
	s.serveVerified(w, r, host, 0)
}

// serveVerified is serveMCP for a live request (queuedFor 0) or one from
// the offline queue (ServeQueued).
func (s *Server) serveVerified(w http.ResponseWriter, r *http.Request, host string, queuedFor time.Duration) {
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
	if s.noVerify && queuedFor == 0 {
		id = httpsig.Identity{Domain: "bench.example.com", Kid: "k", KeyID: "bench.example.com#k", Key: make([]byte, 32)}
	} else {
		v := *s.verifier
		v.Host = host
		v.QueuedFor = queuedFor
		if queuedFor > 0 {
			v.Keys = s.cfg.QueueKeys
			if v.Keys == nil {
				v.Keys = noKeys{}
			}
		}
		if id, err = v.Verify(r.Context(), r, body); err != nil {
			s.refuse(w, r, body, err)
			return
		}
	}
	v := signed(id)
	v.Host = host
	s.serveIdentified(w, r, body, v)
}

// serveIdentified hands a request whose sender is proved to the MCP SDK,
// the same for both doors.
func (s *Server) serveIdentified(w http.ResponseWriter, r *http.Request, body []byte, id verified) {
	// MCP 2025-06-18 removed JSON-RPC batches; one is refused whole,
	// as JSON-RPC 2.0 answers an invalid request.
	if b := bytes.TrimLeft(body, " \t\r\n"); len(b) > 0 && b[0] == '[' {
		jsonhttp.Write(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": nil,
			"error": map[string]any{"code": -32600, "message": "JSON-RPC batches are not supported (MCP 2025-06-18)"}})
		return
	}
	if checkVersionHeader(w, r, body) {
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
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, body []byte, err error) {
	var herr *httpsig.Error
	var limited *RateLimited
	switch {
	case errors.As(err, &limited):
		s.rateLimited(w, r, body, limited)
	case errors.As(err, &herr):
		s.log.Debug("Refused request", "remote", r.RemoteAddr, "reason", herr.Reason)
		jsonhttp.Error(w, http.StatusUnauthorized, "signature_invalid", herr.Reason)
	case errors.Is(err, agentkeys.ErrUnknownKey):
		s.log.Info("Refused request", "remote", r.RemoteAddr, "reason", "unknown key", "err", err)
		jsonhttp.Error(w, http.StatusUnauthorized, "signature_invalid", "unknown key id")
	case errors.Is(err, httpsig.ErrNonceStore):
		s.log.Error("Cannot check nonce", "err", err)
		jsonhttp.Error(w, http.StatusServiceUnavailable, "unavailable", "try again later")
	case errors.Is(err, agentkeys.ErrBusy):
		// The node's own overload, not the agent's fault: a live agent
		// retries, and a queued envelope stays at the relay for a later
		// delivery (app.(*Node).serveQueued).
		s.log.Debug("Refused request", "remote", r.RemoteAddr, "reason", "key fetcher busy")
		w.Header().Set("Retry-After", "5")
		jsonhttp.Error(w, http.StatusServiceUnavailable, "unavailable", "try again later")
	default:
		// The fetcher logs a failing domain once per failure window.
		s.log.Debug("Refused request", "remote", r.RemoteAddr, "reason", "key document unavailable", "err", err)
		jsonhttp.Error(w, http.StatusUnauthorized, "signature_invalid", "agent key document unavailable")
	}
}

// rateLimited answers a verified request past its agent's rate. A
// tools/call gets the tool payload {error: "rate_limited", message,
// retry_after}, as the spec leaves tool error codes open; anything else
// gets HTTP 429 with Retry-After (docs/protocol.md).
func (s *Server) rateLimited(w http.ResponseWriter, r *http.Request, body []byte, e *RateLimited) {
	secs := e.retrySeconds()
	var msg struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &msg) == nil && msg.Method == "tools/call" && len(msg.ID) > 0 && string(msg.ID) != "null" {
		payload, _ := json.Marshal(map[string]any{"error": "rate_limited", "retry_after": secs,
			"message": fmt.Sprintf("Too many requests from this agent; retry in %d s.", secs)})
		result := map[string]any{"isError": true, "content": []map[string]any{{"type": "text", "text": string(payload)}}}
		if statelessMCP(r.Header.Get("Mcp-Protocol-Version")) {
			// Written here, before the SDK: its resultType too.
			result["resultType"] = "complete"
		}
		jsonhttp.Write(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
		return
	}
	w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	jsonhttp.Error(w, http.StatusTooManyRequests, "rate_limited", "too many requests")
}

// TLSConfig is the gateway's TLS: 1.3 only, with certificates from
// getCert.
func TLSConfig(getCert func(*tls.ClientHelloInfo) (*tls.Certificate, error)) *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS13, GetCertificate: getCert, NextProtos: []string{"h2", "http/1.1"}}
}

// Serve answers agents on ln with TLS until ctx is cancelled, then shuts
// down gracefully. It returns nil on cancellation.
//
// A connection has connlimit.HandshakeTimeout from its accept to finish
// its TLS handshake. On a TCP listener one client address (an IPv4
// address, an IPv6 /64) may hold connlimit.DefaultPerAddress connections
// still in their handshake; past that one is closed at once. Any other
// listener (the relay tunnel's streams, which all come from the relay)
// has no such cap: the relay caps its clients' addresses itself.
func (s *Server) Serve(ctx context.Context, ln net.Listener, tlsConfig *tls.Config) error {
	tlsConfig = tlsConfig.Clone()
	if len(tlsConfig.NextProtos) == 0 {
		tlsConfig.NextProtos = []string{"h2", "http/1.1"}
	}
	hs := &http.Server{
		Handler: s,
		// net/http writes its HTTP/2 defaults into the config it is
		// given, so two listeners must not share one (a data race);
		// nor may it share one with the handshakes (tlsListener).
		TLSConfig:         tlsConfig.Clone(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    32 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	var pending *connlimit.PerAddress
	if _, ok := ln.Addr().(*net.TCPAddr); ok {
		pending = connlimit.NewPerAddress(connlimit.DefaultPerAddress)
		hs.ConnState = establishedCap(MaxEstablishedPerAddress)
	}
	tl := newTLSListener(ln, tlsConfig, pending, s.log)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(tl) }()
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

// MaxEstablishedPerAddress caps the established connections one client
// address (an IPv4 address, an IPv6 /64) holds on a TCP listener of the
// gateway. An agent or a phone needs a few; without a cap a stranger who
// can reach the node (on the Internet with --listen :443, or on the same
// network once it listens there for a phone) held thousands, each a
// goroutine and buffers, for the idle timeout (outside attack). Agents
// through the relay arrive on the tunnel's streams, which the relay caps
// per address itself.
const MaxEstablishedPerAddress = 64

// establishedCap counts established connections per client address for
// http.Server.ConnState and closes a new one past max.
func establishedCap(max int) func(net.Conn, http.ConnState) {
	counts := connlimit.NewPerAddress(max)
	var mu sync.Mutex
	releases := map[net.Conn]func(){}
	return func(c net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			release, ok := counts.Acquire(c.RemoteAddr())
			if !ok {
				c.Close()
				return
			}
			mu.Lock()
			releases[c] = release
			mu.Unlock()
		case http.StateClosed, http.StateHijacked:
			mu.Lock()
			release := releases[c]
			delete(releases, c)
			mu.Unlock()
			if release != nil {
				release()
			}
		}
	}
}

// QueuedRequest is a request an agent left in the relay's offline queue,
// as the node opened it from its envelope (relay.Envelope).
type QueuedRequest struct {
	Method, Path string
	Headers      map[string]string // lower-case names; "host" is the name the signature covers
	Body         []byte
}

// QueuedReply is what the node answered a queued request: the HTTP status
// and body a live call would have had.
type QueuedReply struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body,omitempty"`
	// Allowed is set for a verified tools/call the person already
	// allowed: its agent holds a grant for the tool's tier, or an
	// approval of exactly this raw_read or send. Only such a reply may
	// be posted for the agent to poll; anything else is acknowledged
	// without one, so that what a stranger sees of the queue is the same
	// as for a decoy (docs/relay.md, "On the node").
	Allowed bool `json:"-"`
	// Retry is set when the node could not take the request through its
	// own fault (the key fetcher busy, its nonce or approvals store
	// failing), not the agent's: the envelope is to be left at the relay
	// and delivered again. Its nonce has been given back (NonceForgetter).
	Retry bool `json:"-"`
}

// queuedKey holds, in a queued request's context, what the gate and
// authorize found out about it.
type queuedKey struct{}

type queuedState struct {
	// allowed: the call is one the person already allowed.
	allowed atomic.Bool
	// retry: the node's own store failed on it; keyID and nonce name
	// the nonce it spent.
	mu           sync.Mutex
	retry        bool
	keyID, nonce string
}

func markQueuedAllowed(ctx context.Context) {
	if q, ok := ctx.Value(queuedKey{}).(*queuedState); ok {
		q.allowed.Store(true)
	}
}

// markQueuedRetry records that the node could not take the queued
// request id because its own store failed: it is to be delivered again.
func markQueuedRetry(ctx context.Context, id httpsig.Identity) {
	if q, ok := ctx.Value(queuedKey{}).(*queuedState); ok {
		q.mu.Lock()
		q.retry, q.keyID, q.nonce = true, id.KeyID, id.Nonce
		q.mu.Unlock()
	}
}

// NonceForgetter is a nonce store that can give a nonce back: for a
// queued request the node failed to take through its own fault, so that
// the relay's next delivery of the same envelope is not refused as a
// replay. *nonces.Store is one.
type NonceForgetter interface {
	Forget(ctx context.Context, keyID, nonce string) error
}

// ServeQueued answers a queued request through the same checks as a live
// POST /mcp (docs/relay.md, "The offline queue"): the signature over the
// node's name, the agent's key, the body's digest, a nonce never seen, the
// rate limits, then the MCP gate. Two things differ: the signature may be
// up to queuedFor old and past its expires (the agent signed it when it
// enqueued), and a tools/call never runs: it may only open the approval
// prompt, so that the person decides while the agent is away, and the
// agent's live retry is what runs.
func (s *Server) ServeQueued(ctx context.Context, q QueuedRequest, queuedFor time.Duration) QueuedReply {
	state := new(queuedState)
	ctx = context.WithValue(ctx, queuedKey{}, state)
	r, err := http.NewRequestWithContext(ctx, q.Method, "https://"+q.Headers["host"]+q.Path, bytes.NewReader(q.Body))
	if err != nil || queuedFor <= 0 {
		return QueuedReply{Status: http.StatusBadRequest}
	}
	r.RequestURI = q.Path
	r.RemoteAddr = "relay-queue"
	for k, v := range q.Headers {
		if k != "host" {
			r.Header.Set(k, v)
		}
	}
	r.ContentLength = int64(len(q.Body))
	w := &replyRecorder{header: http.Header{}}
	host := s.name(r)
	switch {
	case host == "":
		jsonhttp.Error(w, http.StatusMisdirectedRequest, "misdirected_request", "this node does not answer for that host name")
	case q.Method != http.MethodPost || q.Path != "/mcp" && q.Path != "/mcp/":
		jsonhttp.Error(w, http.StatusNotFound, "not_found", "only POST /mcp may be queued")
	default:
		s.serveVerified(w, r, host, queuedFor)
	}
	if w.status == 0 {
		w.status = http.StatusOK
	}
	body := w.body.Bytes()
	if !json.Valid(body) {
		body = nil
	}
	rep := QueuedReply{Status: w.status, Body: body, Allowed: state.allowed.Load(), Retry: w.status == http.StatusServiceUnavailable}
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.retry {
		rep.Retry, rep.Allowed = true, false
		if f, ok := s.cfg.Nonces.(NonceForgetter); ok {
			if err := f.Forget(ctx, state.keyID, state.nonce); err != nil {
				// The next delivery then meets "nonce already used" and is
				// dropped: no worse than before.
				s.log.Error("Cannot give back a queued request's nonce", "err", err)
			}
		}
	}
	return rep
}

// noKeys knows no agent: the queue's resolver when none is configured.
type noKeys struct{}

func (noKeys) PublicKey(context.Context, string, string) (ed25519.PublicKey, error) {
	return nil, agentkeys.ErrNotHeld
}

// replyRecorder keeps a queued request's answer.
type replyRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *replyRecorder) Header() http.Header { return w.header }
func (w *replyRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *replyRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.body.Len()+len(b) > MaxBody {
		return 0, errors.New("queued reply too large")
	}
	return w.body.Write(b)
}
