// Package relayclient is the node's side of a relay (docs/relay.md): it
// registers the node's address and confirms it with the code the relay
// mails there, keeps the node's certificate for its relay name, and keeps
// a tunnel to the relay over which agents' TLS connections arrive.
//
//	keys.go     the node key (Ed25519) and box key (X25519), 0600 on disk
//	api.go      signed self-service calls
//	tunnel.go   dialing the tunnel, the channel-bound hello, yamux, back-off
//	queue.go    the relay's deliveries of queued envelopes, and their acks
//	listener.go the tunnel's streams as one net.Listener for the gateway
//	client.go   Run: register, confirm, certificate, tunnel, status
//	acme.go     a publicly trusted certificate by ACME DNS-01 through the relay
//
// It imports nothing of the node: what it needs from the mailbox (the
// code) and from the gateway (a certificate source) comes through small
// interfaces in Config.
package relayclient
