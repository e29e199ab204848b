package relayserver

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base32"
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
	// codeTTL is how long a mailed code stays good. An address has one
	// live code at a time, whoever asked for it, so this also spaces the
	// code mails to an address: at most 24 h / codeTTL a day.
	codeTTL = 4 * time.Hour
	// maxCodeMails bounds the code mails to one mailbox (mailboxOf) in
	// 24 hours, whatever else happens (a failed mail does not count).
	maxCodeMails = 6
	// maxCodeAttempts wrong codes from one key end its tries at the
	// live code; other keys' tries and the code itself are untouched.
	maxCodeAttempts = 5
)

// newCode returns a code of 25 base32 characters (125 random bits) in
// groups of five. Nobody types it: the node reads it from the mail. It
// is long so that its hash, which the relay tells whoever asks, gives
// nothing away, and guessing is hopeless.
func newCode() string {
	b := make([]byte, 16)
	rand.Read(b)
	s := base32.StdEncoding.EncodeToString(b)[:25]
	return s[0:5] + "-" + s[5:10] + "-" + s[10:15] + "-" + s[15:20] + "-" + s[20:25]
}

// newCodeID names a code: 16 characters of a-z2-7, one word for the
// node's full-text search.
func newCodeID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return strings.ToLower(base32.StdEncoding.EncodeToString(b))
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

// register answers POST /v1/register. An address has one live code at a
// time: the first request mails it, and every request while it lives, from
// any key, is answered with it (its reference and hash) and mails
// nothing. So a stranger asking again and again neither floods the
// mailbox nor stands in the owner's way: the owner's node reads the code
// the stranger had mailed, which the stranger cannot.
func (s *Server) register(ctx context.Context, w http.ResponseWriter, key ed25519.PublicKey, body []byte) {
	var req relay.RegisterRequest
	if err := decodeStrict(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "body must be {address, box_key}")
		return
	}
	address, mailbox, detail := registrable(req.Address)
	if detail != "" {
		writeError(w, http.StatusBadRequest, "invalid_address", detail)
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
	code := newCode()
	c, issued, err := s.store.IssueCode(ctx, relaystore.Code{Address: address, ID: newCodeID(),
		Hash: relay.CodeHash(address, code), Issued: now, Expires: now.Add(codeTTL),
		Mailbox: mailbox, Net: s.queue.networkFor("code", remoteOf(ctx))}, maxCodeMails, s.cfg.Limits.CodeMailsPerNetwork)
	if errors.Is(err, relaystore.ErrMailLimit) {
		s.rateLimited(w)
		return
	}
	if err != nil {
		s.log.Error("Cannot issue a code", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	p := relaystore.Pending{Address: address, NodeKey: key, BoxKey: box, CodeID: c.ID, Expires: c.Expires}
	if err := s.store.PutPending(ctx, p); err != nil {
		s.log.Error("Cannot store registration", "err", err)
		s.dropCode(ctx, c, issued)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	if issued {
		if err := s.cfg.Mailer.SendCode(ctx, address, CodeMail{ID: c.ID, Code: code, Expires: c.Expires}); err != nil {
			s.log.Warn("Cannot mail confirmation code", "err", err)
			s.dropCode(ctx, c, issued)
			writeError(w, http.StatusBadGateway, "mail_failed", "the confirmation code could not be mailed; try again later")
			return
		}
		s.log.Info("Mailed confirmation code", "nodeKey", relay.EncodeKey(key), "codeID", c.ID)
	} else {
		s.log.Debug("Registration asked while a code is live", "nodeKey", relay.EncodeKey(key), "codeID", c.ID)
	}
	writeJSON(w, http.StatusAccepted, relay.RegisterPending{Address: address, From: s.cfg.Mailer.From(),
		Subject: relay.CodeSubject + c.ID, ExpiresAt: c.Expires.Unix(), CodeID: c.ID,
		CodeHash: base64.RawURLEncoding.EncodeToString(c.Hash)})
}

// dropCode takes back a code this request issued whose mail was not sent,
// so that the next request mails one instead of waiting for it to expire.
func (s *Server) dropCode(ctx context.Context, c relaystore.Code, issued bool) {
	if !issued {
		return
	}
	if err := s.store.DropCode(context.WithoutCancel(ctx), c.Address, c.ID); err != nil {
		s.log.Error("Cannot drop an unmailed code", "err", err)
	}
}

// confirm answers POST /v1/register/confirm. The live code, sent by a key
// that asked while it lives, makes the node the address's: a node that
// proves the mailbox again (a new key after a lost one) keeps its name. A
// wrong code counts against the key that sent it, never against the code:
// a stranger's guesses do not stop the owner.
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
	now := s.cfg.Now()
	p, err := s.store.PendingFor(ctx, address, key)
	if err == nil && !now.Before(p.Expires) {
		err = relaystore.ErrNotFound
	}
	var c relaystore.Code
	if err == nil {
		c, err = s.store.LiveCode(ctx, address, now)
		if err == nil && c.ID != p.CodeID {
			err = relaystore.ErrNotFound // the code this key asked under is gone
		}
	}
	if errors.Is(err, relaystore.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not_found", "no pending registration for this address and key")
		return
	}
	if err != nil {
		s.log.Error("Cannot read registration", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	if p.Attempts >= maxCodeAttempts {
		writeError(w, http.StatusForbidden, "wrong_code", "too many wrong codes from this key; ask again once this code has expired")
		return
	}
	if subtle.ConstantTimeCompare(relay.CodeHash(address, req.Code), c.Hash) != 1 {
		if err := s.store.FailPending(ctx, address, key); err != nil {
			s.log.Error("Cannot count attempt", "err", err)
		}
		s.log.Info("Wrong confirmation code", "nodeKey", relay.EncodeKey(key))
		writeError(w, http.StatusForbidden, "wrong_code", "that is not the code mailed for this registration")
		return
	}
	n := relaystore.Node{Address: address, NodeKey: key, BoxKey: p.BoxKey, RegisteredAt: now}
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
	s.log.Info("Registered node", "hostname", s.Hostname(n.Label), "nodeKey", relay.EncodeKey(key))
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
