package main

import "testing"

func TestHaveDisplay(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, tt := range []struct {
		goos string
		env  map[string]string
		ok   bool
	}{
		{"linux", nil, false},
		{"linux", map[string]string{"DISPLAY": ":0"}, true},
		{"linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, true},
		{"freebsd", nil, false},
		{"darwin", nil, true},
		{"windows", nil, true},
	} {
		if err := haveDisplay(tt.goos, env(tt.env)); (err == nil) != tt.ok {
			t.Errorf("haveDisplay(%s, %v) = %v, want ok %v", tt.goos, tt.env, err, tt.ok)
		}
	}
}
