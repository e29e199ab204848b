package agent

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/nacl/box"

	"mailnode/relay"
)

// Relay is the client side of a relay's agent endpoints: resolve and the
// offline queue (protocol.md, "Relay").
type Relay struct {
	// BaseURL is the relay's base, e.g. "https://relay.example.net".
	BaseURL string
	// HTTPClient defaults to one with a 30 s timeout.
	HTTPClient *http.Client
}

// RelayError is an error answer of the relay: {error, detail}.
type RelayError struct {
	Status     int
	Code       string // relay.Error.Code
	Detail     string
	RetryAfter time.Duration
}

func (e *RelayError) Error() string {
	return fmt.Sprintf("relay answered %d %s %s", e.Status, e.Code, e.Detail)
}

func (r *Relay) client() *http.Client {
	if r.HTTPClient != nil {
		return r.HTTPClient
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// Resolve maps an e-mail address to its node.
func (r *Relay) Resolve(ctx context.Context, address string) (relay.Resolution, error) {
	var res relay.Resolution
	err := r.post(ctx, strings.TrimSuffix(r.BaseURL, "/")+relay.PathResolve, relay.ResolveRequest{Address: address}, http.StatusOK, &res)
	if err != nil {
		return relay.Resolution{}, err
	}
	if !res.Complete() {
		return relay.Resolution{}, errors.New("relay: incomplete resolve result")
	}
	return res, nil
}

// Enqueue leaves a sealed envelope for the node. requestID makes retries
// idempotent.
func (r *Relay) Enqueue(ctx context.Context, queueEndpoint, hostname, envelope, requestID string) (relay.Queued, error) {
	var q relay.Queued
	u := strings.TrimSuffix(queueEndpoint, "/") + "/" + url.PathEscape(hostname)
	body := relay.QueueRequest{Envelope: envelope, RequestID: requestID}
	if err := r.post(ctx, u, body, http.StatusAccepted, &q); err != nil {
		return relay.Queued{}, err
	}
	return q, nil
}

// Reply polls for the reply to a queued request: ready is false while it
// is pending. The envelope is sealed to the node's key, not the agent's;
// the intended use is to retry the call live once the node is back.
func (r *Relay) Reply(ctx context.Context, requestID string) (envelope string, ready bool, err error) {
	u := strings.TrimSuffix(r.BaseURL, "/") + relay.PathQueueReply + "/" + url.PathEscape(requestID)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", false, err
	}
	resp, err := r.client().Do(req)
	if err != nil {
		return "", false, fmt.Errorf("relay: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusNoContent:
		return "", false, nil
	case http.StatusOK:
		var v relay.Reply
		if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&v); err != nil {
			return "", false, fmt.Errorf("relay: malformed reply: %w", err)
		}
		return v.Envelope, true, nil
	}
	return "", false, relayError(resp)
}

func (r *Relay) post(ctx context.Context, u string, body any, want int, out any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.client().Do(req)
	if err != nil {
		return fmt.Errorf("relay: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		return relayError(resp)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out); err != nil {
		return fmt.Errorf("relay: malformed answer: %w", err)
	}
	return nil
}

func relayError(resp *http.Response) error {
	var body relay.Error
	json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&body)
	e := &RelayError{Status: resp.StatusCode, Code: body.Code, Detail: body.Detail}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	if e.Code == "" {
		e.Code = http.StatusText(resp.StatusCode)
	}
	return e
}

// Queue is where a session leaves calls while its node is unreachable.
type Queue struct {
	Relay      *Relay
	Resolution relay.Resolution
}

// QueuedError is the result of a call that went to the offline queue. The
// node runs it when it is back; retry the same call live later for the
// answer.
type QueuedError struct {
	relay.Queued
}

func (e *QueuedError) Error() string {
	return fmt.Sprintf("node unreachable; call queued at the relay as %s until %s", e.RequestID,
		time.Unix(e.ExpiresAt, 0).UTC().Format(time.RFC3339))
}

// Seal builds the sealed envelope of a signed request: the request's
// method, path, lower-case headers and JSON body, sealed with an
// anonymous sealed box (X25519, XSalsa20-Poly1305) to the node's box key,
// base64url-encoded.
func Seal(boxPubKey string, req *http.Request, body []byte) (string, error) {
	pk, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(boxPubKey, "="))
	if err != nil || len(pk) != 32 {
		return "", errors.New("agent: box_pubkey is not a base64url X25519 key")
	}
	h := map[string]string{"host": req.URL.Host}
	for _, k := range []string{"Content-Type", "Accept", "Content-Digest", "Signature-Input", "Signature"} {
		h[strings.ToLower(k)] = req.Header.Get(k)
	}
	// A 2026-07-28 request's headers (docs/protocol.md, "Queue envelopes
	// of 2026-07-28").
	for _, k := range []string{"Mcp-Protocol-Version", "Mcp-Method", "Mcp-Name"} {
		if v := req.Header.Get(k); v != "" {
			h[strings.ToLower(k)] = v
		}
	}
	plain, err := json.Marshal(relay.Envelope{Method: req.Method, Path: req.URL.Path, Headers: h, Body: body})
	if err != nil {
		return "", fmt.Errorf("agent: seal: %w", err)
	}
	var key [32]byte
	copy(key[:], pk)
	sealed, err := box.SealAnonymous(nil, plain, &key, rand.Reader)
	if err != nil {
		return "", fmt.Errorf("agent: seal: %w", err)
	}
	if len(sealed) > relay.MaxEnvelope {
		return "", fmt.Errorf("agent: sealed envelope of %d bytes is over the relay's %d", len(sealed), relay.MaxEnvelope)
	}
	return base64.RawURLEncoding.EncodeToString(sealed), nil
}

// enqueue signs a tools/call for the node's public URL, exactly as a live
// call, seals it and leaves it at the relay.
func (s *Session) enqueue(ctx context.Context, params map[string]any) error {
	q := s.cfg.Queue
	s.mu.Lock()
	id := s.nextID
	s.nextID++
	s.mu.Unlock()
	// A node never reached live is sent the contract's revision, which
	// every node serves; one that spoke 2026-07-28 live, that revision,
	// its headers sealed with the rest.
	body, h, err := s.message(s.Version(), "tools/call", params, id)
	if err != nil {
		return err
	}
	req, err := s.newRequest(ctx, body, h)
	if err != nil {
		return err
	}
	env, err := Seal(q.Resolution.BoxPubKey, req, body)
	if err != nil {
		return err
	}
	rid := make([]byte, 16)
	rand.Read(rid)
	receipt, err := q.Relay.Enqueue(ctx, q.Resolution.QueueEndpoint, q.Resolution.Hostname, env, base64.RawURLEncoding.EncodeToString(rid))
	if err != nil {
		return fmt.Errorf("node unreachable, and the offline queue refused the call: %w", err)
	}
	return &QueuedError{receipt}
}
