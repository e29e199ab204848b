package app

import (
	"context"
	"strings"

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

// PairOptions are the choices of a pairing code.
type PairOptions = localapi.PairOptions

// Pair makes a one-time pairing code, whose URL names where the phone
// reaches the node (pairReach): with o.LAN it first listens on this
// computer's local network address (SetLAN).
func (n *Node) Pair(ctx context.Context, o PairOptions) (PairOffer, error) {
	c, err := n.comp()
	if err != nil {
		return PairOffer{}, err
	}
	if o.LAN {
		if _, err := n.SetLAN(ctx, true); err != nil {
			return PairOffer{}, err
		}
	}
	phones := c.phones
	n.mu.Lock()
	relayDev := n.cfg.Relay.Dev || n.cfg.Relay.Dial != nil
	n.mu.Unlock()
	base, relayName, loopback, lan := n.gws.pairing()
	if base == "" {
		return PairOffer{}, ErrNoPhoneListener
	}
	origin, reach, note := pairReach(reachIn{lan: lan, relayName: relayName, relayDev: relayDev,
		devDNS: n.cfg.Relay.DevDNS, devPort: n.cfg.Relay.DevPort,
		local: strings.TrimSuffix(base, "/phone/"), loopback: loopback, caFile: n.CAFile()})
	offer, err := phones.Offer()
	if err != nil {
		return PairOffer{}, err
	}
	return PairOffer{ID: offer.ID, URL: offer.URL(origin + "/phone/"), Expires: offer.Expires, Reach: reach, Note: note}, nil
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
