// Package relayserver is the relay: the control plane that maps an
// e-mail address to its node's host name and carries agents' TLS to nodes
// behind NAT without reading it (docs/relay.md, docs/protocol.md
// "Relay").
//
// Where things are:
//
//	server.go       Config, Server, the HTTP routes, panic recovery
//	run.go          Run: every listener and the expiry loop, until one fails
//	resolve.go      POST /v1/resolve: the same work and bytes for every address
//	decoy.go        stable decoy labels and box keys (HMAC of a relay secret)
//	limit.go        the per-client and global request limiters
//	health.go       GET /v1/health, GET /v1/transparency
//	nodeauth.go     verifying a node's signed self-service call
//	register.go     /v1/register, /v1/register/confirm, /v1/node/*
//	mailer.go       mailing the confirmation code (SMTP submission)
//	acme.go         /v1/acme/challenge: a node's DNS-01 TXT values
//	agentkeys.go    agent key documents hosted at <label>.agents.<zone>
//	sni.go          the :443 listener: ClientHello peek, then local, splice or stall
//	tunnel.go       nodes' tunnels: TLS, channel-bound hello, yamux
//	dns.go          the zone, answered authoritatively; UDP answers cut to size
//	dnsrrl.go       response rate limiting of the DNS over UDP
//	listener.go     connection caps and accept back-off for the DNS and HTTP listeners
//
// The relay sees metadata (which address was resolved, which node name
// an agent connects to, when, how many bytes), never a request or a
// mail: agents' TLS ends at the node.
package relayserver
