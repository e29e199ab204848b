package signin_test

import (
	"errors"
	"strings"
	"testing"

	"mailnode/mail/signin"
)

// TestLookup: no client id is shipped; without one the error names what
// to register and where, and a set one is used.
func TestLookup(t *testing.T) {
	for _, tt := range []struct {
		id, want string
	}{
		{"google", `"Desktop app"`},
		{"microsoft", "http://127.0.0.1" + signin.CallbackPath},
	} {
		_, err := signin.Lookup(tt.id, nil)
		var nc *signin.NoClientError
		if !errors.As(err, &nc) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Lookup(%q, nil) = %v, want a NoClientError saying %s", tt.id, err, tt.want)
		}
		p, err := signin.Lookup(tt.id, signin.Clients{tt.id: {ID: "set-id"}})
		if err != nil || p.Client.ID != "set-id" {
			t.Errorf("Lookup(%q, set) = %+v, %v", tt.id, p.Client, err)
		}
	}
	if _, err := signin.Lookup("yahoo", nil); err == nil {
		t.Error("Lookup(yahoo) = nil error")
	}
}

// TestForIssuer: the ISP database's <oAuth2><issuer> names.
func TestForIssuer(t *testing.T) {
	clients := signin.Clients{"google": {ID: "g"}, "microsoft": {ID: "m"}}
	for _, tt := range []struct {
		host, want string
		ok         bool
	}{
		{"accounts.google.com", "google", true},
		{"login.microsoftonline.com", "microsoft", true},
		{"Login.MicrosoftOnline.com.", "microsoft", true},
		{"api.login.yahoo.com", "", false},
		{"", "", false},
	} {
		p, ok, err := signin.ForIssuer(tt.host, clients)
		if ok != tt.ok || p.ID != tt.want || err != nil {
			t.Errorf("ForIssuer(%q) = %q, %v, %v, want %q, %v", tt.host, p.ID, ok, err, tt.want, tt.ok)
		}
	}
}
