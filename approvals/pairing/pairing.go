// Package pairing is the cryptography between the node and the user's
// phones (docs/phone.md): the one-time pairing offer the node shows as a
// QR code, the short code both screens show before a phone is trusted,
// the sealing of prompts and state the node sends a phone, and the
// signatures a phone puts on its requests and decisions.
//
// Everything is built from what a browser's WebCrypto offers without
// extensions, so that the web app and the Go reference client speak the
// same bytes: P-256 ECDH and ECDSA (signatures in the IEEE P1363 form,
// r‖s), HKDF-SHA-256, AES-256-GCM and HMAC-SHA-256.
//
// The keys exchanged through the QR code protect the channel, not TLS:
// the relay that carries the bytes runs the DNS zone of node hostnames and
// could obtain a certificate for a node's name. With only what passes
// through it, it cannot pair a phone (it lacks the offer's secret), read a
// prompt (sealed to the device's key), or forge a decision (signed by the
// device's key, which never leaves the phone).
package pairing

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"time"
)

// b64 is the encoding of every binary value in URLs and JSON: base64url
// without padding.
var b64 = base64.RawURLEncoding

// Offer is a one-time invitation to pair, shown as a QR code. Secret
// proves that a phone saw the code; it travels only inside the URL's
// fragment, which browsers never send to a server.
type Offer struct {
	ID         string
	Secret     []byte // 32 random bytes
	NodeBoxPub []byte // the node's P-256 ECDH public key, uncompressed (65 bytes)
	Expires    time.Time
}

// NewOffer makes an offer for the node's public key, valid for ttl.
func NewOffer(nodeBoxPub *ecdh.PublicKey, now time.Time, ttl time.Duration) (Offer, error) {
	id := make([]byte, 12)
	secret := make([]byte, 32)
	if _, err := rand.Read(id); err != nil {
		return Offer{}, err
	}
	if _, err := rand.Read(secret); err != nil {
		return Offer{}, err
	}
	return Offer{ID: b64.EncodeToString(id), Secret: secret, NodeBoxPub: nodeBoxPub.Bytes(), Expires: now.Add(ttl)}, nil
}

// URL is the address the QR code holds: the phone app under base
// ("https://node.example/phone/"), the offer in the fragment.
func (o Offer) URL(base string) string {
	return base + "#pair=" + o.ID + "." + b64.EncodeToString(o.Secret) + "." + b64.EncodeToString(o.NodeBoxPub)
}

// ParseURL reads an offer back from its URL, as the reference client
// does. Expires is not in the URL and stays zero.
func ParseURL(raw string) (base string, o Offer, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", o, fmt.Errorf("pairing URL: %w", err)
	}
	frag, ok := strings.CutPrefix(u.Fragment, "pair=")
	parts := strings.Split(frag, ".")
	if !ok || len(parts) != 3 {
		return "", o, errors.New("pairing URL: no offer in the fragment")
	}
	o.ID = parts[0]
	if o.Secret, err = b64.DecodeString(parts[1]); err != nil || len(o.Secret) != 32 {
		return "", o, errors.New("pairing URL: bad secret")
	}
	if o.NodeBoxPub, err = b64.DecodeString(parts[2]); err != nil {
		return "", o, errors.New("pairing URL: bad node key")
	}
	if _, err := ecdh.P256().NewPublicKey(o.NodeBoxPub); err != nil {
		return "", o, errors.New("pairing URL: bad node key")
	}
	u.Fragment = ""
	return u.String(), o, nil
}

// Registration is what a phone sends to pair: its two public keys
// (uncompressed P-256 points), the name the user gave it, and a MAC with
// the offer's secret over all of it.
type Registration struct {
	Offer   string `json:"offer"`
	SignPub string `json:"sign_pub"` // ECDSA P-256, base64url
	BoxPub  string `json:"box_pub"`  // ECDH P-256, base64url
	Name    string `json:"name"`
	MAC     string `json:"mac"` // HMAC-SHA-256(secret, RegistrationMessage), base64url
}

// RegistrationMessage is what a registration's MAC covers.
func RegistrationMessage(offer, signPub, boxPub, name string) []byte {
	return []byte("mailnode-pair-v1\n" + offer + "\n" + signPub + "\n" + boxPub + "\n" + name)
}

// Sign sets r.MAC from the offer's secret.
func (r *Registration) Sign(secret []byte) {
	r.MAC = b64.EncodeToString(mac(secret, RegistrationMessage(r.Offer, r.SignPub, r.BoxPub, r.Name)))
}

// ErrBadRegistration means a registration's MAC or keys do not hold.
var ErrBadRegistration = errors.New("registration does not prove the pairing code")

// Verify checks r's MAC and keys against the offer, and returns the keys.
func (r Registration) Verify(o Offer) (*ecdsa.PublicKey, *ecdh.PublicKey, error) {
	got, err := b64.DecodeString(r.MAC)
	if err != nil || r.Offer != o.ID || !hmac.Equal(got, mac(o.Secret, RegistrationMessage(r.Offer, r.SignPub, r.BoxPub, r.Name))) {
		return nil, nil, ErrBadRegistration
	}
	sign, err := SignKey(r.SignPub)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrBadRegistration, err)
	}
	box, err := BoxKey(r.BoxPub)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrBadRegistration, err)
	}
	return sign, box, nil
}

// SignKey reads a device's ECDSA P-256 public key (uncompressed point).
func SignKey(s string) (*ecdsa.PublicKey, error) {
	b, err := b64.DecodeString(s)
	if err != nil {
		return nil, errors.New("bad signing key")
	}
	k, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), b)
	if err != nil {
		return nil, errors.New("bad signing key")
	}
	return k, nil
}

// BoxKey reads an ECDH P-256 public key (uncompressed point).
func BoxKey(s string) (*ecdh.PublicKey, error) {
	b, err := b64.DecodeString(s)
	if err != nil {
		return nil, errors.New("bad encryption key")
	}
	k, err := ecdh.P256().NewPublicKey(b)
	if err != nil {
		return nil, errors.New("bad encryption key")
	}
	return k, nil
}

// SAS is the short code both screens show before the node trusts a
// phone: six digits from the secret and all four public keys. A phone that
// photographed someone else's QR code shows a code the user does not see
// on their computer.
func SAS(secret, nodeBoxPub []byte, signPub, boxPub string) string {
	h := sha256.New()
	h.Write([]byte("mailnode-sas-v1\n"))
	h.Write(secret)
	h.Write(nodeBoxPub)
	h.Write([]byte("\n" + signPub + "\n" + boxPub))
	n := binary.BigEndian.Uint32(h.Sum(nil)) % 1_000_000
	return fmt.Sprintf("%03d %03d", n/1000, n%1000)
}

// NodeProof is what the node answers a registration with: proof that it
// holds the secret too, bound to the device id it assigned.
func NodeProof(secret []byte, deviceID string, r Registration) string {
	return b64.EncodeToString(mac(secret, []byte("mailnode-pair-node-v1\n"+deviceID+"\n"+r.MAC)))
}

func mac(key, msg []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(msg)
	return m.Sum(nil)
}

// Directions of sealed messages: a node's message cannot be reflected
// back to it as the phone's.
const (
	ToPhone = "node-to-phone"
	ToNode  = "phone-to-node"
	// ToPhonePush seals a push notice (package approvals/push): a key of
	// its own, as a push has no request nonce to bind to, so that no
	// notice can be played into an event stream nor the reverse.
	ToPhonePush = "node-to-phone push"
)

// channel is AES-256-GCM under the key between one node key and one
// device key for one direction (HKDF-SHA-256 over their static ECDH
// secret).
func channel(priv *ecdh.PrivateKey, peer *ecdh.PublicKey, deviceID, dir string) (cipher.AEAD, error) {
	shared, err := priv.ECDH(peer)
	if err != nil {
		return nil, err
	}
	key, err := hkdf.Key(sha256.New, shared, []byte(deviceID), "mailnode-seal-v1 "+dir, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Seal encrypts plaintext from priv's holder to peer's: AES-256-GCM under
// the static ECDH key, a random 12-byte nonce in front, aad bound in (the
// request the message answers). Only the node and that device can make or
// read it.
func Seal(priv *ecdh.PrivateKey, peer *ecdh.PublicKey, deviceID, dir string, aad, plaintext []byte) ([]byte, error) {
	gcm, err := channel(priv, peer, deviceID, dir)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, gcm.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return gcm.Seal(nonce, nonce, plaintext, aad), nil
}

// Open decrypts what Seal made.
func Open(priv *ecdh.PrivateKey, peer *ecdh.PublicKey, deviceID, dir string, aad, sealed []byte) ([]byte, error) {
	gcm, err := channel(priv, peer, deviceID, dir)
	if err != nil {
		return nil, err
	}
	if len(sealed) < gcm.NonceSize() {
		return nil, errors.New("sealed message too short")
	}
	out, err := gcm.Open(nil, sealed[:gcm.NonceSize()], sealed[gcm.NonceSize():], aad)
	if err != nil {
		return nil, errors.New("sealed message does not open")
	}
	return out, nil
}

// RequestMessage is what a phone signs on every request to the node:
// method, path (with query), its time, a fresh nonce and the body's
// SHA-256.
func RequestMessage(method, path string, ts int64, nonce string, body []byte) []byte {
	sum := sha256.Sum256(body)
	return fmt.Appendf(nil, "mailnode-phone-request-v1\n%s\n%s\n%d\n%s\n%s", method, path, ts, nonce, b64.EncodeToString(sum[:]))
}

// DecisionMessage is what a phone signs to approve or refuse a prompt:
// the approval, the decision, the SHA-256 of the exact prompt it showed,
// and its own device id.
func DecisionMessage(approvalID, decision string, promptHash []byte, deviceID string) []byte {
	return []byte("mailnode-decision-v1\n" + approvalID + "\n" + decision + "\n" + b64.EncodeToString(promptHash) + "\n" + deviceID)
}

// VerifySig checks a device's ECDSA P-256 signature over SHA-256(msg) in
// the IEEE P1363 form WebCrypto produces (r‖s, 64 bytes).
func VerifySig(pub *ecdsa.PublicKey, msg []byte, sig string) bool {
	b, err := b64.DecodeString(sig)
	if err != nil || len(b) != 64 {
		return false
	}
	h := sha256.Sum256(msg)
	r, s := new(big.Int).SetBytes(b[:32]), new(big.Int).SetBytes(b[32:])
	return ecdsa.Verify(pub, h[:], r, s)
}

// SignP1363 signs SHA-256(msg) as a phone does, for the reference client.
func SignP1363(priv *ecdsa.PrivateKey, msg []byte) (string, error) {
	h := sha256.Sum256(msg)
	r, s, err := ecdsa.Sign(rand.Reader, priv, h[:])
	if err != nil {
		return "", err
	}
	b := make([]byte, 64)
	r.FillBytes(b[:32])
	s.FillBytes(b[32:])
	return b64.EncodeToString(b), nil
}

// Encode and Decode are the base64url form of binary values on the wire.
func Encode(b []byte) string          { return b64.EncodeToString(b) }
func Decode(s string) ([]byte, error) { return b64.DecodeString(s) }
