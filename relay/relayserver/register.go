package relayserver

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"mailnode/relay"
	"mailnode/relay/relaystore"
)

const (
	// codeTTL is how long a mailed code stays good.
	codeTTL = time.Hour
	// maxCodeAttempts wrong codes end a pending registration.
	maxCodeAttempts = 5
	// mailInterval is the least time between two code mails to one
	// address, so the relay cannot be used to flood a mailbox.
	mailInterval = time.Minute
)

// codeAlphabet has no 0/O or 1/I/L, as a person may type a code.
const codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// newCode returns a code of 10 characters (about 49 bits) as XXXXX-XXXXX.
func newCode() string {
	b := make([]byte, 10)
	rand.Read(b)
	var sb strings.Builder
	for i, c := range b {
		if i == 5 {
			sb.WriteByte('-')
		}
		sb.WriteByte(codeAlphabet[int(c)%len(codeAlphabet)])
	}
	return sb.String()
}

func hashCode(code string) []byte {
	code = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(code), "-", ""))
	sum := sha256.Sum256([]byte(code))
	return sum[:]
}

func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

// register answers POST /v1/register: it mails a code to the address.
// Anyone may ask; only who reads the mailbox can confirm, and only with
// the key that asked.
func (s *Server) register(ctx context.Context, w http.ResponseWriter, key ed25519.PublicKey, body []byte) {
	var req relay.RegisterRequest
	if err := decodeStrict(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "body must be {address, box_key}")
		return
	}
	address, ok := NormalizeAddress(req.Address)
	if !ok {
		writeError(w, http.StatusBadRequest, "invalid_address", "address must look like local@domain.tld")
		return
	}
	box, err := relay.DecodeKey(req.BoxKey)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "box_key: "+err.Error())
		return
	}
	if s.cfg.Mailer == nil {
		writeError(w, http.StatusServiceUnavailable, "registration_closed", "this relay does not take registrations")
		return
	}
	now := s.cfg.Now()
	s.mu.Lock()
	last, seen := s.mailedAt[address]
	if seen && now.Sub(last) < mailInterval {
		s.mu.Unlock()
		rateLimited(w)
		return
	}
	s.mailedAt[address] = now
	for a, t := range s.mailedAt {
		if now.Sub(t) > mailInterval {
			delete(s.mailedAt, a)
		}
	}
	s.mu.Unlock()

	code := newCode()
	p := relaystore.Pending{Address: address, NodeKey: key, BoxKey: box, CodeHash: hashCode(code), Expires: now.Add(codeTTL)}
	if err := s.store.PutPending(ctx, p); err != nil {
		s.log.Error("Cannot store registration", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	if err := s.cfg.Mailer.SendCode(ctx, address, code); err != nil {
		s.log.Warn("Cannot mail confirmation code", "err", err)
		writeError(w, http.StatusBadGateway, "mail_failed", "the confirmation code could not be mailed; try again later")
		return
	}
	s.log.Info("Mailed confirmation code", "nodeKey", relay.EncodeKey(key))
	writeJSON(w, http.StatusAccepted, relay.RegisterPending{Address: address, From: s.cfg.Mailer.From(),
		Subject: relay.CodeSubject, ExpiresAt: p.Expires.Unix()})
}

// confirm answers POST /v1/register/confirm. The right code, sent with
// the key that registered, makes the node the address's: a node that
// proves the mailbox again (a new key after a lost one) keeps its name.
func (s *Server) confirm(ctx context.Context, w http.ResponseWriter, key ed25519.PublicKey, body []byte) {
	var req relay.ConfirmRequest
	if err := decodeStrict(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "body must be {address, code}")
		return
	}
	address, ok := NormalizeAddress(req.Address)
	if !ok {
		writeError(w, http.StatusBadRequest, "invalid_address", "address must look like local@domain.tld")
		return
	}
	p, err := s.store.PendingFor(ctx, address, key)
	if errors.Is(err, relaystore.ErrNotFound) || err == nil && s.cfg.Now().After(p.Expires) {
		writeError(w, http.StatusNotFound, "not_found", "no pending registration for this address and key")
		return
	}
	if err != nil {
		s.log.Error("Cannot read registration", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	if p.Attempts >= maxCodeAttempts {
		s.store.DeletePending(ctx, address, key)
		writeError(w, http.StatusForbidden, "wrong_code", "too many wrong codes; register again")
		return
	}
	if subtle.ConstantTimeCompare(hashCode(req.Code), p.CodeHash) != 1 {
		if err := s.store.FailPending(ctx, address, key); err != nil {
			s.log.Error("Cannot count attempt", "err", err)
		}
		writeError(w, http.StatusForbidden, "wrong_code", "that is not the code mailed for this registration")
		return
	}
	n := relaystore.Node{Address: address, NodeKey: key, BoxKey: p.BoxKey, RegisteredAt: s.cfg.Now()}
	old, err := s.store.NodeByAddress(ctx, address)
	switch {
	case err == nil:
		n.Label = old.Label
	case errors.Is(err, relaystore.ErrNotFound):
		n.Label = NewLabel()
	default:
		s.log.Error("Cannot read node", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	if err := s.store.PutNode(ctx, n); err != nil {
		s.log.Error("Cannot store node", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	s.store.DeletePending(ctx, address, key)
	if err == nil && !bytes.Equal(old.NodeKey, key) {
		s.tunnels.drop(old.Label) // the old key's tunnel no longer speaks for the name
	}
	s.log.Info("Registered node", "hostname", s.Hostname(n.Label))
	writeJSON(w, http.StatusOK, s.status(n))
}

func (s *Server) status(n relaystore.Node) relay.NodeStatus {
	return relay.NodeStatus{
		Address: n.Address, Hostname: s.Hostname(n.Label),
		NodeKey: relay.EncodeKey(n.NodeKey), BoxKey: relay.EncodeKey(n.BoxKey),
		Tunnel: s.cfg.TunnelAddr, Tunnels: s.cfg.OtherTunnelAddrs, Connected: s.tunnels.connected(n.Label),
		RegisteredAt: n.RegisteredAt.Unix(),
	}
}

// node returns the node holding key, or answers 404 not_registered.
func (s *Server) node(ctx context.Context, w http.ResponseWriter, key ed25519.PublicKey) (relaystore.Node, bool) {
	n, err := s.store.NodeByKey(ctx, key)
	if errors.Is(err, relaystore.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not_registered", "no node is registered with this key")
		return n, false
	}
	if err != nil {
		s.log.Error("Cannot read node", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return n, false
	}
	return n, true
}

func (s *Server) nodeStatus(ctx context.Context, w http.ResponseWriter, key ed25519.PublicKey, _ []byte) {
	if n, ok := s.node(ctx, w, key); ok {
		writeJSON(w, http.StatusOK, s.status(n))
	}
}

// rotateKeys answers POST /v1/node/keys: signed by the current key, with
// the new key's proof that its holder asked.
func (s *Server) rotateKeys(ctx context.Context, w http.ResponseWriter, key ed25519.PublicKey, body []byte) {
	var req relay.KeysRequest
	if err := decodeStrict(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "body must be {node_key, box_key, proof}")
		return
	}
	nk, err1 := relay.DecodeKey(req.NodeKey)
	bk, err2 := relay.DecodeKey(req.BoxKey)
	proof, err3 := base64.RawURLEncoding.DecodeString(req.Proof)
	if err1 != nil || err2 != nil || err3 != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "keys and proof must be base64url")
		return
	}
	if !ed25519.Verify(nk, relay.RotationString(key), proof) {
		writeError(w, http.StatusBadRequest, "bad_proof", "the new key's proof does not verify")
		return
	}
	n, ok := s.node(ctx, w, key)
	if !ok {
		return
	}
	if err := s.store.RotateKeys(ctx, key, nk, bk); err != nil {
		s.log.Error("Cannot rotate keys", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	s.tunnels.drop(n.Label)
	n.NodeKey, n.BoxKey = nk, bk
	writeJSON(w, http.StatusOK, s.status(n))
}

// deleteNode answers DELETE /v1/node: the address is unregistered (it
// resolves to its decoy again) and the tunnel closed.
func (s *Server) deleteNode(ctx context.Context, w http.ResponseWriter, key ed25519.PublicKey, _ []byte) {
	n, ok := s.node(ctx, w, key)
	if !ok {
		return
	}
	if err := s.store.DeleteNode(ctx, key); err != nil && !errors.Is(err, relaystore.ErrNotFound) {
		s.log.Error("Cannot delete node", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	s.tunnels.drop(n.Label)
	w.WriteHeader(http.StatusNoContent)
}
