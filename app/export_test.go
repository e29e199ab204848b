package app

import (
	"fmt"

	"mailnode/approvals/pairing"
)

// SealPushNotice seals a push notice to a paired phone with the node's box
// key and the push's own parameters (docs/phone.md, "Push"), as the text a
// service worker's push event carries: the browser test hands it to the
// real worker through the DevTools protocol.
func (n *Node) SealPushNotice(phoneID string, notice []byte) (string, error) {
	c, err := n.comp()
	if err != nil {
		return "", err
	}
	ph, ok := c.phones.Get(phoneID)
	if !ok {
		return "", fmt.Errorf("no phone %s", phoneID)
	}
	box, err := pairing.Seal(c.phones.NodeKey(), ph.BoxKey(), ph.ID, "node-to-phone push", []byte("mailnode-push-v1"), notice)
	if err != nil {
		return "", err
	}
	return "mailnode-push-v1." + pairing.Encode(box), nil
}
