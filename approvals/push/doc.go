// Package push sends Web Push notifications of approval prompts to the
// user's paired phones (docs/phone.md, "Notifications"), so that a phone
// whose app is closed learns that an agent waits: RFC 8030 push requests
// with VAPID (RFC 8292) and aes128gcm message encryption (RFC 8291),
// written on the standard library.
//
// What is pushed is a small notice sealed to the device with the key of
// its pairing (package pairing, direction ToPhonePush): the approval id,
// the agent, the tool in one line, the match code and the expiry. The
// push service sees a ciphertext inside its own ciphertext, of one fixed
// length; the relay sees nothing, as the node talks to the push service
// directly. The app fetches the prompt itself as always.
//
// Pushes are sent off the request path: Service.Run hears the approvals
// Manager's events and puts a job per device on a queue that workers
// drain, so that an agent's approval_required answer never waits for a
// push service. A push service that answers 429 or 5xx is tried again
// with back-off (its Retry-After honoured) while the prompt lives; 404 or
// 410 deletes the subscription.
//
// A push endpoint is chosen by the phone's browser and so, to the node,
// by whoever holds a paired device: it must be an https URL on port 443
// whose name resolves to public addresses only (package publicaddr, the
// rules of agents' key documents), checked when it is registered and
// again at every dial. The client follows no redirect, uses no proxy and
// caps time and the answer's size.
package push
