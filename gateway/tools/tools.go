// Package tools is the node's MCP tool catalog: each tool's name, tier,
// input schema and handler. Handlers run only after the gateway has
// authorised the call; they read mail through the narrow Source interface
// and return extracted fields, never message bodies.
//
// The structured tools answer from the merged facts the extractors keep
// (package extract/facts); ask and get_excerpt retrieve through the
// full-text index and read only the few messages it ranks best. The JSON
// fields are documented in docs/extract.md.
package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"mailnode/approvals"
	"mailnode/extract/answer"
)

// Tool is one entry of the catalog.
type Tool struct {
	Name        string
	Tier        approvals.Tier
	Description string
	// InputSchema is the JSON Schema of the arguments, published in
	// tools/list.
	InputSchema map[string]any
	// OutputSchema, if set, is the JSON Schema of a successful result,
	// published in tools/list; the gateway then also gives the result as
	// structuredContent (the same JSON as the text content, which stays,
	// as the spec asks of a tool with an output schema).
	OutputSchema map[string]any
	// Hints are the tool's MCP annotations, for a client that decides what
	// to confirm with its user; they are hints to the client, never what
	// the node authorises by (that is Tier).
	Hints Hints
	// Run answers a call. Its result is serialised as JSON into the MCP
	// result's text content. An *Error is shown to the agent; any other
	// error is logged and the agent sees "internal_error".
	Run func(ctx context.Context, args json.RawMessage) (any, error)
	// Subject, for a per-call tier (required there), says what the
	// approval is bound to beside the arguments and how the phone shows
	// the request, from the arguments as Run decodes them. An *Error
	// refuses the call before any approval is asked.
	Subject func(ctx context.Context, agent string, args json.RawMessage) (Subject, error)
}

// Hints are a tool's MCP annotations (readOnlyHint, destructiveHint,
// openWorldHint). The zero value is the most cautious reading the spec
// defines for a tool that is not read-only: it may destroy, and it meets
// the open world.
type Hints struct {
	// ReadOnly: the tool changes nothing.
	ReadOnly bool
	// Additive: not read-only, and it only adds (a draft), never destroys
	// or sends. Without it a tool that is not read-only is destructive.
	Additive bool
	// ClosedWorld: what the tool returns and does stays within the
	// user's own node. Without it, text written by anyone who can send
	// the user mail may appear in its result, or the tool reaches people
	// outside the node (openWorldHint).
	ClosedWorld bool
}

// Error is a tool-level error the agent sees as {"error", "message"}. Its
// text is chosen for the agent: never mail content, paths or secrets.
type Error struct {
	Code    string `json:"error"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Message is a stored message as the tools may see it: metadata only.
type Message struct {
	ID      int64
	Date    time.Time
	From    string
	Subject string
	// Verified: the sender's domain was authenticated (DMARC/DKIM as the
	// provider or the node checked it), so From's domain is really the
	// sender's.
	Verified bool
	// Trusted: Verified, and the domain is neither a free-mail provider
	// nor one first seen in the last days, unless the user has written
	// to it. Anyone can own a domain that passes DKIM; only a trusted
	// sender's words or contacts are ever passed on.
	Trusted bool
	// Correspondent: Verified, and the user has written to the sender
	// (its domain, or at a free-mail provider its address). The only
	// sender whose sentences ask quotes: trust by a domain's age is
	// cheap for an attacker to buy, a reply from the user is not.
	Correspondent bool
}

// Source is the mail the tools read, implemented by the node over its
// store and its extracted facts.
type Source interface {
	// TermStats counts the messages holding each term (by Term.Word)
	// and all messages.
	TermStats(ctx context.Context, terms []answer.Term) (docFreq map[string]int, docs int, err error)
	// Retrieve returns the messages that best match terms, best first;
	// docFreq is what TermStats said of them.
	Retrieve(ctx context.Context, terms []answer.Term, docFreq map[string]int, docs, limit int) ([]Message, error)
	// Text returns a retrieved message's plain text, and whether the
	// message is tainted: its subject, its sender's name or any line of
	// its text addresses an AI reader (extract.Tainted). Then the whole
	// message is, not only the line, and no text of it is used. Both come
	// from the one read of the message.
	Text(ctx context.Context, m Message) (text string, tainted bool, err error)

	// Trips returns the trips not ended by from that start before to
	// (zero: no limit), soonest first, as the JSON agents see.
	Trips(ctx context.Context, from, to time.Time, limit int) ([]json.RawMessage, error)
	// Orders returns the orders whose merchant name or sender domain
	// matches merchant, newest first.
	Orders(ctx context.Context, merchant string, limit int) ([]json.RawMessage, error)
	// BillsDue returns unpaid bills due before a time, soonest first.
	BillsDue(ctx context.Context, before time.Time, limit int) ([]json.RawMessage, error)
	// About returns the trips, orders and bills (paid ones too) that one
	// of terms names: a place, a merchant or issuer, a number.
	About(ctx context.Context, terms []string, limit int) ([]json.RawMessage, error)
}

// Catalog returns the node's tools in the order tools/list shows them.
// comp may be nil (no drafts) and now nil for time.Now.
func Catalog(src Source, comp Composer, now func() time.Time) []Tool {
	if now == nil {
		now = time.Now
	}
	r := &reader{src: src, now: now}
	c := composer{comp}
	return []Tool{
		{
			Name: "get_upcoming_travel", Tier: approvals.StructuredRead,
			Description: "Upcoming and current trips found in the user's mail: flights, hotels and trains.",
			InputSchema: object(map[string]any{
				"from": timestamp("Start of the window (default: now)."),
				"to":   timestamp("End of the window (default: no end)."),
			}),
			OutputSchema: factsSchema("trips", "Trips from authenticated, trusted senders, from mail that does not address an AI reader."),
			// Read-only; open world: a trip's names (hotel, carrier,
			// places) are the sender's words, and anyone can send mail.
			Hints: Hints{ReadOnly: true},
			Run:   r.travel,
		},
		{
			Name: "order_status", Tier: approvals.StructuredRead,
			Description: "Status of the user's orders with one merchant.",
			InputSchema: object(map[string]any{
				"merchant": map[string]any{"type": "string", "minLength": 1, "maxLength": 200,
					"description": "Merchant name as the user says it, or sender domain, e.g. \"Acme Home & Co\", \"Zalando\" or \"zalando.de\"."},
			}, "merchant"),
			OutputSchema: factsSchema("orders", "Orders from authenticated, trusted senders, from mail that does not address an AI reader."),
			// Read-only; open world: merchant and item names are the
			// sender's words.
			Hints: Hints{ReadOnly: true},
			Run:   r.orders,
		},
		{
			Name: "bills_due", Tier: approvals.StructuredRead,
			Description: "Unpaid bills due before a time, soonest first.",
			InputSchema: object(map[string]any{
				"before": timestamp("Bills due before this time (default: 30 days from now)."),
			}),
			OutputSchema: factsSchema("bills", "Bills from authenticated, trusted senders, from mail that does not address an AI reader."),
			// Read-only; open world: the issuer's name is the sender's
			// words.
			Hints: Hints{ReadOnly: true},
			Run:   r.bills,
		},
		{
			Name: "ask", Tier: approvals.FreeFormRead,
			Description: "Answer one narrow question from the user's mail with a short, redacted answer.",
			InputSchema: object(map[string]any{
				"question": map[string]any{"type": "string", "minLength": 1, "maxLength": 500},
			}, "question"),
			// Read-only; open world: an answer may quote a value or a
			// sender's name from mail (answer_type quote, sender).
			Hints: Hints{ReadOnly: true},
			Run:   r.ask,
		},
		{
			Name: "get_excerpt", Tier: approvals.RawRead,
			Description: "A short redacted excerpt of the one message that answers the request. Needs the user's approval on their phone for every call.",
			InputSchema: object(map[string]any{
				"query": map[string]any{"type": "string", "minLength": 1, "maxLength": 500,
					"description": "What the excerpt should answer."},
			}, "query"),
			// Read-only; open world: the excerpt is mail text, written by
			// whoever sent it.
			Hints:   Hints{ReadOnly: true},
			Run:     r.excerpt,
			Subject: r.excerptSubject,
		},
		{
			Name: "create_draft", Tier: approvals.Compose,
			Description: "Create a draft that stays on the user's device until they send it.",
			InputSchema: object(map[string]any{
				"to":      map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "minItems": 1, "maxItems": 50},
				"cc":      map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "maxItems": 49},
				"subject": map[string]any{"type": "string", "maxLength": 998},
				"body":    map[string]any{"type": "string", "maxLength": 100000},
			}, "to", "body"),
			// Adds a draft on the user's device, destroys nothing and
			// sends nothing; closed world: it answers only the draft's id.
			Hints: Hints{Additive: true, ClosedWorld: true},
			Run:   c.create,
		},
		{
			Name: "draft_reply", Tier: approvals.Compose,
			Description: "Draft a reply in a thread; the draft stays on the user's device.",
			InputSchema: object(map[string]any{
				"thread": map[string]any{"type": "string", "pattern": "^t_[0-9]+$", "description": "Thread reference (t_<id>) from get_excerpt's output."},
				"body":   map[string]any{"type": "string", "maxLength": 100000},
			}, "thread", "body"),
			// As create_draft: a draft on the device, only its id back.
			Hints: Hints{Additive: true, ClosedWorld: true},
			Run:   c.reply,
		},
		{
			Name: "send_draft", Tier: approvals.Send,
			Description: "Send a draft. Needs the user's approval on their phone for every call.",
			InputSchema: object(map[string]any{
				"draft_id": map[string]any{"type": "string", "pattern": "^d_[A-Za-z0-9_-]+$"},
			}, "draft_id"),
			// Destructive (the zero Hints): a sent mail cannot be called
			// back; open world: it goes to people outside the node.
			Run:     c.send,
			Subject: c.sendSubject,
		},
	}
}

func object(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// factsSchema is the output schema of a structured tool: the facts under
// key, and those the node cannot vouch for apart under "unverified"
// (apart). Elements name only the fields every fact has; docs/extract.md
// lists the rest, which a fact may omit.
func factsSchema(key, desc string) map[string]any {
	fact := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"id":              map[string]any{"type": "string"},
			"status":          map[string]any{"type": "string"},
			"sources":         map[string]any{"type": "array", "items": map[string]any{"type": "integer"}},
			"verified_sender": map[string]any{"type": "boolean"},
			"trusted_sender":  map[string]any{"type": "boolean"},
			"tainted":         map[string]any{"type": "boolean"},
		},
		"required": []string{"id"},
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			key:               map[string]any{"type": "array", "items": fact, "description": desc},
			"unverified":      map[string]any{"type": "array", "items": fact, "description": "Facts from senders the node cannot vouch for; confirm with the user before acting on them."},
			"unverified_note": map[string]any{"type": "string"},
		},
		"required": []string{key, "unverified"},
	}
}

func timestamp(desc string) map[string]any {
	return map[string]any{
		"description": desc + " Unix seconds or an RFC 3339 string.",
		"type":        []string{"integer", "string"},
	}
}

// decode reads args into v, refusing unknown fields so that a misspelt
// argument is an error rather than silently ignored, and anything
// CheckArguments refuses.
func decode(args json.RawMessage, v any) error {
	if err := CheckArguments(args); err != nil {
		return err
	}
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		msg := "arguments must be a JSON object"
		var ute *json.UnmarshalTypeError
		var te *Error
		switch {
		case errors.As(err, &te):
			return te
		case errors.As(err, &ute):
			msg = fmt.Sprintf("argument %q has the wrong type", ute.Field)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			msg = "unknown argument " + strings.TrimPrefix(err.Error(), "json: unknown field ")
		}
		return &Error{Code: "invalid_arguments", Message: msg}
	}
	return nil
}

// Time is a timestamp argument: Unix seconds or RFC 3339.
type Time struct{ time.Time }

// UnmarshalJSON accepts a JSON number of seconds or an RFC 3339 string.
func (t *Time) UnmarshalJSON(b []byte) error {
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		sec, err := n.Int64()
		if err != nil {
			return &Error{Code: "invalid_arguments", Message: "timestamps are whole Unix seconds or RFC 3339"}
		}
		t.Time = time.Unix(sec, 0)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return &Error{Code: "invalid_arguments", Message: "timestamps are Unix seconds or RFC 3339 strings"}
	}
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return &Error{Code: "invalid_arguments", Message: "timestamps are Unix seconds or RFC 3339 strings"}
	}
	t.Time = v
	return nil
}
