package relay

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
)

// The node self-service paths (docs/relay.md). Every call is signed with
// the node's Ed25519 key (SignNodeRequest); none is for agents.
const (
	PathRegister        = "/v1/register"
	PathRegisterConfirm = "/v1/register/confirm"
	PathNode            = "/v1/node" // DELETE: forget the node
	PathNodeStatus      = "/v1/node/status"
	PathNodeKeys        = "/v1/node/keys"
	PathACMEChallenge   = "/v1/acme/challenge"
	PathAgentKeys       = "/v1/agent/keys"
)

// Headers of a signed self-service call.
const (
	HeaderNodeKey   = "Mailnode-Node-Key"       // base64url Ed25519 public key
	HeaderNodeTime  = "Mailnode-Node-Time"      // Unix seconds
	HeaderNodeNonce = "Mailnode-Node-Nonce"     // 16+ random bytes, base64url
	HeaderNodeSig   = "Mailnode-Node-Signature" // base64url Ed25519 signature
)

// NodeClockSkew is how far a signed call's time may be from the relay's.
const NodeClockSkew = 300 // seconds

// NodeSigningString is what a node signs for one self-service call. It
// binds the relay's host name (a call to one relay cannot be replayed at
// another), the method, the path, the time, a nonce the relay remembers
// for NodeClockSkew, and the body's SHA-256.
func NodeSigningString(method, host, path string, unix int64, nonce string, body []byte) []byte {
	sum := sha256.Sum256(body)
	var b strings.Builder
	b.WriteString("mailnode-relay-node-v1\n")
	b.WriteString(strings.ToUpper(method) + "\n")
	b.WriteString(strings.ToLower(host) + "\n")
	b.WriteString(path + "\n")
	b.WriteString(strconv.FormatInt(unix, 10) + "\n")
	b.WriteString(nonce + "\n")
	b.WriteString(base64.RawURLEncoding.EncodeToString(sum[:]))
	return []byte(b.String())
}

// EncodeKey is the text form of every public key on the relay's wire.
func EncodeKey(k []byte) string { return base64.RawURLEncoding.EncodeToString(k) }

// DecodeKey parses a 32-byte key in base64url (padding tolerated).
func DecodeKey(s string) ([]byte, error) {
	k, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil || len(k) != 32 {
		return nil, errors.New("not a base64url 32-byte key")
	}
	return k, nil
}

// RegisterRequest (POST /v1/register, signed with NodeKey) asks the relay
// to mail a confirmation code to Address. BoxKey is the node's X25519 key
// that agents seal queued requests to.
type RegisterRequest struct {
	Address string `json:"address"`
	BoxKey  string `json:"box_key"`
}

// RegisterPending (202) says a code is on its way, or already in the
// mailbox: an address has one live code at a time, whoever asked for it
// (docs/relay.md, "Node self-service").
type RegisterPending struct {
	Address string `json:"address"`
	From    string `json:"from"`    // the code mail's sender
	Subject string `json:"subject"` // the code mail's subject: CodeSubject + CodeID
	// ExpiresAt is when the live code stops being good (Unix seconds);
	// the relay mails a new one only after that.
	ExpiresAt int64 `json:"expires_at"`
	// CodeID names the live code: the code mail's subject ends with it.
	// It is no secret (anyone who asks gets it), so a mail bearing it may
	// be forged: the node finds candidate mails by it and trusts only a
	// code whose CodeHash matches.
	CodeID string `json:"code_id"`
	// CodeHash is base64url of CodeHash(Address, code) for the live code.
	CodeHash string `json:"code_hash"`
}

// CodeSubject starts the subject of the relay's code mail; the live code's
// CodeID follows it. The code is in the mail's text (a line "Code: ...")
// and in its HeaderRelayCode header, not in the subject.
const CodeSubject = "mailnode relay code, ref "

// HeaderRelayCode is the code mail's header that holds the code.
const HeaderRelayCode = "Mailnode-Relay-Code"

// NormalizeCode is a code as the relay compares it: upper case, without
// the dashes and spaces that group it for reading.
func NormalizeCode(code string) string {
	return strings.ToUpper(strings.NewReplacer("-", "", " ", "", "\t", "").Replace(strings.TrimSpace(code)))
}

// CodeHash is what the relay stores of a code for address, and tells
// whoever asks for a registration: SHA-256 over a label, the normalized
// address and the normalized code. A code has 125 random bits, so the
// hash gives the code away to nobody, while a node can tell the relay's
// code from any other string in its mailbox without spending a try.
func CodeHash(address, code string) []byte {
	sum := sha256.Sum256([]byte("mailnode-relay-code-v1\n" + strings.ToLower(strings.TrimSpace(address)) + "\n" + NormalizeCode(code)))
	return sum[:]
}

// ConfirmRequest (POST /v1/register/confirm, signed with the key that
// registered) proves the node reads Address.
type ConfirmRequest struct {
	Address string `json:"address"`
	Code    string `json:"code"`
}

// NodeStatus is the relay's record of a node (confirm, GET
// /v1/node/status, key rotation).
type NodeStatus struct {
	Address  string `json:"address"`
	Hostname string `json:"hostname"` // label.zone
	NodeKey  string `json:"node_key"`
	BoxKey   string `json:"box_key"`
	// Tunnel is host:port where the node dials its tunnel (TLS, ALPN
	// TunnelALPN).
	Tunnel string `json:"tunnel"`
	// Tunnels are more addresses of the same relay (other instances),
	// tried in turn when Tunnel cannot be reached.
	Tunnels      []string `json:"tunnels,omitempty"`
	Connected    bool     `json:"connected"`
	RegisteredAt int64    `json:"registered_at"`
}

// KeysRequest (POST /v1/node/keys, signed with the current key) replaces
// the node's keys. Proof is the new key's signature over
// RotationString(current key), so nobody rotates to a key they do not
// hold.
type KeysRequest struct {
	NodeKey string `json:"node_key"`
	BoxKey  string `json:"box_key"`
	Proof   string `json:"proof"`
}

// RotationString is what the new node key signs when it replaces old.
func RotationString(old ed25519.PublicKey) []byte {
	return []byte("mailnode-relay-rotate-v1\n" + EncodeKey(old))
}

// ACMERequest (POST /v1/acme/challenge, signed) sets the TXT values of
// _acme-challenge.<the node's hostname>; an empty list clears them.
type ACMERequest struct {
	Values []string `json:"values"`
}

// MaxACMEValues bounds the TXT values a node may publish at once.
const MaxACMEValues = 4

// AgentKeysRequest (POST /v1/agent/keys, signed with the agent's Ed25519
// key in the node headers) publishes an agent key document at
// https://<label>.agents.<zone>/.well-known/svc-agent for an agent without
// a domain of its own.
type AgentKeysRequest struct {
	Kid string `json:"kid"`
}

// AgentKeysResult names the agent's domain on the relay.
type AgentKeysResult struct {
	Domain string `json:"domain"`
	KeyID  string `json:"key_id"` // domain#kid
}
