package app_test

import (
	"net"
	"net/url"
	"testing"

	"mailnode/agent"
	"mailnode/app/apptest"
	"mailnode/gateway"
)

// TestKeepAliveThroughRelay: HTTP/1.1 keep-alive through the relay (in
// this process) behaves as straight to the node: Go's client, curl and
// Node's fetch each send 1,000 signed calls on one connection, and calls
// 1 s and 30 s apart, to the node's own port and through the relay's SNI
// port and the tunnel, and every one is answered on that one connection
// (issue 40). It used to break on the second request through the relay:
// the node's HTTP server ends each request by interrupting its background
// read with a past read deadline; yamux reported that as a timeout that is
// not temporary, and crypto/tls then failed every later read.
func TestKeepAliveThroughRelay(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 30 s between two calls")
	}
	var log apptest.Buffer
	r := apptest.StartRelay(t, &log)
	domain, key := apptest.HostAgent(t, r)
	// 1,000 calls at once from each client: past the default rates.
	e := apptest.StartNodeWith(t, r, &log, apptest.NodeOptions{AgentDomains: []string{domain},
		RateLimit: gateway.RateLimit{PerAgent: 1e6, Burst: 1e6, PerSite: 1e6, SiteBurst: 1e6}})
	u, err := url.Parse(e.Node.GatewayURL())
	if err != nil {
		t.Fatal(err)
	}
	targets := []apptest.Target{
		{Name: "direct", Host: u.Host, Dial: net.JoinHostPort("127.0.0.1", u.Port())},
		{Name: "relay", Host: e.Host, Dial: r.Addr},
	}
	apptest.CheckKeepAlive(t, targets, e.CAPEM(), agent.Signer{Domain: domain, Kid: "k1", Key: key})
}
