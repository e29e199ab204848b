package relayserver

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"hash"
	"strings"

	"filippo.io/edwards25519"
)

// Labels of real nodes and of decoys look alike: labelLen characters of
// the lower-case base32 alphabet, from 10 random or HMAC bytes (80 bits).
const labelLen = 16

var labelEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewLabel returns a random label for a real node.
func NewLabel() string {
	b := make([]byte, 10)
	rand.Read(b)
	return labelEncoding.EncodeToString(b)
}

// validLabel reports whether l has the shape of a node label.
func validLabel(l string) bool {
	if len(l) != labelLen {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

// decoys derives what resolve answers for an address no node registered:
// a label and an X25519 public key from an HMAC of a secret kept in the
// store, so the answer is the same every time and across restarts, and
// nobody without the secret can tell it from a real node's.
type decoys struct {
	secret []byte
	// keyed is HMAC-SHA-256 with secret, its key blocks hashed once
	// (Reset keeps their states): each mac clones it instead of hashing
	// them again, two of the four SHA-256 blocks of a short address's MAC,
	// on every resolve. It is only read, so clones may be taken at once.
	keyed hash.Hash
}

func newDecoys(secret []byte) *decoys {
	keyed := hmac.New(sha256.New, secret)
	keyed.Reset()
	if _, ok := keyed.(hash.Cloner); !ok {
		keyed = nil
	}
	return &decoys{secret: secret, keyed: keyed}
}

func (d *decoys) mac(purpose, address string) []byte {
	var m hash.Hash
	if d.keyed != nil {
		c, err := d.keyed.(hash.Cloner).Clone()
		if err == nil {
			m = c
		}
	}
	if m == nil {
		m = hmac.New(sha256.New, d.secret)
	}
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write([]byte(address))
	return m.Sum(nil)
}

// label is the decoy label of address.
func (d *decoys) label(address string) string {
	return labelEncoding.EncodeToString(d.mac("label", address)[:10])
}

// boxKey is the decoy X25519 public key of address: a real public key
// (of a private key nobody keeps), so it passes any check an agent makes.
// It is X25519(k, basepoint) computed as a fixed-base multiplication on
// the birationally equivalent Edwards curve, with precomputed tables:
// about a third of the Montgomery ladder's time, on every resolve.
func (d *decoys) boxKey(address string) []byte {
	s, err := edwards25519.NewScalar().SetBytesWithClamping(d.mac("box", address))
	if err != nil {
		panic("relay: decoy key: " + err.Error()) // only for a length other than 32
	}
	return new(edwards25519.Point).ScalarBaseMult(s).BytesMontgomery()
}

// labelOf returns the label of host when host is <label>.<zone>.
func labelOf(host, zone string) (string, bool) {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	l, ok := strings.CutSuffix(host, "."+zone)
	if !ok || !validLabel(l) {
		return "", false
	}
	return l, true
}
