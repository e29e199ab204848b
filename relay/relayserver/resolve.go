package relayserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/relay"
	"mailnode/relay/relaystore"
)

// maxResolveBody bounds a resolve request; an address is at most 254
// octets (RFC 5321 section 4.5.3.1.3).
const maxResolveBody = 4 << 10

// resolve answers POST /v1/resolve (docs/protocol.md, rules for
// resolve). A registered and an unregistered address take the same path
// through the same work: the decoy is always derived (an HMAC and an
// X25519 multiplication), the store always asked, and the answer has the
// same length, fields and headers; only the values differ.
func (s *Server) resolve(w http.ResponseWriter, r *http.Request) {
	s.counts.resolves.Add(1)
	if !s.limits.allow(clientKey(r.RemoteAddr)) {
		s.rateLimited(w)
		return
	}
	if !isJSON(r.Header.Get("Content-Type")) {
		writeError(w, http.StatusBadRequest, "bad_request", "content type must be application/json")
		return
	}
	address, err := decodeResolve(http.MaxBytesReader(w, r.Body, maxResolveBody))
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "body must be a JSON object with a string address")
		return
	}
	address, ok := NormalizeAddress(address)
	if !ok {
		writeError(w, http.StatusBadRequest, "invalid_address", "address must look like local@domain.tld")
		return
	}
	decoy := relaystore.Node{Label: s.decoys.label(address), BoxKey: s.decoys.boxKey(address)}
	n, err := s.store.Resolve(r.Context(), address, decoy)
	if err != nil {
		s.log.Error("Cannot resolve", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	writeJSON(w, http.StatusOK, relay.Resolution{
		Relay:         s.cfg.APIName,
		Hostname:      s.Hostname(n.Label),
		BoxPubKey:     relay.EncodeKey(n.BoxKey),
		QueueEndpoint: s.cfg.QueueEndpoint,
	})
}

// isJSON reports whether a Content-Type is application/json, with or
// without parameters. The plain value, which agents send, is compared
// as it is: mime.ParseMediaType allocates a map on every request.
func isJSON(ct string) bool {
	if ct == "application/json" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// decodeResolve reads {"address": "..."}: one object, an address string,
// nothing after it. Unknown fields are ignored, as JSON APIs do for
// forward compatibility.
func decodeResolve(body io.Reader) (string, error) {
	raw, err := io.ReadAll(body)
	if err != nil {
		return "", err
	}
	var req struct {
		Address *string `json:"address"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&req); err != nil {
		return "", err
	}
	if dec.More() {
		return "", errors.New("trailing data")
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' || req.Address == nil {
		return "", errors.New("no address")
	}
	return *req.Address, nil
}

// NormalizeAddress trims and lowercases an address and reports whether it
// looks like local@domain with a dotted domain: one @, a local part, a
// domain of non-empty labels, at most 254 octets, no spaces or controls.
func NormalizeAddress(a string) (string, bool) {
	a = strings.ToLower(strings.TrimSpace(a))
	if len(a) > 254 || !utf8.ValidString(a) {
		return "", false
	}
	local, domain, ok := strings.Cut(a, "@")
	if !ok || local == "" || strings.Contains(domain, "@") || !strings.Contains(domain, ".") {
		return "", false
	}
	for _, r := range a {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return "", false
		}
	}
	for _, l := range strings.Split(domain, ".") {
		if l == "" || len(l) > 63 || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") {
			return "", false
		}
		if strings.ContainsAny(l, "()<>[]\\,;:\"") {
			return "", false
		}
	}
	return a, true
}
