// Package relay holds the wire types of the relay's agent API
// (docs/protocol.md, "Relay"): what an agent sends to resolve an address
// and to leave a sealed request in the offline queue, and what the relay
// answers. The agent SDK, the relay server and the node's relay client
// all speak these types; the package imports nothing of any of them, so
// each program links only the messages, never another's code (as
// Tailscale's derp package does for its relays).
package relay

import (
	"encoding/json"
	"time"
)

// The agent API's paths, relative to the relay's base URL.
const (
	PathHealth       = "/v1/health"
	PathTransparency = "/v1/transparency"
	PathMetrics      = "/v1/metrics"
	PathResolve      = "/v1/resolve"
	PathQueue        = "/v1/queue"       // + "/{hostname}"
	PathQueueReply   = "/v1/queue/reply" // + "/{request_id}"
)

// Health is the body of GET /v1/health. NodesConnected counts live
// tunnels.
type Health struct {
	Status         string `json:"status"`
	NodesConnected int    `json:"nodes_connected"`
	Version        string `json:"version"`
}

// Metrics is the body of GET /v1/metrics: counts of one relay instance
// (the *Requests, Streams and DNS counts since it started), none of them
// about any one user, as /v1/transparency lists them.
type Metrics struct {
	// NodesConnected is the live tunnels at this instance.
	NodesConnected int `json:"nodes_connected"`
	// NodesRegistered is the nodes registered, every instance's.
	NodesRegistered int `json:"nodes_registered"`
	// ResolveRequests counts POST /v1/resolve, answered or not.
	ResolveRequests uint64 `json:"resolve_requests"`
	// RateLimitedRequests counts the API's 429 answers.
	RateLimitedRequests uint64 `json:"rate_limited_requests"`
	// TunnelStreams counts connections spliced onto a node's tunnel.
	TunnelStreams uint64 `json:"tunnel_streams"`
	// DNSRateLimited counts DNS responses over UDP truncated or dropped
	// by the per-network response rate limit.
	DNSRateLimited uint64 `json:"dns_rate_limited"`
}

// ResolveRequest is the body of POST /v1/resolve.
type ResolveRequest struct {
	Address string `json:"address"`
}

// Resolution is the relay's answer for an address. Its shape is the same
// for registered and unregistered addresses.
type Resolution struct {
	Relay         string `json:"relay"`
	Hostname      string `json:"hostname"`
	BoxPubKey     string `json:"box_pubkey"`
	QueueEndpoint string `json:"queue_endpoint"`
}

// Complete reports whether r has every field an agent needs.
func (r Resolution) Complete() bool {
	return r.Hostname != "" && r.BoxPubKey != "" && r.QueueEndpoint != ""
}

// QueueRequest is the body of POST /v1/queue/{hostname}. RequestID, when
// set, makes retries idempotent.
type QueueRequest struct {
	Envelope  string `json:"envelope"`
	RequestID string `json:"request_id,omitempty"`
}

// Queued is the relay's receipt for a queued request (202).
type Queued struct {
	RequestID string `json:"request_id"`
	ExpiresAt int64  `json:"expires_at"` // Unix seconds
}

// Reply is the body of a ready reply (GET /v1/queue/reply/{id}, 200).
type Reply struct {
	Envelope string `json:"envelope"`
}

// Error is every error answer of the relay.
type Error struct {
	Code   string `json:"error"`
	Detail string `json:"detail"`
}

// The offline queue's limits (docs/protocol.md, "Limits").
const (
	// MaxEnvelope is the largest sealed envelope the relay takes, in
	// sealed bytes (before base64url). A sealed box adds SealOverhead
	// bytes to its plaintext.
	MaxEnvelope = 64 << 10
	// SealOverhead is an anonymous sealed box's overhead: a 32-byte
	// ephemeral public key and a 16-byte Poly1305 tag.
	SealOverhead = 48
	// MaxQueued is how many envelopes one node name may hold: waiting,
	// or delivered and not yet expired (docs/relay.md, "The offline
	// queue").
	MaxQueued = 32
	// QueueShare is how many of a name's MaxQueued places one client
	// network (an IPv4 /24, an IPv6 /56) may hold, by default.
	QueueShare = 8
	// QueueTTL is how long an envelope, and then its reply, is kept.
	QueueTTL = 24 * time.Hour
)

// QueuePreface opens a tunnel stream that carries queued envelopes to the
// node instead of an agent's TLS. An agent's stream begins with a TLS
// handshake record (0x16); this one with "M". The relay then writes one
// QueueDelivery per line, the node answers one QueueAck per line, in any
// order, and the relay drops an envelope only when its ack arrives.
const QueuePreface = "MAILNODE-QUEUE/1\n"

// QueueDelivery is a queued envelope handed to its node.
type QueueDelivery struct {
	RequestID string `json:"request_id"`
	Envelope  string `json:"envelope"` // base64url sealed box
}

// QueueAck is the node's receipt for a delivery: it has taken the
// request (or dropped it for good), and the relay may forget the
// envelope. Reply, base64url, is the node's reply envelope, sealed to its
// own box key; empty for none.
type QueueAck struct {
	RequestID string `json:"request_id"`
	Reply     string `json:"reply,omitempty"`
}

// Envelope is the plaintext of a sealed envelope: the signed request as
// the agent would have sent it live. Headers are lower case; "host" is the
// node's public name the signature covers.
type Envelope struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
}
