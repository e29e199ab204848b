package carriers

import "testing"

// TestImpersonated: a sender named as a carrier whose domains are known is
// that carrier's only from a domain one of whose labels is the carrier's;
// a name that is no carrier's, or a carrier no list has domains for, is
// never impersonated.
func TestImpersonated(t *testing.T) {
	for _, c := range []struct {
		name, domain string
		want         bool
	}{
		{"Royal Mail", "rm-redelivery-uk.info", true},
		{"DHL Express", "dhl-zoll-paket.top", true},
		{"La Poste", "laposte-suivi-colis.net", true},
		{"Royal Mail", "royalmail.com", false},
		{"UPS", "email.ups.com", false},
		{"DPD CZ", "dpd.cz", false},
		{"DHL Paket", "dhl.de", false},
		{"Zalando", "zalando.de", false},
		{"Hermesetas Shop", "hermesetas.example", false},
		{"", "x.example", false},
		{"Royal Mail", "", false},
	} {
		if got := Impersonated(c.name, c.domain); got != c.want {
			t.Errorf("Impersonated(%q, %q) = %v, want %v", c.name, c.domain, got, c.want)
		}
	}
}
