package relayserver

import (
	"context"
	"net/http"
	"sync/atomic"

	"mailnode/relay"
)

// health answers GET /v1/health. nodes_connected is live tunnels.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, relay.Health{Status: "ok", NodesConnected: s.tunnels.count(), Version: Version})
}

// counters are the instance's counts since it started, served by
// /v1/metrics.
type counters struct {
	resolves, rateLimited, streams atomic.Uint64
}

// Metrics are the counts /v1/metrics serves. Only nodes_registered
// reads the store.
func (s *Server) Metrics(ctx context.Context) (relay.Metrics, error) {
	m := relay.Metrics{
		NodesConnected:      s.tunnels.count(),
		ResolveRequests:     s.counts.resolves.Load(),
		RateLimitedRequests: s.counts.rateLimited.Load(),
		TunnelStreams:       s.counts.streams.Load(),
	}
	if s.dnsLimit != nil {
		m.DNSRateLimited = s.dnsLimit.limited.Load()
	}
	var err error
	m.NodesRegistered, err = s.store.CountNodes(ctx)
	return m, err
}

// metrics answers GET /v1/metrics, within the client's rate like every
// call that reads the store.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	if !s.limits.allow(clientKey(r.RemoteAddr)) {
		s.rateLimited(w)
		return
	}
	m, err := s.Metrics(r.Context())
	if err != nil {
		s.log.Error("Cannot count nodes", "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// Transparency is the body of GET /v1/transparency: what this relay can
// and cannot observe, said plainly, including what decoys do not hide.
type Transparency struct {
	Relay     string   `json:"relay"`
	CanSee    []string `json:"can_see"`
	CannotSee []string `json:"cannot_see"`
	Retention []string `json:"retention"`
	Metrics   []string `json:"metrics"`
	Limits    []string `json:"limits"`
}

func (s *Server) transparencyBody() Transparency {
	return Transparency{
		Relay: s.cfg.APIName,
		CanSee: []string{
			"the addresses agents resolve, the client IP address of each resolve, and when",
			"which node host name each incoming TLS connection asks for (the SNI), the client IP address, when, for how long and how many bytes pass each way",
			"the addresses registered with it, each node's public keys, its host name, and when its tunnel is connected",
			"the confirmation code it mails to an address (it stores only its hash)",
			"the DNS-01 challenge values a node publishes to obtain its certificate",
			"for the offline queue: the target host name, size and timing of each sealed envelope, and the client network it came from (an IPv4 /24 or IPv6 /56), stored only as a keyed digest",
		},
		CannotSee: []string{
			"mail, or any request or answer between an agent and a node: TLS runs end to end between them and the relay holds no node's private key",
			"the contents of queued envelopes: they are sealed to the node's box key",
			"the node's grants, approvals or which tools an agent calls",
		},
		Retention: []string{
			"registrations are kept until the node deletes them (DELETE /v1/node)",
			"pending registrations and their code hashes expire after four hours; when a code was mailed to a mailbox, and a keyed digest of the client network (IPv4 /24, IPv6 /56) that asked, are kept for 24 hours (at most six mails a day per mailbox, twenty per network)",
			"hosted agents' key documents are kept with when they were registered and a keyed digest of the client network that registered them",
			"a queued envelope's sealed bytes are dropped once the node takes it; its record (host name, times, network digest) and any reply expire 24 hours after it was queued",
			"request logs hold no addresses and are not kept beyond the operator's log rotation",
		},
		// What GET /v1/metrics serves (relay.Metrics); TestMetricsServed
		// keeps the two equal.
		Metrics: []string{"nodes_connected", "nodes_registered", "resolve_requests", "rate_limited_requests", "tunnel_streams", "dns_rate_limited"},
		Limits: []string{
			"decoys make unknown addresses look like offline nodes to resolve and to TLS, but cannot hide everything:",
			"certificate-transparency logs list the host names of real nodes that obtained a public certificate",
			"a node that is online completes a TLS handshake, which an unknown or offline name never does",
			"the operator of this relay's DNS zone could obtain a certificate for any node name, and so could impersonate that node to agents",
		},
	}
}

func (s *Server) transparency(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.transparencyBody())
}
