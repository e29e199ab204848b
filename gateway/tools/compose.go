package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Composer keeps drafts and sends them, implemented by the node over
// mail/drafts and the account's SMTP server. Every method takes the
// verified agent: a draft belongs to the agent that wrote it.
type Composer interface {
	CreateDraft(ctx context.Context, agent string, d NewDraft) (id string, err error)
	// ReplyDraft drafts a reply to the message thread names (a reference
	// get_excerpt returned): to its sender, with its subject and the
	// threading headers.
	ReplyDraft(ctx context.Context, agent string, thread int64, body string) (id string, err error)
	// Outgoing returns the hash of the exact message draft id would send
	// and the draft in readable form, for the approval.
	Outgoing(ctx context.Context, agent, id string) (hash, readable string, err error)
	// Send sends draft id if its message still hashes to approved.
	Send(ctx context.Context, agent, id, approved string) (SendResult, error)
}

// NewDraft is what create_draft asks for.
type NewDraft struct {
	To, Cc  []string
	Subject string
	Body    string
}

// SendResult is send_draft's answer beyond the spec's sent and draft_id.
type SendResult struct {
	Sent bool `json:"sent"`
	// Outcome is the server's verdict: "accepted", "refused" or
	// "unknown" (the connection broke after the message was handed
	// over: it may have been delivered and is not sent again).
	Outcome     string `json:"outcome"`
	Detail      string `json:"detail,omitempty"`
	SavedToSent bool   `json:"saved_to_sent"`
}

// Caller is the verified agent a tool runs for, with what its approval
// was bound to. The gateway puts it in the context of every call.
type Caller struct {
	Domain string
	// Bound is the value a per-call approval was bound to when it was
	// made, as the approval stored it (for send_draft, the message hash
	// the user approved; for get_excerpt, the hash of the excerpt the
	// phone showed).
	Bound string
}

type callerKey struct{}

// WithCaller returns ctx carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller in ctx.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok && c.Domain != ""
}

// Subject is what a per-call approval is bound to besides the arguments,
// and the request as the phone shows it.
type Subject struct {
	// Bind is a value the approval is found by as well as bound to,
	// computed from what the agent itself knows (send_draft: the hash of
	// its draft): another value is another request.
	Bind string
	// Pin is a value the approval is bound to but not found by, for one
	// computed from mail the agent has not been shown (get_excerpt: the
	// hash of the excerpt): the approval keeps the value it was made
	// with, the tool gets it back as Caller.Bound and compares, and
	// whether the call is pending, denied or approved never depends on
	// it (approvals.Call.Pin).
	Pin     string
	Details string
}

// threadRef names a message for draft_reply: t_ and the store's id. It
// is handed out only by get_excerpt, which the user approved; replying
// to it still needs a send approval that shows every recipient.
func threadRef(id int64) string { return "t_" + strconv.FormatInt(id, 10) }

var threadPattern = regexp.MustCompile(`^t_([0-9]{1,18})$`)

// boundHash is the prefix of a send approval's bound value.
const boundHash = "message-sha256:"

type composer struct{ c Composer }

func (c composer) available() error {
	if c.c == nil {
		return &Error{Code: "not_available", Message: "this node keeps no drafts"}
	}
	return nil
}

func caller(ctx context.Context) (Caller, error) {
	cl, ok := CallerFrom(ctx)
	if !ok {
		return Caller{}, fmt.Errorf("compose tool called without a verified caller")
	}
	return cl, nil
}

func (c composer) create(ctx context.Context, args json.RawMessage) (any, error) {
	if err := c.available(); err != nil {
		return nil, err
	}
	var a struct {
		To, Cc  []string
		Subject string
		Body    string
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	cl, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	id, err := c.c.CreateDraft(ctx, cl.Domain, NewDraft{To: a.To, Cc: a.Cc, Subject: a.Subject, Body: a.Body})
	if err != nil {
		return nil, err
	}
	return map[string]any{"created": true, "draft_id": id}, nil
}

func (c composer) reply(ctx context.Context, args json.RawMessage) (any, error) {
	if err := c.available(); err != nil {
		return nil, err
	}
	var a struct{ Thread, Body string }
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	m := threadPattern.FindStringSubmatch(strings.TrimSpace(a.Thread))
	if m == nil {
		return nil, &Error{Code: "invalid_arguments", Message: "thread is a reference like t_123 from get_excerpt"}
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	cl, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	draft, err := c.c.ReplyDraft(ctx, cl.Domain, id, a.Body)
	if err != nil {
		return nil, err
	}
	return map[string]any{"created": true, "draft_id": draft}, nil
}

func draftID(args json.RawMessage) (string, error) {
	var a struct {
		DraftID string `json:"draft_id"`
	}
	if err := decode(args, &a); err != nil {
		return "", err
	}
	if !draftPattern.MatchString(a.DraftID) {
		return "", &Error{Code: "invalid_arguments", Message: "draft_id is of the form d_<id>"}
	}
	return a.DraftID, nil
}

var draftPattern = regexp.MustCompile(`^d_[A-Za-z0-9_-]{1,64}$`)

// sendSubject binds a send approval to the exact message: the hash of
// the bytes that will go to the server, and the full draft for the
// phone to show.
func (c composer) sendSubject(ctx context.Context, agent string, args json.RawMessage) (Subject, error) {
	if err := c.available(); err != nil {
		return Subject{}, err
	}
	id, err := draftID(args)
	if err != nil {
		return Subject{}, err
	}
	hash, readable, err := c.c.Outgoing(ctx, agent, id)
	if err != nil {
		return Subject{}, err
	}
	return Subject{Bind: boundHash + hash, Details: "Send this message:\n\n" + readable}, nil
}

func (c composer) send(ctx context.Context, args json.RawMessage) (any, error) {
	if err := c.available(); err != nil {
		return nil, err
	}
	id, err := draftID(args)
	if err != nil {
		return nil, err
	}
	cl, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	approved, ok := strings.CutPrefix(cl.Bound, boundHash)
	if !ok {
		// Cannot happen behind the gateway: send is a per-call tier.
		return nil, fmt.Errorf("send_draft without an approved message hash")
	}
	res, err := c.c.Send(ctx, cl.Domain, id, approved)
	if err != nil {
		return nil, err
	}
	return struct {
		SendResult
		DraftID string `json:"draft_id"`
	}{res, id}, nil
}
