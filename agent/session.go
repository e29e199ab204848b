package agent

import (
	"mailnode/agent/agentproto"

	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// The MCP revisions the SDK speaks: ProtocolVersion first, stateless (no
// initialize; server/discover, _meta and the Mcp-* headers on every
// request), and LegacyProtocolVersion, the contract's, when a node refuses
// it (docs/protocol.md, "MCP revisions").
const (
	ProtocolVersion       = "2026-07-28"
	LegacyProtocolVersion = "2025-06-18"
)

// Config describes how to reach one node.
type Config struct {
	// Node is the node's hostname as resolved (Resolution.Hostname), with
	// :port when the node is not on 443.
	Node   string
	Signer *Signer
	// HTTPClient is used for the calls; its redirects are refused whatever
	// it says. Default: TLS 1.3 with the system roots, 30 s timeout.
	HTTPClient *http.Client
	// ClientName and ClientVersion go into initialize's clientInfo.
	ClientName, ClientVersion string
	// Queue, if set, is used when a TLS connection to the node cannot be
	// made: the signed call is sealed and left in the relay's offline
	// queue, and Call returns a *QueuedError.
	Queue *Queue
	// OnQueued, if set, hears each call CallAndWait left in the queue,
	// before it waits for the node to take it.
	OnQueued func(*QueuedError)
}

// Session is one MCP session with a node, in the order the protocol asks:
// initialize, notifications/initialized and tools/list once, then calls.
// Its methods are safe for concurrent use.
type Session struct {
	cfg    Config
	client *http.Client
	url    string

	mu        sync.Mutex // guards the fields below
	sessionID string
	// version is the MCP revision the node agreed to, once Initialize
	// has run; "" before.
	version string
	tools   []Tool
	nextID  int
}

// Tool is an entry of the node's tools/list.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema, if the node gives one, is the JSON Schema of the
	// tool's result (the structured tools').
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Annotations are the tool's MCP hints (readOnlyHint, ...), as sent.
	Annotations json.RawMessage `json:"annotations,omitempty"`
}

// RPCError is a JSON-RPC error answer of the node, such as -32022 (an MCP
// revision it does not serve) or -32020 (headers that disagree with the
// body).
type RPCError struct {
	Method  string
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("agent: %s: JSON-RPC error %d: %s", e.Method, e.Code, e.Message)
}

// ApprovalRequired is the error of a call that waits for the user's
// approval. Show the user Agent (the verified domain) and MatchCode, then
// retry the same call; CallAndWait does that.
type ApprovalRequired struct {
	agentproto.ApprovalRequired
}

func (e *ApprovalRequired) Error() string {
	return fmt.Sprintf("approval required: ask the user to approve %s for %s %s (match code %s)", e.Tool, e.Agent, e.Where(), e.MatchCode)
}

// PhoneOnly reports whether only the user's paired phone can approve the
// call: tiers raw_read and send need the phone's approval for every call
// (docs/protocol.md). Any other tier the user may also approve at the node
// itself (mailnode approvals, the desktop app), so telling them "on your
// phone" would send someone without a paired phone looking for one.
func (e *ApprovalRequired) PhoneOnly() bool {
	return e.Tier == "raw_read" || e.Tier == "send"
}

// Where says where the user can approve the call, as words that follow
// "approve": "on their phone" or "on their phone or at the node".
func (e *ApprovalRequired) Where() string {
	if e.PhoneOnly() {
		return "on their phone"
	}
	return "on their phone or at the node"
}

// ToolError is any other error-shaped tool payload: {error, message}.
type ToolError struct {
	Code    string `json:"error"`
	Message string `json:"message"`
	// RetryAfter is, for too_many_prompts, the seconds to wait before
	// asking the user again; for rate_limited, before calling again.
	RetryAfter int64 `json:"retry_after,omitempty"`
}

func (e *ToolError) Error() string { return "tool error " + e.Code + ": " + e.Message }

// HTTPError is a refusal of the request itself, such as 401
// signature_invalid or 413 payload_too_large.
type HTTPError struct {
	Status int
	Code   string `json:"error"`
	Detail string `json:"detail"`
}

func (e *HTTPError) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("node answered %d %s: %s", e.Status, e.Code, e.Detail)
	}
	return fmt.Sprintf("node answered %d %s", e.Status, e.Code)
}

// ErrOffline means no TLS connection to the node could be made. It does not
// mean that the user does not exist.
var ErrOffline = errors.New("node unreachable")

// NewSession returns a session for cfg. It does no I/O; the first Call
// (or Initialize) opens the session.
func NewSession(cfg Config) (*Session, error) {
	if cfg.Node == "" || cfg.Signer == nil {
		return nil, errors.New("agent: a node hostname and a signer are required")
	}
	c := cfg.HTTPClient
	if c == nil {
		c = &http.Client{
			Transport: &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS13}, ForceAttemptHTTP2: true,
				TLSHandshakeTimeout: 10 * time.Second},
			Timeout: 30 * time.Second,
		}
	}
	// Redirects would break the signature and send the request elsewhere.
	cc := *c
	cc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if cfg.ClientName == "" {
		cfg.ClientName, cfg.ClientVersion = "mailnode-agent-sdk", "1"
	}
	return &Session{cfg: cfg, client: &cc, url: "https://" + cfg.Node + "/mcp", nextID: 1}, nil
}

// Initialize opens the session, once: server/discover at
// ProtocolVersion, or, when the node refuses that revision, initialize
// and notifications/initialized at LegacyProtocolVersion; then tools/list.
func (s *Session) Initialize(ctx context.Context) error {
	s.mu.Lock()
	done := s.tools != nil
	s.mu.Unlock()
	if done {
		return nil
	}
	version, err := s.discover(ctx)
	if err != nil {
		return err
	}
	if version == "" {
		if err := s.initializeLegacy(ctx); err != nil {
			return err
		}
		version = LegacyProtocolVersion
	}
	var list struct {
		Tools []Tool `json:"tools"`
	}
	if err := s.rpcAt(ctx, version, "tools/list", nil, &list); err != nil {
		return err
	}
	if list.Tools == nil {
		list.Tools = []Tool{}
	}
	s.mu.Lock()
	s.tools, s.version = list.Tools, version
	s.mu.Unlock()
	return nil
}

// discover asks the node for ProtocolVersion with server/discover. It
// returns ProtocolVersion when the node serves it, "" when the node
// refuses that revision (a JSON-RPC error, such as -32022 naming what it
// serves or -32601 from a node that has no server/discover, or an HTTP
// 400 from one whose MCP library does not know the revision), and an
// error for anything else: the node unreachable, the signature refused.
func (s *Session) discover(ctx context.Context) (string, error) {
	var res struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	err := s.rpcAt(ctx, ProtocolVersion, "server/discover", nil, &res)
	var re *RPCError
	var he *HTTPError
	switch {
	case err == nil && slices.Contains(res.SupportedVersions, ProtocolVersion):
		return ProtocolVersion, nil
	case err == nil, errors.As(err, &re):
		return "", nil
	case errors.As(err, &he) && (he.Status == http.StatusBadRequest || he.Status == http.StatusNotFound):
		return "", nil
	}
	return "", err
}

// initializeLegacy runs initialize and notifications/initialized at
// LegacyProtocolVersion.
func (s *Session) initializeLegacy(ctx context.Context) error {
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	err := s.rpcAt(ctx, LegacyProtocolVersion, "initialize", map[string]any{
		"protocolVersion": LegacyProtocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]string{"name": s.cfg.ClientName, "version": s.cfg.ClientVersion},
	}, &init)
	if err != nil {
		return err
	}
	if init.ProtocolVersion != LegacyProtocolVersion {
		return fmt.Errorf("agent: node speaks MCP %q, not %q", init.ProtocolVersion, LegacyProtocolVersion)
	}
	return s.rpcAt(ctx, LegacyProtocolVersion, "notifications/initialized", nil, nil)
}

// Version returns the MCP revision the session speaks with the node,
// ProtocolVersion or LegacyProtocolVersion, once Initialize has run; ""
// before.
func (s *Session) Version() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Tools returns the node's tools, after Initialize.
func (s *Session) Tools() []Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tools
}

// Call calls a tool and returns its JSON output. A call that waits for the
// user returns *ApprovalRequired; other tool errors are *ToolError. When
// the node is unreachable and a queue is configured, the call is queued
// and *QueuedError returned.
func (s *Session) Call(ctx context.Context, name string, args any) (json.RawMessage, error) {
	if args == nil {
		args = map[string]any{}
	}
	params := map[string]any{"name": name, "arguments": args}
	if err := s.Initialize(ctx); err != nil {
		if errors.Is(err, ErrOffline) && s.cfg.Queue != nil {
			return nil, s.enqueue(ctx, params)
		}
		return nil, err
	}
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := s.rpcAt(ctx, s.Version(), "tools/call", params, &res); err != nil {
		if errors.Is(err, ErrOffline) && s.cfg.Queue != nil {
			return nil, s.enqueue(ctx, params)
		}
		return nil, err
	}
	if len(res.Content) == 0 || res.Content[0].Type != "text" {
		return nil, errors.New("agent: tool result without text content")
	}
	text := json.RawMessage(res.Content[0].Text)
	if !json.Valid(text) {
		return nil, errors.New("agent: tool result text is not JSON")
	}
	var probe struct {
		Error string `json:"error"`
	}
	json.Unmarshal(text, &probe)
	switch {
	case probe.Error == agentproto.CodeApprovalRequired:
		var ar ApprovalRequired
		json.Unmarshal(text, &ar)
		return nil, &ar
	case res.IsError || probe.Error != "":
		var te ToolError
		json.Unmarshal(text, &te)
		return nil, &te
	}
	return text, nil
}

// CallAndWait calls a tool and, while the node answers approval_required,
// tells show (once per approval request) and retries the same call every
// interval until it runs, is refused, the request expires or ctx ends.
func (s *Session) CallAndWait(ctx context.Context, name string, args any, interval time.Duration, show func(*ApprovalRequired)) (json.RawMessage, error) {
	if interval <= 0 {
		interval = 2 * time.Second
	}
	shown := ""
	for {
		out, err := s.Call(ctx, name, args)
		var qe *QueuedError
		if errors.As(err, &qe) {
			// The node was away: the call waits in the relay's queue.
			// Once the node has taken it (it opened the approval, if one
			// is needed, so the person could decide meanwhile), the same
			// call is made again live: that is the one that runs.
			if s.cfg.OnQueued != nil {
				s.cfg.OnQueued(qe)
			}
			if err := s.AwaitQueued(ctx, qe.RequestID, interval); err != nil {
				return nil, err
			}
			continue
		}
		var te *ToolError
		if errors.As(err, &te) && te.Code == "rate_limited" {
			// Polling faster than the node's per-agent rate is not a
			// refusal: wait what the node said and ask again.
			wait := max(interval, time.Duration(max(te.RetryAfter, 1))*time.Second)
			select {
			case <-ctx.Done():
				return nil, fmt.Errorf("waiting out the node's rate limit: %w", ctx.Err())
			case <-time.After(wait):
			}
			continue
		}
		var ar *ApprovalRequired
		if !errors.As(err, &ar) {
			return out, err
		}
		if ar.ApprovalID != shown && show != nil {
			show(ar)
			shown = ar.ApprovalID
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for approval %s: %w", ar.ApprovalID, ctx.Err())
		case <-time.After(interval):
		}
	}
}

// AwaitQueued waits, every interval, until the node has taken the queued
// request id or answers live again. The node posts a reply only for a call
// the person already allowed, sealed to itself (docs/relay.md, "On the
// node"): it says nothing to the agent but that the node took the call.
// For any other call the relay answers 204 until the request expires, so
// the node is also tried live, with a signed ping; once it answers, retry
// the call live. An expired or unknown request is an error.
func (s *Session) AwaitQueued(ctx context.Context, id string, interval time.Duration) error {
	if s.cfg.Queue == nil {
		return errors.New("agent: no queue configured")
	}
	for {
		_, ready, err := s.cfg.Queue.Relay.Reply(ctx, id)
		wait := interval
		var re *RelayError
		switch {
		case errors.As(err, &re) && re.Status == http.StatusTooManyRequests:
			wait = max(interval, time.Minute) // the relay's Retry-After
		case err != nil:
			return fmt.Errorf("queued request %s: %w", id, err)
		case ready:
			return nil
		}
		if s.reachable(ctx, interval) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the node to take queued request %s: %w", id, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// reachable reports whether the node answers a signed ping live now: any
// HTTP answer counts (a refusal too: the live retry will meet it), as
// only the node completes TLS for its name. A probe is cut after
// max(interval, 5 s), so that a node that came back meanwhile is not
// waited for behind a stalled handshake.
func (s *Session) reachable(ctx context.Context, interval time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, max(interval, 5*time.Second))
	defer cancel()
	s.mu.Lock()
	id := s.nextID
	s.nextID++
	s.mu.Unlock()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "ping"})
	req, err := s.newRequest(ctx, body, nil)
	if err != nil {
		return false
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return true
}

// stateless reports whether MCP revision v has no initialize and carries
// _meta and the Mcp-* headers on every request.
func stateless(v string) bool { return v >= ProtocolVersion }

// message is a JSON-RPC message of MCP revision version, with its
// headers: under a stateless revision the params carry _meta (the
// protocol version, the client's capabilities and name) and the headers
// name the revision, the method and, for tools/call, the tool, as the body
// does. They are not signed (docs/signatures.md, "MCP headers"). id 0
// makes a notification.
func (s *Session) message(version, method string, params map[string]any, id int) ([]byte, http.Header, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	h := http.Header{}
	if stateless(version) {
		p := make(map[string]any, len(params)+1)
		maps.Copy(p, params)
		p["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    version,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			"io.modelcontextprotocol/clientInfo":         map[string]string{"name": s.cfg.ClientName, "version": s.cfg.ClientVersion},
		}
		params = p
		h.Set("Mcp-Protocol-Version", version)
		h.Set("Mcp-Method", method)
		if name, ok := params["name"].(string); ok && method == "tools/call" {
			h.Set("Mcp-Name", name)
		}
	} else if version != "" && method != "initialize" {
		// After initialize, a 2025 revision names itself on every
		// request (Streamable HTTP, "Protocol Version Header").
		h.Set("Mcp-Protocol-Version", version)
	}
	if params != nil {
		msg["params"] = params
	}
	if id != 0 {
		msg["id"] = id
	}
	body, err := json.Marshal(msg)
	if err != nil {
		return nil, nil, fmt.Errorf("agent: %s: %w", method, err)
	}
	return body, h, nil
}

// rpcAt sends one signed JSON-RPC message of MCP revision version ("":
// the contract's, with no Mcp-* headers, for a node never reached);
// result is nil for a notification.
func (s *Session) rpcAt(ctx context.Context, version, method string, params map[string]any, result any) error {
	id := 0
	if result != nil {
		s.mu.Lock()
		id = s.nextID
		s.nextID++
		s.mu.Unlock()
	}
	body, h, err := s.message(version, method, params, id)
	if err != nil {
		return err
	}
	req, err := s.newRequest(ctx, body, h)
	if err != nil {
		return err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		if ue := untrustedCert(s.cfg.Node, err); ue != nil {
			return ue
		}
		if isConnectError(err) {
			return fmt.Errorf("%w: %s: %w", ErrOffline, s.cfg.Node, err)
		}
		return fmt.Errorf("agent: %s: %w", method, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("agent: %s: %w", method, err)
	}
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" && !stateless(version) {
		s.mu.Lock()
		s.sessionID = sid
		s.mu.Unlock()
	}
	var rpcResp struct {
		Result json.RawMessage `json:"result"`
		Error  *RPCError       `json:"error"`
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusAccepted {
		// A JSON-RPC error may come with a 4xx status (an MCP revision
		// refused, Mcp-* headers that disagree with the body).
		if json.Unmarshal(data, &rpcResp) == nil && rpcResp.Error != nil {
			rpcResp.Error.Method = method
			return rpcResp.Error
		}
		return httpError(resp.StatusCode, data)
	}
	if result == nil {
		return nil
	}
	if resp.StatusCode != http.StatusOK {
		return httpError(resp.StatusCode, data)
	}
	if err := json.Unmarshal(data, &rpcResp); err != nil {
		return fmt.Errorf("agent: %s: malformed response: %w", method, err)
	}
	if rpcResp.Error != nil {
		rpcResp.Error.Method = method
		return rpcResp.Error
	}
	if err := json.Unmarshal(rpcResp.Result, result); err != nil {
		return fmt.Errorf("agent: %s: malformed result: %w", method, err)
	}
	return nil
}

// newRequest builds and signs a POST /mcp with the headers every call
// carries.
// headers (the Mcp-* headers of a stateless revision) are sent as they
// are.
func (s *Session) newRequest(ctx context.Context, body []byte, headers http.Header) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	// A keep-alive connection can die just as it is reused (the server
	// or a relay between closed it). The header lets net/http send the
	// identical signed request again on a new connection when nothing
	// came back; if the first copy did reach the node, its nonce makes
	// the node refuse the second, so a call never runs twice.
	req.Header.Set("Idempotency-Key", rand.Text())
	for k, v := range headers {
		req.Header[k] = v
	}
	s.mu.Lock()
	if s.sessionID != "" && headers.Get("Mcp-Protocol-Version") == "" {
		req.Header.Set("Mcp-Session-Id", s.sessionID)
	}
	s.mu.Unlock()
	if err := s.cfg.Signer.Sign(req, body); err != nil {
		return nil, err
	}
	return req, nil
}

func httpError(status int, body []byte) error {
	e := &HTTPError{Status: status}
	if json.Unmarshal(body, e) != nil || e.Code == "" {
		e.Code = http.StatusText(status)
		e.Detail = strings.TrimSpace(string(body))
		if len(e.Detail) > 200 {
			e.Detail = e.Detail[:200]
		}
	}
	return e
}

// isConnectError reports whether err happened before a TLS session with
// the node existed: the cases the protocol sends to the offline queue. A
// certificate that fails verification is not one: something answered TLS
// for the node's name, so the node is online (UntrustedCertError).
func isConnectError(err error) bool {
	if isCertError(err) {
		return false
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var rec tls.RecordHeaderError
	// An unregistered address resolves to a decoy that accepts TCP and
	// never completes TLS, like an offline node: the handshake times out.
	return errors.As(err, &rec) ||
		strings.Contains(err.Error(), "TLS handshake timeout") || strings.Contains(err.Error(), "tls: ")
}

// UntrustedCertError means the node's name answered TLS with a
// certificate the agent does not trust. The node is online, so the call is
// not left in the offline queue: it would wait there for a node that is
// already here. The usual cause is a development node whose CA the agent
// was not given (mailnode-agent --ca DATA_DIR/ca/ca.pem).
type UntrustedCertError struct {
	// Node is the hostname[:port] the agent dialled.
	Node string
	// Issuer names who issued the certificate presented (its issuer's
	// distinguished name and, when it has one, the issuer's key id, as
	// every node's own CA has the same name).
	Issuer string
	// Err is the verification error (x509.UnknownAuthorityError,
	// x509.HostnameError, ...).
	Err error
}

func (e *UntrustedCertError) Error() string {
	return fmt.Sprintf("the node %s presented a certificate the agent does not trust, issued by %s: %v", e.Node, e.Issuer, e.Err)
}

func (e *UntrustedCertError) Unwrap() error { return e.Err }

// isCertError reports whether err is a failed verification of the
// certificate a TLS server presented.
func isCertError(err error) bool {
	var cv *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	return errors.As(err, &cv) || errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci)
}

// untrustedCert returns the *UntrustedCertError for a request error that
// is a failed certificate verification, or nil.
func untrustedCert(node string, err error) *UntrustedCertError {
	if !isCertError(err) {
		return nil
	}
	var cert *x509.Certificate
	reason := err
	var cv *tls.CertificateVerificationError
	if errors.As(err, &cv) {
		reason = cv.Err
		if len(cv.UnverifiedCertificates) > 0 {
			cert = cv.UnverifiedCertificates[0]
		}
	}
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	switch {
	case cert != nil:
	case errors.As(err, &ua):
		cert = ua.Cert
	case errors.As(err, &he):
		cert = he.Certificate
	case errors.As(err, &ci):
		cert = ci.Cert
	}
	return &UntrustedCertError{Node: node, Issuer: issuerOf(cert), Err: reason}
}

// issuerOf names a certificate's issuer for a person: its distinguished
// name, and the issuer's key id, which tells two CAs of the same name
// apart.
func issuerOf(cert *x509.Certificate) string {
	if cert == nil {
		return "an unknown issuer"
	}
	name := fmt.Sprintf("%q", cert.Issuer.String())
	if len(cert.AuthorityKeyId) > 0 {
		// Colon-separated, as openssl x509 -ext subjectKeyIdentifier
		// prints a CA file's own key id.
		hex := make([]string, len(cert.AuthorityKeyId))
		for i, b := range cert.AuthorityKeyId {
			hex[i] = fmt.Sprintf("%02X", b)
		}
		name += " (key id " + strings.Join(hex, ":") + ")"
	}
	return name
}
