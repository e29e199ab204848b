package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/mail"
	"strings"
	"time"

	"mailnode/gateway/tools"
	"mailnode/mail/drafts"
	"mailnode/mail/imapsync"
	"mailnode/mail/invisible"
	"mailnode/mail/smtpsend"
	"mailnode/mail/store"
)

// Outgoing is how the node sends approved drafts.
type Outgoing struct {
	// From is the user's identity on every draft, "Name <address>".
	// Default: the first account's username if it is an address.
	From string
	// SMTP is the submission server; nil means drafts can be written
	// but not sent.
	SMTP *smtpsend.Config
}

// composer is the compose tools' view of the node: drafts in the store
// file, the SMTP server, and the first account's Sent folder.
type composer struct {
	n *Node
	c *components
}

// openDrafts attaches the drafts tables and marks drafts a stopped node
// left mid-send as unknown.
func openDrafts(ctx context.Context, st *store.Store, log *slog.Logger) (*drafts.Store, error) {
	tables, err := st.Attach(ctx, "drafts", drafts.Migrations)
	if err != nil {
		return nil, err
	}
	ds := drafts.New(tables, log, nil)
	if _, err := ds.Recover(ctx); err != nil {
		return nil, err
	}
	return ds, nil
}

// outgoing returns the sending settings, From defaulting to the first
// account's username if that is an address.
func (c *components) outgoing(cfg Outgoing) Outgoing {
	out := cfg
	if accounts := c.accountsCopy(); out.From == "" && len(accounts) > 0 && strings.Contains(accounts[0].Username, "@") {
		out.From = accounts[0].Username
	}
	return out
}

func (c composer) CreateDraft(ctx context.Context, agent string, d tools.NewDraft) (string, error) {
	out := c.c.outgoing(c.n.cfg.Outgoing)
	if out.From == "" {
		return "", &tools.Error{Code: "not_configured", Message: "the user has not set the address drafts are from"}
	}
	dr, err := c.c.drafts.Create(ctx, drafts.Input{Agent: agent, From: out.From, To: d.To, Cc: d.Cc, Subject: d.Subject, Body: d.Body})
	if err != nil {
		return "", draftError(err)
	}
	return dr.ID, nil
}

func (c composer) ReplyDraft(ctx context.Context, agent string, thread int64, body string) (string, error) {
	out := c.c.outgoing(c.n.cfg.Outgoing)
	if out.From == "" {
		return "", &tools.Error{Code: "not_configured", Message: "the user has not set the address drafts are from"}
	}
	raw, err := c.c.store.Raw(ctx, thread)
	if err != nil {
		return "", &tools.Error{Code: "not_found", Message: "no such thread"}
	}
	orig, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return "", &tools.Error{Code: "not_found", Message: "the thread's message cannot be read"}
	}
	h := orig.Header
	to := h.Get("Reply-To")
	if to == "" {
		to = h.Get("From")
	}
	rcpts, err := mail.ParseAddressList(to)
	if err != nil || len(rcpts) == 0 {
		return "", &tools.Error{Code: "invalid_arguments", Message: "the thread's message has no address to reply to"}
	}
	var dec mime.WordDecoder
	subject, err := dec.DecodeHeader(h.Get("Subject"))
	if err != nil {
		subject = h.Get("Subject")
	}
	// The subject comes from someone else's mail: what the user could
	// not see has no place in their reply.
	subject = strings.Join(strings.Fields(invisible.Strip(subject)), " ")
	if !strings.HasPrefix(strings.ToLower(subject), "re:") {
		subject = "Re: " + subject
	}
	in := drafts.Input{Agent: agent, From: out.From, Subject: subject, Body: body}
	for _, a := range rcpts {
		in.To = append(in.To, a.String())
	}
	if id := strings.TrimSpace(h.Get("Message-ID")); id != "" {
		in.InReplyTo = id
		in.References = append(strings.Fields(h.Get("References")), id)
		if len(in.References) > 20 {
			in.References = in.References[len(in.References)-20:]
		}
	}
	dr, err := c.c.drafts.Create(ctx, in)
	if err != nil {
		return "", draftError(err)
	}
	return dr.ID, nil
}

func (c composer) Outgoing(ctx context.Context, agent, id string) (string, string, error) {
	d, err := c.c.drafts.Get(ctx, agent, id)
	if err != nil {
		return "", "", draftError(err)
	}
	switch d.State {
	case drafts.StateSent:
		return "", "", draftError(drafts.ErrAlreadySent)
	case drafts.StateUnknown:
		return "", "", draftError(drafts.ErrUncertain)
	}
	hash, err := d.Hash()
	if err != nil {
		return "", "", err
	}
	return hash, d.Readable(), nil
}

func (c composer) Send(ctx context.Context, agent, id, approved string) (tools.SendResult, error) {
	out, accounts := c.c.outgoing(c.n.cfg.Outgoing), c.c.accountsCopy()
	if out.SMTP == nil {
		return tools.SendResult{}, &tools.Error{Code: "not_configured", Message: "the user has not set up sending on this node"}
	}
	d, msg, err := c.c.drafts.BeginSend(ctx, agent, id, approved)
	if err != nil {
		return tools.SendResult{}, draftError(err)
	}
	// The send outlives the agent's request: once begun it runs to its
	// own timeout, so that its outcome is always recorded.
	ctx = context.WithoutCancel(ctx)
	from, _ := mail.ParseAddress(d.From)
	res := smtpsend.Send(ctx, *out.SMTP, c.n.log, from.Address, d.Recipients(), msg)
	state := map[smtpsend.Outcome]string{smtpsend.Accepted: drafts.StateSent, smtpsend.Refused: drafts.StateFailed, smtpsend.Unknown: drafts.StateUnknown}[res.Outcome]
	if err := c.c.drafts.FinishSend(ctx, d.ID, state, res.Detail); err != nil {
		return tools.SendResult{}, err
	}
	r := tools.SendResult{Sent: res.Outcome == smtpsend.Accepted, Outcome: string(res.Outcome), Detail: res.Detail}
	if r.Sent && len(accounts) > 0 {
		actx, cancel := context.WithTimeout(ctx, time.Minute)
		folder, err := imapsync.AppendSent(actx, accounts[0], msg, time.Now())
		cancel()
		if err != nil {
			c.n.log.Warn("Sent, but could not put the message into the Sent folder", "draft", d.ID, "err", err)
		} else {
			r.SavedToSent = true
			c.n.log.Info("Sent message saved", "draft", d.ID, "folder", folder)
		}
	}
	return r, nil
}

// draftError is the tool error an agent sees for a drafts error.
func draftError(err error) error {
	var ie *drafts.InvalidError
	switch {
	case errors.As(err, &ie):
		return &tools.Error{Code: "invalid_arguments", Message: ie.Msg}
	case errors.Is(err, drafts.ErrNotFound):
		return &tools.Error{Code: "not_found", Message: "no such draft"}
	case errors.Is(err, drafts.ErrChanged):
		return &tools.Error{Code: "approval_void", Message: err.Error()}
	case errors.Is(err, drafts.ErrAlreadySent):
		return &tools.Error{Code: "already_sent", Message: err.Error()}
	case errors.Is(err, drafts.ErrInFlight):
		return &tools.Error{Code: "send_in_progress", Message: err.Error()}
	case errors.Is(err, drafts.ErrUncertain):
		return &tools.Error{Code: "send_uncertain", Message: err.Error()}
	}
	return fmt.Errorf("drafts: %w", err)
}

// Drafts lists the newest drafts agents wrote, for the user.
func (n *Node) Drafts(ctx context.Context, limit int) ([]Draft, error) {
	c, err := n.comp()
	if err != nil {
		return nil, err
	}
	ds, err := c.drafts.List(ctx, limit)
	out := make([]Draft, len(ds))
	for i, d := range ds {
		out[i] = draftView(d)
	}
	return out, err
}

// Draft returns one draft, for the user.
func (n *Node) Draft(ctx context.Context, id string) (Draft, error) {
	c, err := n.comp()
	if err != nil {
		return Draft{}, err
	}
	d, err := c.drafts.Find(ctx, id)
	return draftView(d), err
}

// EditDraft changes a draft's subject or body (nil leaves it). An
// approval to send the old text no longer holds: the agent's next
// send_draft asks the phone again, showing the new text.
func (n *Node) EditDraft(ctx context.Context, id string, subject, body *string) (Draft, error) {
	c, err := n.comp()
	if err != nil {
		return Draft{}, err
	}
	d, err := c.drafts.Edit(ctx, id, subject, body)
	return draftView(d), err
}
