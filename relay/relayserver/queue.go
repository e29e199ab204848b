package relayserver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"strings"
	"time"

	"mailnode/relay"
	"mailnode/relay/relaystore"
)

// maxQueueBody bounds POST /v1/queue: the base64url text of the largest
// envelope, a request_id and the JSON around them.
const maxQueueBody = (relay.MaxEnvelope*4+2)/3 + 1024

// maxRequestID bounds an agent's request_id.
const maxRequestID = 128

// deliveryTimeout bounds one delivery round over a tunnel stream: the
// node opens each box and records each request before it acknowledges.
const deliveryTimeout = 30 * time.Second

// deliveryRetry is how soon a failed delivery to a live tunnel is tried
// again (the tunnel coming up again also tries at once).
const deliveryRetry = 5 * time.Second

// enqueue answers POST /v1/queue/{hostname} (docs/protocol.md, rules for
// the queue; docs/relay.md, "The offline queue"). Any well-formed name in
// the zone is taken, registered or not, online or not: the store is not
// asked whether the name is registered, so a decoy's queue behaves as an
// offline node's, with the same limits and expiry, and an online node's
// too: what it took keeps its place until it expires, as a decoy's never
// delivered envelopes do.
func (s *Server) enqueue(w http.ResponseWriter, r *http.Request) {
	if !s.limits.allow(clientKey(r.RemoteAddr)) {
		s.rateLimited(w)
		return
	}
	label, ok := labelOf(r.PathValue("hostname"), s.cfg.Zone)
	if !ok {
		writeError(w, http.StatusNotFound, "not_found", "no such node name in this relay's zone")
		return
	}
	if !isJSON(r.Header.Get("Content-Type")) {
		writeError(w, http.StatusBadRequest, "bad_request", "content type must be application/json")
		return
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxQueueBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, "too_large", "the envelope is over 64 KiB")
			return
		}
		writeError(w, http.StatusBadRequest, "bad_request", "cannot read the body")
		return
	}
	sealed, id, err := decodeQueueRequest(raw)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	if len(sealed) > relay.MaxEnvelope {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", "the envelope is over 64 KiB")
		return
	}
	now := s.cfg.Now()
	e, err := s.store.Enqueue(r.Context(), relaystore.Envelope{ID: s.queue.receipt(label, id, sealed), Label: label,
		Net: s.queue.network(r.RemoteAddr), Sealed: sealed, Created: now, Expires: now.Add(relay.QueueTTL)},
		relay.MaxQueued, s.cfg.Limits.QueueShare)
	switch {
	case errors.Is(err, relaystore.ErrQueueFull):
		// The same answer whether the name or this network's share of it
		// is full: the limiter that fired is not said.
		writeError(w, http.StatusInsufficientStorage, "queue_full", "this node's queue has no room for the envelope")
		return
	case errors.Is(err, relaystore.ErrIDTaken):
		// Receipts are 128 bits, keyed or random: a clash is a fault, and
		// said as one, never a silently dropped envelope.
		s.log.Error("Two envelopes drew the same receipt", "label", label)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	case err != nil:
		s.log.Error("Cannot enqueue", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	writeJSON(w, http.StatusAccepted, relay.Queued{RequestID: e.ID, ExpiresAt: e.Expires.Unix()})
	// The receipt leaves first, and the delivery to a live tunnel starts
	// a random while later: its work (a store read, a stream, the node's
	// ack, a store write) must not slow this answer, nor fall on the
	// sender's next request, or a stranger would time an online node's
	// name apart from a decoy's (TestQueueTiming).
	http.NewResponseController(w).Flush()
	time.AfterFunc(kickDelay(), func() {
		select {
		case <-s.closed:
			return
		default:
		}
		if tun := s.tunnels.get(label); tun != nil {
			s.kick(tun)
		} else if s.mesh != nil {
			s.mesh.kickRemote(context.Background(), label)
		}
	})
}

// kickDelay is how long after an enqueue its delivery starts: uniform in
// [50 ms, 150 ms), against a stranger's requests of a millisecond or less.
func kickDelay() time.Duration {
	return 50*time.Millisecond + time.Duration(mrand.Int64N(int64(100*time.Millisecond)))
}

// queueKeys derives what the queue stores of an agent's request: the
// receipt's request_id and the client network's digest, keyed with a
// secret of the relay's store (shared by instances on one database).
type queueKeys struct {
	secret []byte
}

// receipt is the request_id of the relay's receipt for sealed, left for
// label with the agent's requestID, unique relay-wide. An agent's id is
// its own within a name and an envelope: the same name, id and bytes (a
// retry) give the same receipt, and anything else another one (docs/relay.md,
// "Receipts"), so an id used for another name, or with other bytes, is
// another envelope, neither refused nor dropped, and its receipt says
// nothing of the other. Without an id the receipt is random; both are
// 22 base64url characters.
func (k queueKeys) receipt(label, requestID string, sealed []byte) string {
	var b []byte
	if requestID == "" {
		b = make([]byte, 16)
		rand.Read(b)
	} else {
		digest := sha256.Sum256(sealed)
		m := hmac.New(sha256.New, k.secret)
		m.Write([]byte("mailnode-queue-receipt-v1\x00" + label + "\x00" + requestID + "\x00"))
		m.Write(digest[:])
		b = m.Sum(nil)[:16]
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// network is the keyed digest of the client network of remote (an
// http.Request's RemoteAddr, as the rate limiter reads it): the store
// counts a network's share without holding client addresses.
func (k queueKeys) network(remote string) []byte {
	m := hmac.New(sha256.New, k.secret)
	m.Write([]byte("mailnode-queue-network-v1\x00" + clientNetwork(remote)))
	return m.Sum(nil)[:16]
}

// networkFor is the keyed digest of remote's client network for another
// count than the queue's (purpose names it), so that the digests stored
// for registrations and hosted agents cannot be matched with the queue's.
func (k queueKeys) networkFor(purpose, remote string) []byte {
	m := hmac.New(sha256.New, k.secret)
	m.Write([]byte("mailnode-" + purpose + "-network-v1\x00" + clientNetwork(remote)))
	return m.Sum(nil)[:16]
}

// clientNetwork is the network a client address counts in for the
// queue's share: its IPv4 /24 or its IPv6 /56 (an IPv6 address that
// carries an IPv4 one, mapped, 6to4, Teredo or NAT64, is that IPv4
// address: embeddedIPv4). What is not an IP address counts as itself.
func clientNetwork(remote string) string {
	ip, host, ok := remoteIP(remote)
	if !ok {
		return host
	}
	bits := 56
	if ip.Is4() {
		bits = 24
	}
	p, _ := ip.Prefix(bits)
	return p.String()
}

// decodeQueueRequest reads {"envelope": "...", "request_id": "..."}: one
// object, a base64url envelope at least a sealed box's overhead long, an
// optional request_id of base64url characters.
func decodeQueueRequest(raw []byte) (sealed []byte, id string, err error) {
	var req struct {
		Envelope  *string `json:"envelope"`
		RequestID string  `json:"request_id"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&req); err != nil || dec.More() {
		return nil, "", errors.New("body must be one JSON object with a string envelope")
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' || req.Envelope == nil {
		return nil, "", errors.New("body must be one JSON object with a string envelope")
	}
	sealed, err = base64.RawURLEncoding.DecodeString(strings.TrimRight(*req.Envelope, "="))
	if err != nil {
		return nil, "", errors.New("envelope must be base64url")
	}
	if len(sealed) <= relay.SealOverhead {
		return nil, "", errors.New("envelope is shorter than a sealed box")
	}
	if req.RequestID != "" && !validRequestID(req.RequestID) {
		return nil, "", errors.New("request_id must be 8 to 128 characters of A-Z, a-z, 0-9, '-' and '_'")
	}
	return sealed, req.RequestID, nil
}

func validRequestID(id string) bool {
	if len(id) < 8 || len(id) > maxRequestID {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// queueReply answers GET /v1/queue/reply/{request_id}: 204 while there is
// no reply, 200 with the node's reply envelope, 404 expired or unknown. An
// envelope the node took without a reply answers 204 until it expires,
// exactly as one never delivered (a decoy's): only the reply column is
// read, so that the cost is the same too.
func (s *Server) queueReply(w http.ResponseWriter, r *http.Request) {
	if !s.limits.allow(clientKey(r.RemoteAddr)) {
		s.rateLimited(w)
		return
	}
	id := r.PathValue("request_id")
	if !validRequestID(id) {
		writeError(w, http.StatusNotFound, "not_found", "no such request")
		return
	}
	reply, err := s.store.QueueReply(r.Context(), id, s.cfg.Now())
	switch {
	case errors.Is(err, relaystore.ErrNotFound):
		writeError(w, http.StatusNotFound, "not_found", "no such request, or it expired")
	case err != nil:
		s.log.Error("Cannot read a queued request", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
	case len(reply) == 0:
		w.WriteHeader(http.StatusNoContent)
	default:
		writeJSON(w, http.StatusOK, relay.Reply{Envelope: base64.RawURLEncoding.EncodeToString(reply)})
	}
}

// kick makes sure the tunnel's waiting envelopes are being delivered: a
// delivery round starts unless one runs, which then looks again. An idle
// tunnel has no goroutine for its queue.
func (s *Server) kick(tun *tunnel) {
	tun.again.Store(true)
	if tun.delivering.CompareAndSwap(false, true) {
		go s.drain(tun)
	}
}

func (s *Server) drain(tun *tunnel) {
	for {
		tun.again.Store(false)
		err := s.deliver(tun)
		tun.delivering.Store(false)
		if err != nil {
			if !tun.sess.IsClosed() {
				s.log.Debug("Queue delivery failed; trying again", "label", tun.label, "err", err)
				time.AfterFunc(deliveryRetry, func() {
					if !tun.sess.IsClosed() {
						s.kick(tun)
					}
				})
			}
			return
		}
		if !tun.again.Load() || !tun.delivering.CompareAndSwap(false, true) {
			return
		}
	}
}

// deliver hands the node its waiting envelopes over streams of its
// tunnel until none waits; each is dropped only when the node has
// acknowledged it, so a node that dies before it acknowledges gets it
// again (at-least-once).
func (s *Server) deliver(tun *tunnel) error {
	select {
	case <-tun.ready:
	case <-tun.sess.CloseChan():
		return nil
	}
	for {
		ctx, cancel := context.WithTimeout(context.Background(), deliveryTimeout)
		n, err := s.deliverRound(ctx, tun)
		cancel()
		if err != nil || n == 0 {
			return err
		}
	}
}

// deliverRound sends what waits now on one stream and reads the acks. It
// returns how many envelopes it sent.
func (s *Server) deliverRound(ctx context.Context, tun *tunnel) (int, error) {
	waiting, err := s.store.Undelivered(ctx, tun.label, s.cfg.Now(), relay.MaxQueued)
	if err != nil || len(waiting) == 0 {
		return 0, err
	}
	st, err := tun.sess.OpenStream()
	if err != nil {
		return 0, err
	}
	defer st.Close()
	deadline, _ := ctx.Deadline()
	st.SetDeadline(deadline)
	var out bytes.Buffer
	out.WriteString(relay.QueuePreface)
	sent := map[string]bool{}
	for _, e := range waiting {
		b, _ := json.Marshal(relay.QueueDelivery{RequestID: e.ID, Envelope: base64.RawURLEncoding.EncodeToString(e.Sealed)})
		out.Write(append(b, '\n'))
		sent[e.ID] = true
	}
	if _, err := st.Write(out.Bytes()); err != nil {
		return 0, err
	}
	br := bufio.NewReaderSize(st, 4<<10)
	for len(sent) > 0 {
		line, err := readLimitedLine(br, maxQueueBody)
		if err != nil {
			return 0, err
		}
		var ack relay.QueueAck
		if json.Unmarshal(line, &ack) != nil || !sent[ack.RequestID] {
			continue
		}
		var reply []byte
		if ack.Reply != "" {
			if reply, err = base64.RawURLEncoding.DecodeString(ack.Reply); err != nil || len(reply) > relay.MaxEnvelope {
				reply = nil
			}
		}
		if err := s.store.Ack(ctx, tun.label, ack.RequestID, reply); err != nil {
			return 0, err
		}
		delete(sent, ack.RequestID)
	}
	s.log.Debug("Delivered queued envelopes", "label", tun.label, "n", len(waiting))
	return len(waiting), nil
}

// readLimitedLine reads one line of at most max bytes.
func readLimitedLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max {
			return nil, errors.New("line too long")
		}
		if err == nil {
			return bytes.TrimSuffix(line, []byte("\n")), nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
	}
}
