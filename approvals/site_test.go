package approvals_test

import (
	"testing"

	"mailnode/approvals"
)

func TestSite(t *testing.T) {
	for domain, want := range map[string]string{"a.b.evil.example": "evil.example", "x.shop.co.uk": "shop.co.uk",
		"agent.github.io": "agent.github.io", "co.uk": "co.uk", "Agent.Example.COM": "example.com"} {
		if got := approvals.Site(domain); got != want {
			t.Errorf("Site(%q) = %q, want %q", domain, got, want)
		}
	}
}
