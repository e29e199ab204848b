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
