package app

import (
	"context"

	"mailnode/app/localapi"

	"mailnode/approvals"
)

// The user's phones, as the node's screen (the tray window, `mailnode
// pair`, `mailnode phones`) manages them. The phones' own API is in
// gateway/phone.

// PairOffer is a pairing code for the node's screen.
type PairOffer = localapi.PairOffer

// ErrNoPhoneListener is returned when no gateway listens: phones reach
// the node by the same HTTPS listener as agents.
var ErrNoPhoneListener = localapi.ErrNotServing

// Pair makes a one-time pairing code.
func (n *Node) Pair(ctx context.Context) (PairOffer, error) {
	c, err := n.comp()
	if err != nil {
		return PairOffer{}, err
	}
	n.mu.Lock()
	base, phones := n.phoneBase, c.phones
	if n.relayName != "" && base != "" {
		// The relay name reaches the node from anywhere, the phone's
		// mobile network too; the local listener's name only from here.
		base = "https://" + n.relayName + "/phone/"
	}
	n.mu.Unlock()
	if base == "" {
		return PairOffer{}, ErrNoPhoneListener
	}
	o, err := phones.Offer()
	if err != nil {
		return PairOffer{}, err
	}
	return PairOffer{ID: o.ID, URL: o.URL(base), Expires: o.Expires}, nil
}

// PairStatus is what became of a pairing code.
type PairStatus = localapi.PairStatus

// PairStatus tells whether a phone registered with the pairing code id.
func (n *Node) PairStatus(ctx context.Context, id string) (PairStatus, error) {
	c, err := n.comp()
	if err != nil {
		return PairStatus{}, err
	}
	r, ok := c.phones.Offered(id)
	if !ok {
		return PairStatus{}, nil
	}
	return PairStatus{Registered: true, Phone: r.Phone, SAS: r.SAS}, nil
}

// ConfirmPhone pairs a registered phone once the user saw the same short
// code on both screens.
func (n *Node) ConfirmPhone(ctx context.Context, id string) (approvals.Phone, error) {
	c, err := n.comp()
	if err != nil {
		return approvals.Phone{}, err
	}
	return c.phones.Confirm(ctx, id)
}

// Phones lists the registered phones.
func (n *Node) Phones(ctx context.Context) ([]approvals.Phone, error) {
	c, err := n.comp()
	if err != nil {
		return nil, err
	}
	return c.phones.List(), nil
}

// RemovePhone unpairs a phone.
func (n *Node) RemovePhone(ctx context.Context, id string) error {
	c, err := n.comp()
	if err != nil {
		return err
	}
	return c.phones.Remove(ctx, id)
}

// RenamePhone names a phone.
func (n *Node) RenamePhone(ctx context.Context, id, name string) (approvals.Phone, error) {
	c, err := n.comp()
	if err != nil {
		return approvals.Phone{}, err
	}
	return c.phones.Rename(ctx, id, name)
}
