// Package localapi is the contract of the node's local API: the routes,
// the request and answer types and the error codes that the server
// (localserver, run by the node) and the client (localclient, used by
// the command line) share. Both sides take every route and every error
// from here, so they cannot drift apart; Backend is what both implement.
//
// The API is HTTP on a unix socket in the data directory, mode 0600 in a
// 0700 directory: the node owner's alone, and nothing else authenticates
// its callers.
package localapi

import (
	"context"
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
// {name} parameter.
type Route struct{ Method, Path string }

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
	RoutePending      = Route{"GET", "/v1/approvals"}
	RouteDecide       = Route{"POST", "/v1/approvals/decide"} // DecideRequest
	RouteGrants       = Route{"GET", "/v1/grants"}
	RouteRevoke       = Route{"POST", "/v1/grants/revoke"} // RevokeRequest
	RouteBlock        = Route{"POST", "/v1/grants/block"}  // RevokeRequest (agent only)
	RouteAudit        = Route{"GET", "/v1/audit"}          // ?limit=N
	RoutePair         = Route{"POST", "/v1/phones/pair"}   // PairOptions
	RoutePairStatus   = Route{"GET", "/v1/phones/pair/{id}"}
	RoutePhones       = Route{"GET", "/v1/phones"}
	RouteConfirmPhone = Route{"POST", "/v1/phones/confirm"} // PhoneRequest
	RouteRenamePhone  = Route{"POST", "/v1/phones/rename"}  // PhoneRequest
	RouteRemovePhone  = Route{"POST", "/v1/phones/remove"}  // PhoneRequest
	RouteShow         = Route{"POST", "/v1/show"}
	RouteLAN          = Route{"POST", "/v1/phones/lan"} // LANRequest
	RouteAccounts     = Route{"GET", "/v1/accounts"}
)

// Routes lists every route, for the tests that hold server and client to
// the same set.
var Routes = []Route{RoutePending, RouteDecide, RouteGrants, RouteRevoke, RouteBlock, RouteAudit,
	RoutePair, RoutePairStatus, RoutePhones, RouteConfirmPhone, RouteRenamePhone, RouteRemovePhone, RouteShow, RouteLAN, RouteAccounts}

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
