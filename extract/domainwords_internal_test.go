package extract

import "testing"

// TestDomainWords: a display name less the city after the words that
// spell the domain's name, hyphens and all; nothing else is cut.
func TestDomainWords(t *testing.T) {
	for _, tt := range []struct{ name, org, want string }{
		{"İSKİ İstanbul", "iski.istanbul", "İSKİ"},
		{"Foo Bar Berlin", "foo-bar.de", "Foo Bar"},
		{"Google Play", "google.com", ""},
		{"Clearwave Internet", "clearwave.example", ""},
		{"Acme Berlin", "other.de", ""},
		{"Berlin", "berlin.de", ""},
	} {
		if got := domainWords(tt.name, tt.org); got != tt.want {
			t.Errorf("domainWords(%q, %q) = %q, want %q", tt.name, tt.org, got, tt.want)
		}
	}
}
