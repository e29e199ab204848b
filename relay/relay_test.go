package relay_test

import (
	"crypto/tls"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"mailnode/relay"
)

// TestWireNames: each message marshals to the member names of
// docs/protocol.md, and reads back the same.
func TestWireNames(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"resolve request", relay.ResolveRequest{Address: "ann@example.org"}, `{"address":"ann@example.org"}`},
		{"resolution", relay.Resolution{Relay: "relay.example.net", Hostname: "n-1.relay.example.net", BoxPubKey: "AAAA", QueueEndpoint: "https://relay.example.net/v1/queue"},
			`{"relay":"relay.example.net","hostname":"n-1.relay.example.net","box_pubkey":"AAAA","queue_endpoint":"https://relay.example.net/v1/queue"}`},
		{"queue request", relay.QueueRequest{Envelope: "c2VhbGVk", RequestID: "r1"}, `{"envelope":"c2VhbGVk","request_id":"r1"}`},
		{"queue request without id", relay.QueueRequest{Envelope: "c2VhbGVk"}, `{"envelope":"c2VhbGVk"}`},
		{"queued", relay.Queued{RequestID: "r1", ExpiresAt: 1760000000}, `{"request_id":"r1","expires_at":1760000000}`},
		{"reply", relay.Reply{Envelope: "c2VhbGVk"}, `{"envelope":"c2VhbGVk"}`},
		{"error", relay.Error{Code: "rate_limited", Detail: "too many requests"}, `{"error":"rate_limited","detail":"too many requests"}`},
		{"envelope", relay.Envelope{Method: "POST", Path: "/mcp", Headers: map[string]string{"host": "n-1.relay.example.net"}, Body: json.RawMessage(`{"jsonrpc":"2.0"}`)},
			`{"method":"POST","path":"/mcp","headers":{"host":"n-1.relay.example.net"},"body":{"jsonrpc":"2.0"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Fatalf("marshal = %s, want %s", b, tt.want)
			}
		})
	}
	if !(relay.Resolution{Hostname: "h", BoxPubKey: "k", QueueEndpoint: "q"}).Complete() || (relay.Resolution{Hostname: "h"}).Complete() {
		t.Error("Complete is wrong")
	}
}

// TestLinksNothing: the wire types are shared by the agent SDK, the relay
// and the node; the package may link nothing of any of them.
func TestLinksNothing(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "mailnode/relay").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "mailnode/relay" {
			t.Errorf("mailnode/relay links %s", p)
		}
	}
}

// FuzzParseTunnelHello: no line is accepted without a valid signature
// over this connection's exporter value, and nothing panics.
func FuzzParseTunnelHello(f *testing.F) {
	f.Add([]byte(`{"node_key":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","signature":"AAAA"}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`not json`))
	var cs tls.ConnectionState // no exporter: every hello must fail
	f.Fuzz(func(t *testing.T, line []byte) {
		if k, err := relay.ParseTunnelHello(line, cs); err == nil {
			t.Fatalf("accepted %q as key %x without a TLS connection", line, k)
		}
	})
}
