package oauthsasl

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/emersion/go-sasl"
)

// ErrMalformed is an XOAUTH2 initial response that is not
// "user=…\x01auth=Bearer …\x01\x01".
var ErrMalformed = errors.New("xoauth2: malformed initial response")

// ParseXOAuth2 reads an XOAUTH2 initial response (untrusted: it is what a
// client sent).
func ParseXOAuth2(ir []byte) (user, token string, err error) {
	rest, ok := bytes.CutSuffix(ir, []byte("\x01\x01"))
	if !ok {
		return "", "", ErrMalformed
	}
	for _, kv := range bytes.Split(rest, []byte{0x01}) {
		k, v, ok := strings.Cut(string(kv), "=")
		if !ok {
			return "", "", ErrMalformed
		}
		switch k {
		case "user":
			user = v
		case "auth":
			scheme, t, ok := strings.Cut(v, " ")
			if !ok || !strings.EqualFold(scheme, "Bearer") {
				return "", "", ErrMalformed
			}
			token = t
		}
	}
	if user == "" || token == "" {
		return "", "", ErrMalformed
	}
	return user, token, nil
}

// XOAuth2Authenticator checks a user and token, returning nil to accept.
type XOAuth2Authenticator func(user, token string) error

// NewXOAuth2Server is the server side of XOAUTH2, for a test's SMTP
// server (go-sasl has no XOAUTH2): on a refused token it sends the error
// challenge and ends the exchange after the client's empty answer, as
// Gmail does.
func NewXOAuth2Server(auth XOAuth2Authenticator) sasl.Server {
	return &xoauth2Server{auth: auth}
}

type xoauth2Server struct {
	auth    XOAuth2Authenticator
	asked   bool  // an empty challenge asked for the initial response
	done    bool  // the initial response was read
	failErr error // the token was refused; the exchange ends at the next response
}

func (s *xoauth2Server) Next(response []byte) ([]byte, bool, error) {
	switch {
	case s.failErr != nil:
		return nil, true, s.failErr
	case s.done:
		return nil, true, sasl.ErrUnexpectedClientResponse
	case response == nil:
		if s.asked {
			return nil, true, sasl.ErrUnexpectedClientResponse
		}
		s.asked = true
		return []byte{}, false, nil
	}
	s.done = true
	user, token, err := ParseXOAuth2(response)
	if err != nil {
		return nil, true, err
	}
	if err := s.auth(user, token); err != nil {
		s.failErr = err
		blob, _ := json.Marshal(ServerError{Status: "401", Schemes: "bearer"})
		return blob, false, nil
	}
	return nil, true, nil
}
