package oauthsasl

import (
	"strconv"
	"strings"

	"github.com/emersion/go-sasl"

	"mailnode/mail/credential"
)

// Mechanism names.
const (
	OAuthBearer = sasl.OAuthBearer // RFC 7628
	XOAuth2     = "XOAUTH2"
)

// Choose picks the mechanism to use from those a server advertises
// (IMAP AUTH=… capabilities, the SMTP AUTH keyword's list): OAUTHBEARER,
// the standard one, when offered, else XOAUTH2. ok is false when the
// server offers neither: it cannot take a token at all.
func Choose(advertised []string) (mech string, ok bool) {
	var x bool
	for _, m := range advertised {
		switch strings.ToUpper(strings.TrimSpace(m)) {
		case OAuthBearer:
			return OAuthBearer, true
		case XOAuth2:
			x = true
		}
	}
	if x {
		return XOAuth2, true
	}
	return "", false
}

// Client is one SASL exchange carrying a bearer token. It is a
// sasl.Client for go-imap's Authenticate and go-smtp's Auth.
type Client struct {
	mech  string
	user  string
	token credential.Secret
	host  string
	port  int
	// failure is the server's error challenge, kept for Failure.
	failure *ServerError
}

// NewClient starts an exchange of mech (OAuthBearer or XOAuth2) for
// user (the account's address) with an access token. host and port name
// the server, which OAUTHBEARER passes along (RFC 7628 section 3.1);
// empty and 0 leave them out.
func NewClient(mech, user string, token credential.Secret, host string, port int) *Client {
	return &Client{mech: mech, user: user, token: token, host: host, port: port}
}

// Start returns the initial response, which carries the token.
func (c *Client) Start() (string, []byte, error) {
	var b strings.Builder
	switch c.mech {
	case XOAuth2:
		b.WriteString("user=" + c.user + "\x01auth=Bearer " + c.token.Reveal() + "\x01\x01")
	default:
		// RFC 7628 section 3.1: gs2-header, then key=value pairs.
		b.WriteString("n,a=" + saslName(c.user) + ",")
		if c.host != "" {
			b.WriteString("\x01host=" + c.host)
		}
		if c.port != 0 {
			b.WriteString("\x01port=" + strconv.Itoa(c.port))
		}
		b.WriteString("\x01auth=Bearer " + c.token.Reveal() + "\x01\x01")
		c.mech = OAuthBearer
	}
	return c.mech, []byte(b.String()), nil
}

// Next answers a challenge. Both mechanisms send one only to report a
// failure; the client keeps what it says (Failure) and gives the answer
// that lets the server end the command with a plain failure.
func (c *Client) Next(challenge []byte) ([]byte, error) {
	c.failure = ParseChallenge(challenge)
	if c.mech == XOAuth2 {
		return []byte{}, nil
	}
	return []byte{0x01}, nil
}

// Failure is what the server's error challenge said, or nil when it sent
// none.
func (c *Client) Failure() *ServerError { return c.failure }

// saslName escapes an authzid (RFC 5801 section 4: "=" and ",").
func saslName(s string) string {
	return strings.NewReplacer("=", "=3D", ",", "=2C").Replace(s)
}
