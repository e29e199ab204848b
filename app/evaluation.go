package app

import (
	"context"
	"fmt"
	"time"

	"mailnode/approvals"
	"mailnode/gateway/tools"
	"mailnode/mail/store"
)

// ReadTools returns the node's read tools (get_upcoming_travel,
// order_status, bills_due, ask, get_excerpt) over its store and facts,
// exactly as the gateway runs them once a call is authorised, with now as
// their clock (nil: time.Now). It is for evaluation and tests in the same
// process (app/injectioneval measures what mail text reaches an agent
// through them): no grant, approval or phone prompt stands before these
// handlers, so nothing an agent reaches may call it.
//
// It is a method here, not a copy of the tools' wiring in the harness,
// because the tools' view of the store (mailSource) is the node's own and
// what is measured must be what agents get.
func (n *Node) ReadTools(now func() time.Time) ([]tools.Tool, error) {
	c, err := n.comp()
	if err != nil {
		return nil, err
	}
	var out []tools.Tool
	for _, t := range tools.Catalog(mailSource{c: c, now: now}, nil, now) {
		switch t.Tier {
		case approvals.StructuredRead, approvals.FreeFormRead, approvals.RawRead:
			out = append(out, t)
		}
	}
	return out, nil
}

// AddMail stores raw messages in the INBOX of an account of their own
// named account, beside whatever the node has synced, as a sync pass
// would store them (the facts hook reads each one as it is stored);
// ReadFacts then merges them. It is for evaluation and tests: a corpus of
// hostile mail is measured through the node's own store and fact pipeline
// without an IMAP server. Messages are numbered from UID 1 on each call,
// so a second call with the same account replaces nothing and adds
// nothing it already holds.
func (n *Node) AddMail(ctx context.Context, account string, raws [][]byte) error {
	c, err := n.comp()
	if err != nil {
		return err
	}
	acct, err := c.store.EnsureAccount(ctx, store.Account{Name: account, Server: "evaluation:0", Username: account})
	if err != nil {
		return fmt.Errorf("add mail to %s: %w", account, err)
	}
	inbox, err := c.store.EnsureFolder(ctx, acct.ID, "INBOX", "")
	if err != nil {
		return fmt.Errorf("add mail to %s: %w", account, err)
	}
	batch := make([]store.NewMessage, len(raws))
	for i, raw := range raws {
		batch[i] = store.NewMessage{UID: uint32(i + 1), Raw: raw}
	}
	if err := c.store.AddMessages(ctx, inbox.ID, batch, uint32(len(batch))); err != nil {
		return fmt.Errorf("add mail to %s: %w", account, err)
	}
	return nil
}
