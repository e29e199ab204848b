package app

import (
	"testing"

	"mailnode/relay/relayclient"
)

// TestNodeSites: the node's one notion of a site takes the configured
// hosting suffixes, the agents zone of the relay it is configured with,
// and, once the relay names the node, the zone of that name (a relay
// whose API name is not its zone); a bad suffix is a configuration error.
func TestNodeSites(t *testing.T) {
	n, err := New(Config{DataDir: t.TempDir(), Gateway: GatewayConfig{HostingSuffixes: []string{"Hosting.Example."}},
		Relay: RelayConfig{URL: "https://api.relay.example"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(domain, want string) {
		t.Helper()
		if got := n.Site(domain); got != want {
			t.Errorf("Site(%q) = %q, want %q", domain, got, want)
		}
	}
	check("b.a.hosting.example", "a.hosting.example")
	check("k1.agents.api.relay.example", "k1.agents.api.relay.example")
	check("k1.agents.relay.example", "relay.example") // not known yet
	check("a.evil.example", "evil.example")
	n.relayStatus(relayclient.Status{State: "connecting", Hostname: "n0de.relay.example"})
	check("k1.agents.relay.example", "k1.agents.relay.example")
	check("n0de.relay.example", "relay.example")

	if _, err := New(Config{DataDir: t.TempDir(), Gateway: GatewayConfig{HostingSuffixes: []string{"*.example"}}}, nil); err == nil {
		t.Error("New with hosting suffix *.example: no error")
	}
}
