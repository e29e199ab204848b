package relayserver

import "testing"

// TestIsJSON: the plain value compared as it is, every other one as
// mime.ParseMediaType reads it (what resolve and the queue took before).
func TestIsJSON(t *testing.T) {
	for ct, want := range map[string]bool{
		"application/json":                  true,
		"application/json; charset=utf-8":   true,
		"Application/JSON":                  true,
		" application/json":                 true, // as mime.ParseMediaType reads it
		"application/json;":                 true,
		"application/jsonx":                 false,
		"text/plain":                        false,
		"":                                  false,
		"application/json; charset=\"utf-8": false,
	} {
		if got := isJSON(ct); got != want {
			t.Errorf("isJSON(%q) = %v, want %v", ct, got, want)
		}
	}
}
