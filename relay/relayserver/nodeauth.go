package relayserver

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"mailnode/relay"
)

// maxNodeBody bounds a self-service request body.
const maxNodeBody = 16 << 10

// nodeCall wraps a self-service handler: it runs only for a request
// signed with the Ed25519 key in its headers (relay.NodeSigningString),
// within the allowed clock skew, with a nonce not seen before, and from a
// client within its rate. The handler gets the verified key and the body.
func (s *Server) nodeCall(h func(ctx context.Context, w http.ResponseWriter, key ed25519.PublicKey, body []byte)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.limits.allow(clientKey(r.RemoteAddr)) {
			s.rateLimited(w)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxNodeBody))
		if err != nil {
			writeError(w, http.StatusBadRequest, "bad_request", "body too large or unreadable")
			return
		}
		key, reason := s.verifyNode(r, body)
		if reason != "" {
			writeError(w, http.StatusUnauthorized, "unauthorized", reason)
			return
		}
		h(context.WithValue(r.Context(), remoteKey{}, r.RemoteAddr), w, key, body)
	}
}

// remoteKey holds, in a self-service handler's context, the client's
// address (http.Request.RemoteAddr), for the counts kept per network.
type remoteKey struct{}

// remoteOf is the client address nodeCall put in ctx.
func remoteOf(ctx context.Context) string {
	a, _ := ctx.Value(remoteKey{}).(string)
	return a
}

// verifyNode checks a self-service signature; reason says why it failed.
func (s *Server) verifyNode(r *http.Request, body []byte) (ed25519.PublicKey, string) {
	k, err := relay.DecodeKey(r.Header.Get(relay.HeaderNodeKey))
	if err != nil {
		return nil, "missing or malformed " + relay.HeaderNodeKey
	}
	t, err := strconv.ParseInt(r.Header.Get(relay.HeaderNodeTime), 10, 64)
	if err != nil {
		return nil, "missing or malformed " + relay.HeaderNodeTime
	}
	now := s.cfg.Now()
	if d := now.Unix() - t; d > relay.NodeClockSkew || d < -relay.NodeClockSkew {
		return nil, "request time too far from the relay's clock"
	}
	nonce := r.Header.Get(relay.HeaderNodeNonce)
	if n, err := base64.RawURLEncoding.DecodeString(nonce); err != nil || len(n) < 16 || len(n) > 64 {
		return nil, "missing or malformed " + relay.HeaderNodeNonce
	}
	sig, err := base64.RawURLEncoding.DecodeString(r.Header.Get(relay.HeaderNodeSig))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return nil, "missing or malformed " + relay.HeaderNodeSig
	}
	msg := relay.NodeSigningString(r.Method, r.Host, r.URL.Path, t, nonce, body)
	if !ed25519.Verify(k, msg, sig) {
		return nil, "signature does not verify"
	}
	// Spent only once the signature holds, so nobody burns a node's
	// nonces.
	if !s.nonces.spend(nonce, now) {
		return nil, "replayed request"
	}
	return ed25519.PublicKey(k), ""
}

// nonceCache remembers spent nonces for twice the clock skew, long
// enough that a request outside it is refused by its time instead.
type nonceCache struct {
	mu    sync.Mutex // guards the fields below
	seen  map[string]time.Time
	swept time.Time
}

func newNonceCache() *nonceCache { return &nonceCache{seen: map[string]time.Time{}} }

func (c *nonceCache) spend(nonce string, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	keep := 2 * relay.NodeClockSkew * time.Second
	if now.Sub(c.swept) > time.Minute {
		for k, t := range c.seen {
			if now.Sub(t) > keep {
				delete(c.seen, k)
			}
		}
		c.swept = now
	}
	if _, ok := c.seen[nonce]; ok {
		return false
	}
	c.seen[nonce] = now
	return true
}
