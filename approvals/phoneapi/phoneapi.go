// Package phoneapi holds the messages of the phone API (docs/phone.md):
// what the node's phone handler (gateway/phone) writes and a phone (the
// web app, the reference client gateway/phone/phoneclient) reads, and
// back. Like the relay's wire package it imports nothing of either side;
// the cryptography is package pairing's.
package phoneapi

import "time"

// HeaderName carries a phone request's signature.
const HeaderName = "Mailnode-Device"

// The states of a phone.
const (
	PhonePending = "pending" // registered, short code not yet confirmed on the node
	PhonePaired  = "paired"
)

// PairResult is the node's answer to a registration.
type PairResult struct {
	DeviceID  string `json:"device_id"`
	NodeProof string `json:"node_proof"`
	// SAS is the short code; the phone computes it itself and shows its
	// own. It is returned for the reference client's log only.
	SAS string `json:"sas"`
}

// Prompt is a pending request as the node sends it to a paired phone.
// Every field comes from the node's own record of the request; the phone
// signs its decision over the hash of exactly the bytes it received, so
// a decision is bound to what the user was shown.
type Prompt struct {
	ApprovalID string `json:"approval_id"`
	Agent      string `json:"agent"` // the domain the signature proved
	// Site is Agent's site as the node recorded it (its registrable
	// domain, or under a hosting suffix its own name), which
	// "block_site" blocks.
	Site string `json:"site"`
	Tool string `json:"tool"`
	Tier string `json:"tier"`
	// AlsoTiers are the grant tiers approving it grants besides Tier: an
	// OAuth client's consent asks for the tiers of its scopes together.
	// Absent for every other request, so that their prompts' bytes, and
	// the hashes phones sign, are as before.
	AlsoTiers []string `json:"also_tiers,omitempty"`
	Details   string   `json:"details"`
	MatchCode string   `json:"match_code"`
	CreatedAt int64    `json:"created_at"`
	ExpiresAt int64    `json:"expires_at"`
}

// Verdict is a phone's answer to a prompt.
type Verdict string

// Verdicts.
const (
	Approve Verdict = "approve"
	Deny    Verdict = "deny"
	// DenyAndBlock refuses the request and blocks the agent.
	DenyAndBlock Verdict = "block"
	// DenyAndBlockSite refuses the request and blocks the agent's whole
	// site (Prompt.Site).
	DenyAndBlockSite Verdict = "block_site"
)

// Decision is the body of POST /phone/api/decide.
type Decision struct {
	ApprovalID string `json:"approval_id"`
	Decision   string `json:"decision"`    // a Verdict
	PromptHash string `json:"prompt_hash"` // base64url SHA-256 of the prompt's JSON text
	Signature  string `json:"signature"`   // over pairing.DecisionMessage
}

// State is what a phone shows besides the prompts: sealed, so that a
// relay holding a certificate for the node's name cannot show a false
// list.
type State struct {
	// Pending holds the prompts, each as the exact JSON text whose hash
	// a decision signs.
	Pending  []string   `json:"pending"`
	Phones   []Phone    `json:"phones"`
	Grants   []Grant    `json:"grants"`
	Blocked  []string   `json:"blocked"`
	Activity []Activity `json:"activity"`
	Device   string     `json:"device_id"`
}

// Phone is a registered phone.
type Phone struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	State    string    `json:"state"` // PhonePending or PhonePaired
	Created  time.Time `json:"created_at"`
	PairedAt time.Time `json:"paired_at,omitzero"`
}

// Grant is an agent's standing permission for a tier.
type Grant struct {
	Agent      string    `json:"agent"`
	Tier       string    `json:"tier"`
	KeyFP      string    `json:"key_fingerprint"`
	GrantedAt  time.Time `json:"granted_at"`
	ExpiresAt  time.Time `json:"expires_at"`
	ApprovalID string    `json:"approval_id"`
}

// Activity is one entry of the agents' call log.
type Activity struct {
	At         time.Time `json:"at"`
	Agent      string    `json:"agent"`
	KeyFP      string    `json:"key_fingerprint"`
	Tool       string    `json:"tool"`
	Tier       string    `json:"tier"`
	Decision   string    `json:"decision"`
	ApprovalID string    `json:"approval_id,omitempty"`
	// Retries counts the repeats of a call waiting for the user after
	// its first (approvals.AuditEntry): the entry stands for Retries+1
	// calls, the last at LastAt.
	Retries int       `json:"retries,omitempty"`
	LastAt  time.Time `json:"last_at,omitzero"`
}

// Event is the plaintext of one sealed event of the stream.
type Event struct {
	Type       string `json:"type"`             // "prompt", "decided", "changed"
	Prompt     string `json:"prompt,omitempty"` // for "prompt": the exact JSON text to hash
	ApprovalID string `json:"approval_id,omitempty"`
	State      string `json:"state,omitempty"`
}

// Status is the sealed answer of GET /phone/api/status.
type Status struct {
	State    string `json:"state"`
	Name     string `json:"name"`
	DeviceID string `json:"device_id"`
	// VAPIDPublicKey is the node's application server key (RFC 8292),
	// base64url of the uncompressed P-256 point, which the phone
	// subscribes to push with; sealed, so that a relay cannot substitute
	// its own. Empty when the node sends no push.
	VAPIDPublicKey string `json:"vapid_public_key,omitempty"`
	// Push is whether this device takes push notifications and what
	// became of the last one.
	Push *PushStatus `json:"push,omitempty"`
}

// PushStatus is one device's push notifications as the node sees them.
type PushStatus struct {
	On         bool      `json:"on"`
	LastAt     time.Time `json:"last_at,omitzero"`
	LastOK     bool      `json:"last_ok,omitempty"`
	LastResult string    `json:"last_result,omitempty"`
}

// PushSubscription is the body of POST /phone/api/push/subscribe: exactly
// what the browser's PushSubscription.toJSON() gives.
type PushSubscription struct {
	Endpoint       string   `json:"endpoint"`
	ExpirationTime *float64 `json:"expirationTime"`
	Keys           struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// PushPrefix opens the text of every push message: "mailnode-push-v1."
// then base64url of a PushNotice's JSON sealed to the device
// (pairing.ToPhonePush, associated data PushAAD).
const PushPrefix = "mailnode-push-v1."

// PushAAD is the associated data of a sealed push notice.
var PushAAD = []byte("mailnode-push-v1")

// MaxNotice bounds a push notice's JSON: the node cuts its strings to
// fit; the app fetches the prompt itself in full.
const MaxNotice = 1024

// PushNotice is what a push message says, sealed to the device: a new
// prompt (Type "prompt"), or that a prompt whose notice may be showing was
// decided or expired ("decided", "expired"), which replaces it.
type PushNotice struct {
	Type       string `json:"type"`
	ApprovalID string `json:"approval_id"`
	Agent      string `json:"agent,omitempty"` // the verified domain or OAuth client identity
	Tool       string `json:"tool,omitempty"`  // one line: tool and tier, "send_draft (send)"
	MatchCode  string `json:"match_code,omitempty"`
	ExpiresAt  string `json:"expires_at,omitempty"` // RFC 3339
	State      string `json:"state,omitempty"`      // approved, denied, blocked or expired
}
