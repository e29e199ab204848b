package app

import (
	"strings"
	"testing"

	"mailnode/app/localapi"
)

// TestPairReach: the pairing code holds the LAN address when the person
// chose it, else the relay name when registered, else the gateway's own
// origin; and its sentence says what a phone can do with it.
func TestPairReach(t *testing.T) {
	const ca = "/data/ca/ca.pem"
	for _, tc := range []struct {
		name                  string
		lan, relay            string
		relayDev, loopback    bool
		devDNS                string
		devPort               int
		local                 string
		wantOrigin, wantReach string
		wantNote              []string
	}{
		{name: "neither: loopback", local: "https://localhost:8443", loopback: true,
			wantOrigin: "https://localhost:8443", wantReach: localapi.ReachLocal,
			wantNote: []string{"this computer only", "mailnode-phone", "mailnode pair --lan"}},
		{name: "every address, named localhost", local: "https://localhost:8443",
			wantOrigin: "https://localhost:8443", wantReach: localapi.ReachLocal,
			wantNote: []string{"the phone itself", "mailnode pair --lan", "--hostname"}},
		{name: "every address, named by a loopback IP", local: "https://[::1]:8443",
			wantOrigin: "https://[::1]:8443", wantReach: localapi.ReachLocal, wantNote: []string{"the phone itself"}},
		{name: "neither: a configured name", local: "https://node.example.net",
			wantOrigin: "https://node.example.net", wantReach: localapi.ReachDirect, wantNote: []string{"node.example.net"}},
		{name: "registered", relay: "k3x9.relay.example", local: "https://localhost:8443", loopback: true,
			wantOrigin: "https://k3x9.relay.example", wantReach: localapi.ReachRelay, wantNote: []string{"from any network"}},
		{name: "registered at a development relay", relay: "k3x9.relay.test", relayDev: true, local: "https://localhost:8443", loopback: true,
			wantOrigin: "https://k3x9.relay.test", wantReach: localapi.ReachRelay,
			wantNote: []string{"development relay", "a phone cannot open it", "--dev-dns RELAY-DNS", "--dev-port RELAY-PORT", "--ca " + ca, "mailnode pair --lan"}},
		{name: "a development relay whose DNS and port are known", relay: "k3x9.relay.test", relayDev: true, devDNS: "127.0.0.1:4053", devPort: 4443,
			local: "https://localhost:8443", loopback: true, wantOrigin: "https://k3x9.relay.test", wantReach: localapi.ReachRelay,
			wantNote: []string{"--dev-dns 127.0.0.1:4053 --dev-port 4443"}},
		{name: "LAN on", lan: "https://192.168.1.20:8443", local: "https://localhost:8443", loopback: true,
			wantOrigin: "https://192.168.1.20:8443", wantReach: localapi.ReachLAN,
			wantNote: []string{"same network", "192.168.1.20:8443", "agents", "certificate", ca}},
		{name: "LAN on beats the relay name", lan: "https://[fd00::2]:8443", relay: "k3x9.relay.example",
			wantOrigin: "https://[fd00::2]:8443", wantReach: localapi.ReachLAN, wantNote: []string{"same network"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			origin, reach, note := pairReach(reachIn{lan: tc.lan, relayName: tc.relay, relayDev: tc.relayDev, devDNS: tc.devDNS, devPort: tc.devPort,
				local: tc.local, loopback: tc.loopback, caFile: ca})
			if origin != tc.wantOrigin || reach != tc.wantReach {
				t.Errorf("pairReach = %q, %q; want %q, %q", origin, reach, tc.wantOrigin, tc.wantReach)
			}
			for _, w := range tc.wantNote {
				if !strings.Contains(note, w) {
					t.Errorf("note %q\nlacks %q", note, w)
				}
			}
		})
	}
}
