package relayserver

import "testing"

func TestClientNetwork(t *testing.T) {
	tests := []struct{ remote, want string }{
		{"192.0.2.7:443", "192.0.2.0/24"},
		{"192.0.2.250:1", "192.0.2.0/24"},
		{"192.0.3.7:443", "192.0.3.0/24"},
		{"[::ffff:192.0.2.9]:80", "192.0.2.0/24"},
		{"[2001:db8:1:2ff:aaaa::1]:443", "2001:db8:1:200::/56"},
		{"[2001:db8:1:2ff::2]:443", "2001:db8:1:200::/56"},
		{"[2001:db8:1:300::1]:443", "2001:db8:1:300::/56"},
		{"[fe80::1%eth0]:443", "fe80::/56"},
		{"127.0.1.1:5", "127.0.1.0/24"},
		// One IPv4 host is one network however it reaches the relay
		// over IPv6: 6to4 of 192.0.2.33, Teredo (RFC 4380's example,
		// the client 192.0.2.45 inverted, whatever server it names).
		{"[2002:c000:221:1::1]:443", "192.0.2.0/24"},
		{"[2001:0:4136:e378:8000:63bf:3fff:fdd2]:443", "192.0.2.0/24"},
		{"[2001:0:aaaa:bbbb:8000:63bf:3fff:fdd2]:443", "192.0.2.0/24"},
		{"@", "@"},
	}
	for _, tt := range tests {
		if got := clientNetwork(tt.remote); got != tt.want {
			t.Errorf("clientNetwork(%q) = %q, want %q", tt.remote, got, tt.want)
		}
	}
	k := queueKeys{secret: []byte("secret")}
	if string(k.network("192.0.2.7:1")) != string(k.network("192.0.2.99:2")) || string(k.network("192.0.2.7:1")) == string(k.network("192.0.3.7:1")) {
		t.Error("network digests do not follow the /24")
	}
	a := k.receipt("label", "id-000001", []byte("bytes"))
	if len(a) != 22 || a != k.receipt("label", "id-000001", []byte("bytes")) || len(k.receipt("label", "", []byte("bytes"))) != 22 {
		t.Errorf("receipt %q", a)
	}
	for _, other := range []string{k.receipt("other", "id-000001", []byte("bytes")), k.receipt("label", "id-000002", []byte("bytes")),
		k.receipt("label", "id-000001", []byte("other")), (queueKeys{secret: []byte("another")}).receipt("label", "id-000001", []byte("bytes"))} {
		if other == a {
			t.Error("two different envelopes drew the same receipt")
		}
	}
}
