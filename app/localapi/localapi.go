// Package localapi is the contract of the node's local API: the routes,
// the request and answer types and the error codes that the server
// (localserver, run by the node) and the client (localclient, used by
// the command line) share. Both sides take every route and every error
// from here, so they cannot drift apart; Backend is what both implement.
//
// The API is HTTP on a unix socket in the data directory, mode 0600 in a
// 0700 directory: the node owner's alone. The server also checks each
// request against its caller's credentials (localserver: the peer's uid
// from the kernel), so that a socket whose mode was loosened still
// answers nobody else; each route says whether it reads or writes.
//
// While a node runs, every command of the command line goes through
// here: only the node's process opens the store.
package localapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"mailnode/approvals"
)

// SocketName is the socket's file name in the data directory.
const SocketName = "mailnode.sock"

// Backend is the node as the local API exposes it. app.Node implements
// it in the node's process; localclient.Client implements it by calling
// a running node.
type Backend interface {
	Pending(ctx context.Context) ([]approvals.Approval, error)
	Decide(ctx context.Context, idOrCode string, approve bool) (approvals.Approval, error)
	Grants(ctx context.Context) ([]approvals.Grant, error)
	Revoke(ctx context.Context, agent string, tier approvals.Tier) (int, error)
	// Block returns the block as Blocked lists it: the agent domain, or
	// for "*.name" "*." and name's site by the node's reckoning.
	Block(ctx context.Context, agent string) (string, error)
	Audit(ctx context.Context, limit int) ([]approvals.AuditEntry, error)
	// Pair makes a pairing code; with o.LAN it first turns on
	// listening on this computer's local network address (SetLAN).
	Pair(ctx context.Context, o PairOptions) (PairOffer, error)
	PairStatus(ctx context.Context, id string) (PairStatus, error)
	Phones(ctx context.Context) ([]approvals.Phone, error)
	ConfirmPhone(ctx context.Context, id string) (approvals.Phone, error)
	RenamePhone(ctx context.Context, id, name string) (approvals.Phone, error)
	RemovePhone(ctx context.Context, id string) error
	// SetLAN turns listening for phones (and agents) on this computer's
	// local network address on or off, and says where the node listens
	// there.
	SetLAN(ctx context.Context, on bool) (LANStatus, error)
	// Show asks the node's screen, if it has one, to come to the front:
	// a second launch of the desktop app calls it and exits.
	Show(ctx context.Context) error
	// Accounts are the accounts the node syncs, each with what it
	// needs from the person, if anything ("Sign in to Google again").
	Accounts(ctx context.Context) ([]Account, error)
	// SaveAccount adds an account, or gives an account of the same
	// provider a new sign-in, and syncs it at once where the node keeps
	// its accounts current.
	SaveAccount(ctx context.Context, r SaveAccountRequest) (SavedAccount, error)
	// RemoveAccount stops syncing an account and removes it from the
	// settings; its mail stays in the store.
	RemoveAccount(ctx context.Context, name string) error

	// NodeStatus is the node's state as `mailnode status` prints it.
	NodeStatus(ctx context.Context) (NodeStatus, error)
	// Search is a full-text search over the store.
	Search(ctx context.Context, query string, limit int) ([]Summary, error)
	// SyncNow makes one pass over every account, unless the node keeps
	// them current itself (then it says so and counts the store).
	SyncNow(ctx context.Context) (SyncReport, error)
	Drafts(ctx context.Context, limit int) ([]Draft, error)
	Draft(ctx context.Context, id string) (Draft, error)
	// EditDraft changes a draft's subject or body (nil leaves it).
	EditDraft(ctx context.Context, id string, subject, body *string) (Draft, error)
	// Backup is the node's identity sealed with passphrase (app/backup):
	// the caller writes it where the person asked.
	Backup(ctx context.Context, passphrase string) ([]byte, error)
}

// SaveAccountRequest is an account to add or sign in again.
type SaveAccountRequest struct {
	// Settings is the account as the settings file holds it (the JSON of
	// app/config.Account): where its password or refresh token is kept,
	// never the secret. The contract does not repeat the settings'
	// schema, which app/config owns.
	Settings json.RawMessage `json:"settings"`
	// ClientID and ClientSecret are the OAuth client the person named
	// for the account's provider (accounts add --client-id), kept in
	// the settings' signin; "" for the build's own. A desktop client's
	// secret identifies the program, not the person.
	ClientID     string `json:"client_id,omitempty"`
	ClientSecret string `json:"client_secret,omitempty"`
}

// SavedAccount is what SaveAccount did.
type SavedAccount struct {
	Name   string `json:"name"`
	Server string `json:"server"`
	// Again: the account existed and has the new sign-in.
	Again bool `json:"again,omitempty"`
	// Syncing: the node started syncing it; false when the node runs
	// no sync (a store opened for one command, or sync paused).
	Syncing bool `json:"syncing,omitempty"`
}

// NodeStatus is the node's state in a few lines, never a secret.
type NodeStatus struct {
	// Running: the node runs its services (sync, agents, the local
	// API); false for a store a command opened for itself.
	Running    bool      `json:"running"`
	State      string    `json:"state"`
	Messages   int       `json:"messages"`
	LastSync   time.Time `json:"last_sync,omitzero"`
	LastError  string    `json:"last_error,omitempty"`
	SyncPaused bool      `json:"sync_paused,omitempty"`
	Accounts   []Account `json:"accounts"`
	Pending    int       `json:"pending"`
	Phones     int       `json:"phones"`
	Trips      int       `json:"trips"`
	Orders     int       `json:"orders"`
	Bills      int       `json:"bills"`
	// FactsDone of FactsTotal: a re-reading pass runs; both 0 otherwise.
	FactsDone  int    `json:"facts_done,omitempty"`
	FactsTotal int    `json:"facts_total,omitempty"`
	GatewayURL string `json:"gateway_url,omitempty"`
	RelayState string `json:"relay_state,omitempty"`
	// RelayURL is the MCP endpoint agents reach through the relay.
	RelayURL string `json:"relay_url,omitempty"`
}

// SyncResult is what one sync pass changed.
type SyncResult struct {
	Folders  int
	Added    int
	Flagged  int // messages whose flags changed
	Removed  int // messages expunged on the server
	Resets   int // folders fetched again after a UIDVALIDITY change
	Duration time.Duration
}

// Changes is how many messages the pass added, changed or removed.
func (r SyncResult) Changes() int { return r.Added + r.Flagged + r.Removed }

// Stats counts what the store holds.
type Stats struct {
	Accounts    int
	Folders     int
	Messages    int
	Attachments int
	RawBytes    int64
	WithProblem int // messages with a MIME part that could not be decoded
}

// SyncReport is SyncNow's answer.
type SyncReport struct {
	// Continuous: the node keeps every account current itself (IDLE),
	// so no pass was made and Result is zero.
	Continuous bool       `json:"continuous,omitempty"`
	Result     SyncResult `json:"result"`
	Stats      Stats      `json:"stats"`
	// DBPath is the store's file, for the person.
	DBPath string `json:"db_path"`
}

// Summary is one message in a list.
type Summary struct {
	ID          int64
	Folder      string
	UID         uint32
	Date        time.Time
	From        string
	Subject     string
	Flags       string
	Attachments int
}

// Draft is a draft an agent wrote, as the user reviews it.
type Draft struct {
	ID      string
	Agent   string // the agent domain that wrote it; only it may send it
	From    string
	To, Cc  []string
	Subject string
	Created time.Time
	Updated time.Time
	State   string
	SentAt  time.Time
	Detail  string // the SMTP server's answer to the last attempt
	// Readable is the whole message as the phone shows it before a send.
	Readable string
}

// Account is one account as the running node syncs it.
type Account struct {
	Name     string `json:"name"`
	Server   string `json:"server"`
	Username string `json:"username"`
	// Source is where its password or sign-in is kept, never the secret.
	Source string `json:"source"`
	OAuth  bool   `json:"oauth,omitempty"`
	// Problem is what the person must do before it syncs again; "" while
	// it syncs.
	Problem string `json:"problem,omitempty"`
}

// Route is one endpoint: a method and a path, which may hold one
// {name} parameter, and what its caller must be permitted.
type Route struct {
	Method, Path string
	Access       Access
}

// Access is what a route needs of its caller: reading the node's data,
// or changing it (or acting on it: a sync, a backup of its keys).
type Access int

const (
	Read Access = iota + 1
	Write
)

func (a Access) String() string {
	switch a {
	case Read:
		return "read"
	case Write:
		return "write"
	}
	return "none"
}

// Permission is what a caller may do.
type Permission struct{ Read, Write bool }

// Allows reports whether p permits a.
func (p Permission) Allows(a Access) bool {
	return a == Read && p.Read || a == Write && p.Write
}

// Pattern is the route as http.ServeMux reads it.
func (r Route) Pattern() string { return r.Method + " " + r.Path }

// URLPath is the path with its parameter filled in (escaped by the
// caller).
func (r Route) URLPath(param string) string {
	if i := strings.IndexByte(r.Path, '{'); i >= 0 {
		return r.Path[:i] + param
	}
	return r.Path
}

// The routes. A request body, where there is one, is JSON of the type
// named beside it; every answer is JSON of the Backend method's result.
var (
	RoutePending      = Route{"GET", "/v1/approvals", Read}
	RouteDecide       = Route{"POST", "/v1/approvals/decide", Write} // DecideRequest
	RouteGrants       = Route{"GET", "/v1/grants", Read}
	RouteRevoke       = Route{"POST", "/v1/grants/revoke", Write} // RevokeRequest
	RouteBlock        = Route{"POST", "/v1/grants/block", Write}  // RevokeRequest (agent only)
	RouteAudit        = Route{"GET", "/v1/audit", Read}           // ?limit=N
	RoutePair         = Route{"POST", "/v1/phones/pair", Write}   // PairOptions
	RoutePairStatus   = Route{"GET", "/v1/phones/pair/{id}", Read}
	RoutePhones       = Route{"GET", "/v1/phones", Read}
	RouteConfirmPhone = Route{"POST", "/v1/phones/confirm", Write} // PhoneRequest
	RouteRenamePhone  = Route{"POST", "/v1/phones/rename", Write}  // PhoneRequest
	RouteRemovePhone  = Route{"POST", "/v1/phones/remove", Write}  // PhoneRequest
	RouteShow         = Route{"POST", "/v1/show", Write}
	RouteLAN          = Route{"POST", "/v1/phones/lan", Write} // LANRequest
	RouteAccounts     = Route{"GET", "/v1/accounts", Read}
	RouteSaveAccount  = Route{"POST", "/v1/accounts/save", Write}   // SaveAccountRequest
	RouteRemoveAcct   = Route{"POST", "/v1/accounts/remove", Write} // NameRequest
	RouteStatus       = Route{"GET", "/v1/status", Read}
	RouteSearch       = Route{"GET", "/v1/search", Read} // ?q=WORDS&limit=N
	RouteSync         = Route{"POST", "/v1/sync", Write}
	RouteDrafts       = Route{"GET", "/v1/drafts", Read} // ?limit=N
	RouteDraft        = Route{"GET", "/v1/drafts/{id}", Read}
	RouteEditDraft    = Route{"POST", "/v1/drafts/edit", Write} // EditDraftRequest
	// RouteBackup writes: its answer is the node's keys, sealed, and it
	// is taken only by a caller who could change the node.
	RouteBackup = Route{"POST", "/v1/backup", Write} // BackupRequest
)

// Routes lists every route, for the tests that hold server and client to
// the same set.
var Routes = []Route{RoutePending, RouteDecide, RouteGrants, RouteRevoke, RouteBlock, RouteAudit,
	RoutePair, RoutePairStatus, RoutePhones, RouteConfirmPhone, RouteRenamePhone, RouteRemovePhone, RouteShow, RouteLAN, RouteAccounts,
	RouteSaveAccount, RouteRemoveAcct, RouteStatus, RouteSearch, RouteSync, RouteDrafts, RouteDraft, RouteEditDraft, RouteBackup}

// NameRequest names an account.
type NameRequest struct {
	Name string `json:"name"`
}

// EditDraftRequest changes a draft; a nil field stays as it is.
type EditDraftRequest struct {
	ID      string  `json:"id"`
	Subject *string `json:"subject,omitempty"`
	Body    *string `json:"body,omitempty"`
}

// BackupRequest carries the passphrase that seals a backup. The server
// logs no request body.
type BackupRequest struct {
	Passphrase string `json:"passphrase"`
}

// DecideRequest approves or denies a pending request by id or match code.
type DecideRequest struct {
	ID      string `json:"id"`
	Approve bool   `json:"approve"`
}

// RevokeRequest names an agent, and for a revoke optionally one tier.
type RevokeRequest struct {
	Agent string         `json:"agent"`
	Tier  approvals.Tier `json:"tier,omitempty"`
}

// PhoneRequest names a phone, and for a rename its new name.
type PhoneRequest struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

// PairOptions are the choices of a pairing code.
type PairOptions struct {
	// LAN: the phone pairs over this computer's local network (the
	// person chose "pair over this network"), so the node listens on
	// its LAN address too and the code holds that address.
	LAN bool `json:"lan,omitempty"`
}

// How the phone reaches the node, as PairOffer.Reach says it.
const (
	// ReachRelay: the node's name under its relay's zone, from any
	// network (or, at a development relay, only through that relay's
	// own DNS and port).
	ReachRelay = "relay"
	// ReachLAN: this computer's local network address; the phone must be
	// on the same network.
	ReachLAN = "lan"
	// ReachLocal: the node's own listener, loopback as the desktop app
	// runs it: only a phone client on this computer (mailnode-phone, for
	// testing) reaches it.
	ReachLocal = "local"
	// ReachDirect: the gateway's configured name (serve --hostname),
	// which reaches wherever that name and address do.
	ReachDirect = "direct"
)

// PairOffer is a pairing code for the node's screen: the URL its QR
// code holds, valid until Expires, for one phone.
type PairOffer struct {
	ID      string    `json:"id"`
	URL     string    `json:"url"`
	Expires time.Time `json:"expires"`
	// Reach is how the phone reaches the node at URL: ReachRelay,
	// ReachLAN, ReachLocal or ReachDirect.
	Reach string `json:"reach"`
	// Note says so to the person, in a sentence or two that the command
	// line and the window show beside the code.
	Note string `json:"note"`
}

// LANRequest turns listening on the local network on or off.
type LANRequest struct {
	On bool `json:"on"`
}

// LANStatus is where the node listens on the local network.
type LANStatus struct {
	// URL is the node's origin there ("https://192.168.1.20:8443"), ""
	// when it does not listen there.
	URL string `json:"url,omitempty"`
	// Note says what listening there means, for the person.
	Note string `json:"note,omitempty"`
}

// PairStatus is what became of a pairing code.
type PairStatus struct {
	Registered bool            `json:"registered"`
	Phone      approvals.Phone `json:"phone,omitzero"`
	// SAS is the short code the phone also shows: the user confirms
	// only if both are the same.
	SAS string `json:"sas,omitempty"`
}

// ErrNotServing: phones reach the node by the same HTTPS listener as
// agents, and the node serves none.
var ErrNotServing = errors.New("the node is not serving (start it with a gateway address) so no phone can reach it")

// ErrNoLAN: this computer has no address on a local network that a
// phone could reach.
var ErrNoLAN = errors.New("this computer has no address on a local network for a phone to reach (no private IPv4, IPv6 unique local or global address)")

// ErrForbidden: the caller is not permitted the route (another user's
// process, where the socket's mode let it connect).
var ErrForbidden = errors.New("not permitted")

// ErrorBody is the answer of a failed call.
type ErrorBody struct {
	Error string `json:"error"`          // the node's message, for a person
	Code  string `json:"code,omitempty"` // one of Errors, for a program
}

// Errors are the errors that keep their identity across the socket: the
// server answers each with its code and status, and the client returns
// an error that errors.Is the same sentinel, with the node's message.
var Errors = []struct {
	Code   string
	Err    error
	Status int
}{
	{"not_found", approvals.ErrNotFound, http.StatusNotFound},
	{"not_pending", approvals.ErrNotPending, http.StatusConflict},
	{"ambiguous", approvals.ErrAmbiguous, http.StatusConflict},
	{"phone_only", approvals.ErrPhoneOnly, http.StatusForbidden},
	{"no_phone", approvals.ErrNoPhone, http.StatusNotFound},
	{"not_serving", ErrNotServing, http.StatusServiceUnavailable},
	{"no_lan", ErrNoLAN, http.StatusServiceUnavailable},
	{"forbidden", ErrForbidden, http.StatusForbidden},
}

// Encode is err's code and HTTP status: "" and 500 for an error without
// a code.
func Encode(err error) (code string, status int) {
	for _, e := range Errors {
		if errors.Is(err, e.Err) {
			return e.Code, e.Status
		}
	}
	return "", http.StatusInternalServerError
}

// Decode is the error a client returns for a failed call's body.
func Decode(b ErrorBody) error {
	for _, e := range Errors {
		if e.Code == b.Code && b.Code != "" {
			return &RemoteError{msg: b.Error, is: e.Err}
		}
	}
	return &RemoteError{msg: b.Error}
}

// RemoteError is an error the node answered with.
type RemoteError struct {
	msg string
	is  error
}

func (e *RemoteError) Error() string { return e.msg }
func (e *RemoteError) Unwrap() error { return e.is }
