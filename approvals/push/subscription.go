package push

import (
	"context"
	"crypto/ecdh"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"

	"mailnode/approvals"
	"mailnode/approvals/pairing"
	"mailnode/approvals/phoneapi"
	"mailnode/internal/publicaddr"
)

// MaxEndpoint bounds a push endpoint URL (FCM's are about 200 bytes).
const MaxEndpoint = 2048

// BadSubscriptionError refuses a subscription; Detail is a public
// sentence for the phone.
type BadSubscriptionError struct{ Detail string }

func (e *BadSubscriptionError) Error() string { return "bad push subscription: " + e.Detail }

func bad(format string, a ...any) error {
	return &BadSubscriptionError{Detail: fmt.Sprintf(format, a...)}
}

// ParseSubscription reads a PushSubscription.toJSON() body and checks it
// without touching the network: an https URL on port 443 of at most
// MaxEndpoint bytes, with no user or fragment; a P-256 key and a 16-byte
// authentication secret.
func ParseSubscription(body []byte) (approvals.PushSubscription, *url.URL, error) {
	var v phoneapi.PushSubscription
	if err := json.Unmarshal(body, &v); err != nil {
		return approvals.PushSubscription{}, nil, bad("the body is not a push subscription's JSON")
	}
	if len(v.Endpoint) > MaxEndpoint {
		return approvals.PushSubscription{}, nil, bad("the endpoint is longer than %d bytes", MaxEndpoint)
	}
	u, err := url.Parse(v.Endpoint)
	switch {
	case err != nil || v.Endpoint == "":
		return approvals.PushSubscription{}, nil, bad("the endpoint is not a URL")
	case u.Scheme != "https":
		return approvals.PushSubscription{}, nil, bad("the endpoint is not an https URL")
	case u.User != nil || u.Fragment != "" || u.Opaque != "" || u.Hostname() == "":
		return approvals.PushSubscription{}, nil, bad("the endpoint is not a plain https URL")
	case u.Port() != "" && u.Port() != "443":
		return approvals.PushSubscription{}, nil, bad("the endpoint is not on port 443")
	}
	// Chrome once padded these; the standard form has none.
	p256dh, err1 := pairing.Decode(strings.TrimRight(v.Keys.P256dh, "="))
	auth, err2 := pairing.Decode(strings.TrimRight(v.Keys.Auth, "="))
	if err1 != nil || err2 != nil || len(auth) != 16 {
		return approvals.PushSubscription{}, nil, bad("the keys are not a P-256 key and a 16-byte secret in base64url")
	}
	if _, err := ecdh.P256().NewPublicKey(p256dh); err != nil {
		return approvals.PushSubscription{}, nil, bad("the p256dh key is not a P-256 point")
	}
	return approvals.PushSubscription{Endpoint: u.String(), P256dh: pairing.Encode(p256dh), Auth: pairing.Encode(auth)}, u, nil
}

// checkHost refuses an endpoint host that is, or resolves to, an address
// that is not public (publicaddr). Every address must be: a name that
// answers a private one beside public ones is refused, although a dial
// would only try the public ones.
func (s *Service) checkHost(ctx context.Context, host string) error {
	host = strings.ToLower(host)
	if _, ok := s.cfg.DevAddrs[host]; ok {
		return nil
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if !publicaddr.Is(a) {
			return bad("the endpoint's address is not a public one")
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	addrs, err := s.cfg.LookupAddrs(ctx, host)
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr) || (err == nil && len(addrs) == 0):
		return bad("the endpoint's name does not resolve")
	case err != nil:
		return fmt.Errorf("resolve push endpoint: %w", err)
	}
	for _, a := range addrs {
		if !publicaddr.Is(a) {
			return bad("the endpoint's name resolves to an address that is not a public one")
		}
	}
	return nil
}
