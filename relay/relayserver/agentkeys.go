package relayserver

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"net"
	"net/http"
	"regexp"
	"strings"
	"time"

	"mailnode/relay"
	"mailnode/relay/relaystore"
)

// Most people have no domain to publish an agent key document on. The
// relay hosts one per key at https://<label>.agents.<zone>/.well-known/
// svc-agent, where label is derived from the key itself: registering is
// idempotent, and nobody can put another key at a taken name.

var kidPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// agentLabelOf is the hosted name's label for an agent key.
func agentLabelOf(key []byte) string {
	sum := sha256.Sum256(append([]byte("mailnode-agent-v1\n"), key...))
	return labelEncoding.EncodeToString(sum[:10])
}

// agentLabel returns the label when host is <label>.agents.<zone>.
func (s *Server) agentLabel(host string) (string, bool) {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return labelOf(host, "agents."+s.cfg.Zone)
}

// agentKeys answers POST /v1/agent/keys, signed with the agent's own key.
func (s *Server) agentKeys(ctx context.Context, w http.ResponseWriter, key ed25519.PublicKey, body []byte) {
	var req relay.AgentKeysRequest
	if err := decodeStrict(body, &req); err != nil || !kidPattern.MatchString(req.Kid) {
		writeError(w, http.StatusBadRequest, "bad_request", "body must be {kid} with 1-64 of A-Z a-z 0-9 . _ -")
		return
	}
	label := agentLabelOf(key)
	net := s.queue.networkFor("agent", remoteOf(ctx))
	a := relaystore.Agent{Label: label, Kid: req.Kid, Key: key, Created: s.cfg.Now(), Net: net}
	var err error
	if _, err = s.store.AgentByLabel(ctx, label); errors.Is(err, relaystore.ErrNotFound) {
		// A new agent: within the relay's hour, and within the client
		// network's share of it, so that one network cannot take the
		// hour from everyone; counted and stored in one step, so that
		// racing requests cannot pass either. A key already here costs
		// nothing.
		err = s.store.AddAgent(ctx, a, s.cfg.Now().Add(-time.Hour), s.cfg.Limits.AgentsPerHour, s.cfg.Limits.AgentsPerNetwork)
	} else if err == nil {
		err = s.store.PutAgent(ctx, a)
	}
	if errors.Is(err, relaystore.ErrAgentLimit) {
		s.rateLimited(w)
		return
	}
	if err != nil {
		s.log.Error("Cannot store agent", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	domain := label + ".agents." + s.cfg.Zone
	writeJSON(w, http.StatusOK, relay.AgentKeysResult{Domain: domain, KeyID: domain + "#" + req.Kid})
}

// serveAgentDocument serves a hosted agent's key document
// (docs/protocol.md, "Agent key document").
func (s *Server) serveAgentDocument(w http.ResponseWriter, r *http.Request, label string) {
	if r.URL.Path != "/.well-known/svc-agent" || r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeError(w, http.StatusNotFound, "not_found", "")
		return
	}
	if !s.limits.allow(clientKey(r.RemoteAddr)) {
		s.rateLimited(w)
		return
	}
	a, err := s.store.AgentByLabel(r.Context(), label)
	if errors.Is(err, relaystore.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not_found", "")
		return
	}
	if err != nil {
		s.log.Error("Cannot read agent", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	w.Header().Set("Cache-Control", "max-age=300")
	writeJSON(w, http.StatusOK, map[string]any{
		"domain": strings.ToLower(label + ".agents." + s.cfg.Zone),
		"keys":   []map[string]string{{"kid": a.Kid, "kty": "OKP", "crv": "Ed25519", "x": relay.EncodeKey(a.Key)}},
	})
}
