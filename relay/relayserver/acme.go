package relayserver

import (
	"context"
	"crypto/ed25519"
	"net/http"

	"mailnode/relay"
)

// acmeChallenge answers POST /v1/acme/challenge: the node sets (or with
// an empty list clears) the TXT values of _acme-challenge.<its name>, for
// an ACME DNS-01 challenge (RFC 8555 section 8.4). A node can touch only
// its own name: the name comes from its key, not from the request.
func (s *Server) acmeChallenge(ctx context.Context, w http.ResponseWriter, key ed25519.PublicKey, body []byte) {
	var req relay.ACMERequest
	if err := decodeStrict(body, &req); err != nil || len(req.Values) > relay.MaxACMEValues {
		writeError(w, http.StatusBadRequest, "bad_request", "body must be {values: [at most 4 strings]}")
		return
	}
	for _, v := range req.Values {
		// A key authorization digest is 43 base64url characters.
		if len(v) == 0 || len(v) > 255 || !printableASCII(v) {
			writeError(w, http.StatusBadRequest, "bad_request", "values must be printable ASCII, 1-255 characters")
			return
		}
	}
	n, ok := s.node(ctx, w, key)
	if !ok {
		return
	}
	if err := s.store.SetChallenges(ctx, n.Label, req.Values); err != nil {
		s.log.Error("Cannot set challenge", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
