// Package relaystore keeps what a relay must remember: confirmed nodes,
// pending registrations, ACME challenge values, hosted agent keys and the
// relay's secrets. Store is the interface the relay server uses; SQLite
// (one file in WAL mode, the default) implements it, and Postgres, which
// several relay instances share. Both run the same methods and statements
// (sql.go) on the same tables; each database's file holds only what
// differs: its driver, its migrations and how it keeps concurrent writers
// apart.
//
// Nothing here is mail: addresses, public keys, host labels and hashes of
// confirmation codes.
package relaystore

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned when no record matches.
var ErrNotFound = errors.New("relaystore: not found")

// Node is a confirmed registration: Address reaches the node at
// Label.<zone>, which proved it with NodeKey.
type Node struct {
	Address      string
	Label        string
	NodeKey      []byte // Ed25519 public key
	BoxKey       []byte // X25519 public key
	RegisteredAt time.Time
}

// Code is the one live confirmation code of an address: whoever asks for
// a registration of the address while it lives is told its ID and Hash,
// and nothing new is mailed.
type Code struct {
	Address string
	ID      string // public: the code mail's subject names it
	Hash    []byte // relay.CodeHash(Address, code); the code itself is never stored
	Issued  time.Time
	Expires time.Time
	// Mailbox is what the daily limit of code mails counts under: the
	// addresses that reach one mailbox share it. Empty means Address.
	Mailbox string
	// Net is a keyed digest of the client network that asked for the
	// code, for its daily cap of code mails; never the address.
	Net []byte
}

// ErrMailLimit: the mailbox was mailed the most codes allowed in a day,
// or the asking client network asked for the most it may.
var ErrMailLimit = errors.New("relaystore: too many code mails today")

// ErrAgentLimit: the relay, or the asking client network, registered the
// most new hosted agents allowed in the window.
var ErrAgentLimit = errors.New("relaystore: too many new agents")

// Pending is a key's request to register an address: it may confirm
// with the live code named CodeID.
type Pending struct {
	Address  string
	NodeKey  []byte
	BoxKey   []byte
	CodeID   string
	Expires  time.Time
	Attempts int // wrong codes this key sent for CodeID
}

// Agent is an agent key document the relay hosts at
// <Label>.agents.<zone>.
type Agent struct {
	Label   string
	Kid     string
	Key     []byte // Ed25519 public key
	Created time.Time
	// Net is a keyed digest of the client network that registered it,
	// for its share of the hour's new agents; never the address.
	Net []byte
}

// Envelope is a sealed request in the offline queue. The relay cannot
// read Sealed (it is sealed to the node's box key) nor Reply (sealed by the
// node to itself).
type Envelope struct {
	ID    string // the receipt's request_id, unique relay-wide
	Label string // the node's label, registered or not (a decoy's queue behaves the same)
	// Net is a keyed digest of the client network that left the
	// envelope, for its share of the label's places; never the address.
	Net     []byte
	Sealed  []byte // nil once the node acknowledged it
	Created time.Time
	Expires time.Time
	// Reply is the node's reply envelope, nil until it answered, and nil
	// for good when it acknowledged without one.
	Reply []byte
}

// Delivered reports whether the node acknowledged the envelope.
func (e Envelope) Delivered() bool { return e.Sealed == nil }

// ErrQueueFull: the label already holds the most envelopes it may, or
// the envelope's network holds its share of them.
var ErrQueueFull = errors.New("relaystore: queue full")

// ErrIDTaken: an id already names a live envelope for another label.
var ErrIDTaken = errors.New("relaystore: request id in use for another node")

// Instance is one relay instance of several sharing a store: where its
// peers reach it (the relay mesh) and the SHA-256 of the certificate it
// proves itself with there. It is alive until Expires; it renews that
// with Heartbeat.
type Instance struct {
	ID       string
	MeshAddr string
	CertFP   []byte
	Expires  time.Time
}

// Store is the relay's storage. Every method is safe for concurrent use.
type Store interface {
	// Secret returns the named 32-byte secret, creating it once.
	Secret(ctx context.Context, name string) ([]byte, error)
	// Private returns the named private value PutPrivate stored (the
	// relay's ACME account key, its certificate and key), or
	// ErrNotFound. It shares the secrets' table: Secret's names and
	// these are one namespace.
	Private(ctx context.Context, name string) ([]byte, error)
	PutPrivate(ctx context.Context, name string, value []byte) error

	// TakeLease gives holder the lease name until until, if nobody else
	// holds it at now (a lease past its end is nobody's), and reports
	// whether holder holds it: so that one of the instances sharing the
	// store does a job at a time (renewing the relay's certificate),
	// and another takes over if it dies. DropLease ends holder's lease,
	// if holder still holds it.
	TakeLease(ctx context.Context, name, holder string, now, until time.Time) (bool, error)
	DropLease(ctx context.Context, name, holder string) error

	// Resolve returns the node registered for address, or decoy, with
	// the same work either way (its NodeKey is not read).
	Resolve(ctx context.Context, address string, decoy Node) (Node, error)
	NodeByAddress(ctx context.Context, address string) (Node, error)
	NodeByKey(ctx context.Context, key []byte) (Node, error)
	NodeByLabel(ctx context.Context, label string) (Node, error)
	// PutNode stores n, replacing any node with the same address or
	// the same node key (a node that proves the mailbox again takes the
	// address over, as a lost key must be recoverable).
	PutNode(ctx context.Context, n Node) error
	// RotateKeys replaces the keys of the node holding old.
	RotateKeys(ctx context.Context, old, nodeKey, boxKey []byte) error
	// DeleteNode forgets the node holding key, and its challenges.
	DeleteNode(ctx context.Context, key []byte) error
	// CountNodes is how many nodes are registered.
	CountNodes(ctx context.Context) (int, error)

	// IssueCode makes c the live code of c.Address, unless a code is live
	// there at c.Issued: then it returns that code and false. It returns
	// ErrMailLimit if max codes were issued under c.Mailbox, or netMax
	// for c.Net, in the 24 hours before c.Issued (DropCode takes one
	// back). Instances sharing the store agree: one live code per
	// address, and neither limit passed by requests racing.
	IssueCode(ctx context.Context, c Code, max, netMax int) (Code, bool, error)
	// LiveCode returns the address's code live at now, or ErrNotFound.
	LiveCode(ctx context.Context, address string, now time.Time) (Code, error)
	// DropCode forgets the address's code id, and that it was issued
	// (its mail could not be sent).
	DropCode(ctx context.Context, address, id string) error

	// PutPending stores p, replacing the pending registration of the
	// same address and key; its Attempts are kept if it names the same
	// code, and start at zero for another.
	PutPending(ctx context.Context, p Pending) error
	PendingFor(ctx context.Context, address string, key []byte) (Pending, error)
	// FailPending counts a wrong code; DeletePending ends a registration.
	FailPending(ctx context.Context, address string, key []byte) error
	DeletePending(ctx context.Context, address string, key []byte) error

	// SetChallenges replaces the ACME TXT values of label: a node's
	// label, or one of the relay's own names (relay/relayacme), whole.
	SetChallenges(ctx context.Context, label string, values []string) error
	Challenges(ctx context.Context, label string) ([]string, error)

	// PutAgent stores a; an agent already stored keeps its Created and
	// Net (registering again is idempotent and counts for nothing).
	PutAgent(ctx context.Context, a Agent) error
	AgentByLabel(ctx context.Context, label string) (Agent, error)
	CountAgentsSince(ctx context.Context, since time.Time) (int, error)
	// CountAgentsFrom is how many agents the network net registered since.
	CountAgentsFrom(ctx context.Context, net []byte, since time.Time) (int, error)
	// AddAgent stores a new agent a unless, since since, max agents were
	// registered in all or netMax from a.Net: then ErrAgentLimit, storing
	// nothing. Counting and storing are one step, so requests racing at
	// several instances cannot pass the limits together.
	AddAgent(ctx context.Context, a Agent, since time.Time, max, netMax int) error

	// Enqueue stores e, committed before it returns, unless its ID names
	// a live envelope: then it returns that envelope (without its sealed
	// bytes: an idempotent retry, no second copy) if it is for the same
	// label, and ErrIDTaken if not. Otherwise it returns ErrQueueFull when
	// the label already holds max envelopes, or e.Net share of them, not
	// expired at e.Created: delivered ones count until they expire, as a
	// decoy's (never delivered) do.
	Enqueue(ctx context.Context, e Envelope, max, share int) (Envelope, error)
	// Undelivered returns up to n of label's envelopes not yet
	// acknowledged nor expired at now, oldest first.
	Undelivered(ctx context.Context, label string, now time.Time, n int) ([]Envelope, error)
	// Ack records that the node took the envelope: its sealed bytes are
	// dropped, its row and the reply (which may be nil) kept until it
	// expires. Acknowledging again changes nothing.
	Ack(ctx context.Context, label, id string, reply []byte) error
	// QueueEntry returns the envelope id, or ErrNotFound if it is unknown
	// or expired at now.
	QueueEntry(ctx context.Context, id string, now time.Time) (Envelope, error)
	// QueueReply returns the reply to the envelope id, nil if there is
	// none (yet), or ErrNotFound if the id is unknown or expired at now.
	// It reads nothing else of the envelope, so it costs the same whether
	// or not the node took it.
	QueueReply(ctx context.Context, id string, now time.Time) ([]byte, error)

	// The tunnel directory: which instance holds which node's tunnel.
	// Heartbeat stores or renews an instance until until; Instance reads
	// one alive at now (ErrNotFound otherwise).
	Heartbeat(ctx context.Context, in Instance) error
	Instance(ctx context.Context, id string, now time.Time) (Instance, error)
	// ClaimTunnel records that instance holds label's tunnel (the newest
	// claim wins, as the newest tunnel does); ReleaseTunnel forgets it if
	// that instance still holds it.
	ClaimTunnel(ctx context.Context, label, instance string) error
	ReleaseTunnel(ctx context.Context, label, instance string) error
	// TunnelAt returns the instance holding label's tunnel, if that
	// instance is alive at now; ErrNotFound otherwise. An instance that
	// died stops its heartbeat, and its tunnels fall out of the directory
	// when its lease ends.
	TunnelAt(ctx context.Context, label string, now time.Time) (Instance, error)

	// Expire deletes codes, pending registrations and envelopes past
	// their time, and forgets codes issued more than a day ago.
	Expire(ctx context.Context, now time.Time) error
	Close() error
}
