package trust_test

import (
	"testing"
	"time"

	"mailnode/mail/store"
	"mailnode/mail/trust"
)

// TestHomographNeverTrusted: a domain that imitates another by its
// letters is never trusted, however old.
func TestHomographNeverTrusted(t *testing.T) {
	now := time.Now()
	for _, tt := range []struct {
		domain string
		want   bool
	}{
		{"xn--lufthns-6fg.com", false}, // lufthаns.com, Cyrillic а
		{"lufthansa.com", true},
		{"xn--bcher-kva.de", true}, // bücher.de
	} {
		s := store.Sender{Address: "service@" + tt.domain, Domain: tt.domain, FirstSeen: now.AddDate(-1, 0, 0)}
		if got := trust.Trusted(true, s, now); got != tt.want {
			t.Errorf("%s: Trusted = %v, want %v", tt.domain, got, tt.want)
		}
	}
}
