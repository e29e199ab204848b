package push

import (
	"crypto/ecdsa"
	"encoding/json"
	"net/url"
	"time"

	"mailnode/approvals/pairing"
)

// Voluntary Application Server Identification (RFC 8292): every push
// request carries a JWT signed with the node's VAPID key, whose public
// half the phone subscribed with, so that a push service delivers to the
// subscription only what the node sent.

// vapidLife is how long a VAPID token is valid: RFC 8292 section 2 caps
// it at 24 hours; push services (FCM) refuse more than 12.
const vapidLife = 12 * time.Hour

// vapidHeader returns the Authorization header of a push to endpoint:
// "vapid t=<JWT>, k=<public key>" (RFC 8292 section 3), the token's
// audience the endpoint's origin, expiry vapidLife after now, subject sub.
func vapidHeader(key *ecdsa.PrivateKey, endpoint *url.URL, sub string, now time.Time) (string, error) {
	claims, err := json.Marshal(struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}{endpoint.Scheme + "://" + endpoint.Host, now.Add(vapidLife).Unix(), sub})
	if err != nil {
		return "", err
	}
	signing := pairing.Encode([]byte(`{"typ":"JWT","alg":"ES256"}`)) + "." + pairing.Encode(claims)
	// JWS ES256 (RFC 7518 section 3.4): r‖s over SHA-256, base64url.
	sig, err := pairing.SignP1363(key, []byte(signing))
	if err != nil {
		return "", err
	}
	pub, err := PublicKey(key)
	if err != nil {
		return "", err
	}
	return "vapid t=" + signing + "." + sig + ", k=" + pub, nil
}

// PublicKey is the application server key phones subscribe with: base64url
// (no padding) of the uncompressed P-256 point, as
// pushManager.subscribe({applicationServerKey}) takes it.
func PublicKey(key *ecdsa.PrivateKey) (string, error) {
	k, err := key.PublicKey.ECDH()
	if err != nil {
		return "", err
	}
	return pairing.Encode(k.Bytes()), nil
}
